//! The numbers a GPU report shows, as a list of labelled figures. One component draws them
//! all, so each lesson's report is data rather than markup of its own (smaller wasm).

use leptos::prelude::*;

/// One figure: its label, its value as shown, and how tests find it.
pub struct Figure {
    label: String,
    value: String,
    test_id: Option<&'static str>,
    /// The exact value behind a rounded one (`data-raw`), for tests and tools.
    raw: Option<String>,
}

pub fn figure(label: impl Into<String>, value: impl Into<String>) -> Figure {
    Figure { label: label.into(), value: value.into(), test_id: None, raw: None }
}

impl Figure {
    pub fn id(mut self, test_id: &'static str) -> Self {
        self.test_id = Some(test_id);
        self
    }

    pub fn raw(mut self, raw: impl Into<String>) -> Self {
        self.raw = Some(raw.into());
        self
    }
}

#[component]
pub fn Figures(items: Vec<Figure>) -> impl IntoView {
    view! {
        <dl class="figures">
            {items.into_iter().map(|f| view! {
                <div><dt>{f.label}</dt><dd data-testid=f.test_id data-raw=f.raw>{f.value}</dd></div>
            }).collect_view()}
        </dl>
    }
}
