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
    /// Said under the value: a time measured on a software adapter is a CPU's.
    note: Option<&'static str>,
}

pub fn figure(label: impl Into<String>, value: impl Into<String>) -> Figure {
    Figure { label: label.into(), value: value.into(), test_id: None, raw: None, note: None }
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

    /// A time measured on `adapter`: on a software adapter (SwiftShader, lavapipe) it says that
    /// the time is a CPU's, so nobody reads it as a GPU's.
    pub fn timed_on(mut self, adapter: &crate::gpu::AdapterSummary) -> Self {
        if adapter.is_cpu {
            self.note = Some(SOFTWARE);
        }
        self
    }
}

/// The adapter's name for a caption over its times, saying so when it is a software one.
pub fn timed_adapter(adapter: &crate::gpu::AdapterSummary) -> String {
    if adapter.is_cpu {
        format!("{} (a software adapter: a CPU's times, not a GPU's)", adapter.name)
    } else {
        adapter.name.clone()
    }
}

/// Beside every time measured on a software adapter.
pub const SOFTWARE: &str = "on a software adapter: a CPU running the kernel, so no GPU's time";

#[component]
pub fn Figures(items: Vec<Figure>) -> impl IntoView {
    view! {
        <dl class="figures">
            {items.into_iter().map(|f| view! {
                <div>
                    <dt>{f.label}</dt>
                    <dd data-testid=f.test_id data-raw=f.raw>{f.value}</dd>
                    {f.note.map(|n| view! { <dd class="software" data-testid="software-note">{n}</dd> })}
                </div>
            }).collect_view()}
        </dl>
    }
}
