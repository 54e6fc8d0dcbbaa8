//! A matrix of values drawn as a small grid, row by row, with cells that can be marked: the
//! model's matrices and tiles, and a product the GPU wrote with its wrong cells marked.

use leptos::prelude::*;

#[component]
pub fn MatrixGrid(
    caption: String,
    cols: usize,
    /// Each cell's text, and whether it is marked.
    cells: Vec<(String, bool)>,
    #[prop(optional)] test_id: Option<&'static str>,
) -> impl IntoView {
    let rows: Vec<Vec<(String, bool)>> = cells.chunks(cols.max(1)).map(<[_]>::to_vec).collect();
    view! {
        <div class="matrix-wrap">
            <table class="matrix" data-testid=test_id>
                <caption>{caption}</caption>
                <tbody>
                    {rows.into_iter().map(|row| view! {
                        <tr>{row.into_iter().map(|(text, marked)| view! {
                            <td class:marked=marked data-marked=marked.then_some("true")>{text}</td>
                        }).collect_view()}</tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
