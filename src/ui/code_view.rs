//! WGSL source with the lines the model's threads stand on marked, and which threads.

use leptos::prelude::*;

#[component]
pub fn CodeView(
    /// File name shown above the code.
    #[prop(into)]
    file: Signal<&'static str>,
    #[prop(into)] source: Signal<&'static str>,
    /// For each marked 1-based line, the threads on it.
    #[prop(into)]
    marks: Signal<Vec<(usize, Vec<usize>)>>,
) -> impl IntoView {
    // Lines are built once per file; only the marks change as the model steps.
    let lines = move || {
        source
            .get()
            .lines()
            .enumerate()
            .map(|(i, text)| {
                let n = i + 1;
                // Once per step for this line, then read by its class, its aria-current and its gutter.
                let on_line = Memo::new(move |_| marks.with(|m| m.iter().find(|(l, _)| *l == n).map(|(_, t)| thread_list(t))));
                let current = move || on_line.with(Option::is_some);
                view! {
                    <span class="code-line" class:current=current data-line=n aria-current=move || current().then_some("step")>
                        <span class="gutter" aria-hidden="true">{format!("{n:>2}")}</span>
                        <span class="threads">{move || on_line.get().unwrap_or_default()}</span>
                        <span class="text">{text.to_owned()}</span>
                    </span>
                }
            })
            .collect_view()
    };
    view! {
        <figure class="code-view" data-testid="code-view">
            <figcaption><code>{move || file.get()}</code></figcaption>
            <pre tabindex="0"><code>{lines}</code></pre>
        </figure>
    }
}

/// `t0 t2 t4–t9`: thread numbers with consecutive runs of three or more shortened, so a line
/// sixty-four lanes stand on still fits its gutter.
fn thread_list(threads: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < threads.len() {
        let mut j = i;
        while j + 1 < threads.len() && threads[j + 1] == threads[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("t{}–t{}", threads[i], threads[j]));
        } else {
            parts.extend(threads[i..=j].iter().map(|t| format!("t{t}")));
        }
        i = j + 1;
    }
    parts.join(" ")
}
