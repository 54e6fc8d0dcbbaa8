//! A titled section of a lesson page, labelled for screen readers by its heading.

use leptos::prelude::*;

#[component]
pub fn Panel(
    /// Short name: gives the section its class (`<id>-panel`) and the heading its id.
    id: &'static str,
    title: &'static str,
    children: Children,
) -> impl IntoView {
    let heading = format!("{id}-heading");
    let labelled_by = heading.clone();
    view! {
        <section class=format!("panel {id}-panel") aria-labelledby=labelled_by>
            <h2 id=heading>{title}</h2>
            {children()}
        </section>
    }
}
