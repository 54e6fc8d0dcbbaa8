//! Figures from a real GPU (`data/*.json`), shown as a table under the reader's own results.

use leptos::prelude::*;

/// `lo–hi`, or one number when they are the same.
pub fn range((lo, hi): (u32, u32)) -> String {
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}–{hi}")
    }
}

/// The frame every lesson's real-GPU figures sit in: closed until the reader opens it, named by
/// the GPU, with whatever the lesson draws inside.
#[component]
pub fn MeasuredDetails(
    /// The GPU's name as its driver gives it.
    adapter: String,
    children: Children,
) -> impl IntoView {
    view! {
        <details class="measured" data-testid="measured-h100">
            <summary>{format!("Measured on an {adapter} (native wgpu, Vulkan)")}</summary>
            {children()}
        </details>
    }
}

#[component]
pub fn MeasuredTable(
    /// The GPU's name as its driver gives it.
    adapter: String,
    headers: &'static [&'static str],
    rows: Vec<Vec<String>>,
    /// Where the figures come from and what to read in them.
    note: &'static str,
) -> impl IntoView {
    view! {
        <MeasuredDetails adapter=adapter>
            <super::table::TextTable headers=headers.iter().map(|h| h.to_string()).collect() rows=rows />
            <p class="muted">{note}</p>
        </MeasuredDetails>
    }
}
