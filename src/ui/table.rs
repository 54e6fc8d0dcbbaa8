//! A table of plain text cells. Every table on the site goes through it, so the page carries
//! one copy of the code that draws tables rather than one per table.

use leptos::prelude::*;

#[component]
pub fn TextTable(
    headers: Vec<String>,
    rows: Vec<Vec<String>>,
    #[prop(optional)] caption: Option<String>,
    #[prop(optional)] test_id: Option<&'static str>,
) -> impl IntoView {
    view! {
        <div class="returned-wrap">
            <table class="returned" data-testid=test_id>
                {caption.map(|c| view! { <caption>{c}</caption> })}
                <thead><tr>{headers.into_iter().map(|h| view! { <th>{h}</th> }).collect_view()}</tr></thead>
                <tbody>
                    {rows.into_iter().map(|row| view! {
                        <tr>{row.into_iter().map(|cell| view! { <td>{cell}</td> }).collect_view()}</tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
