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
    let lines = move || {
        let marks = marks.get();
        source
            .get()
            .lines()
            .enumerate()
            .map(|(i, text)| {
                let n = i + 1;
                let threads = marks.iter().find(|(l, _)| *l == n).map(|(_, t)| t.clone());
                let current = threads.is_some();
                let gutter = threads
                    .map(|t| t.iter().map(|t| format!("t{t}")).collect::<Vec<_>>().join(" "))
                    .unwrap_or_default();
                view! {
                    <span class="code-line" class:current=current data-line=n aria-current=current.then_some("step")>
                        <span class="gutter" aria-hidden="true">{format!("{n:>2}")}</span>
                        <span class="threads">{gutter}</span>
                        <span class="text">{text.to_owned()}</span>
                    </span>
                }
            })
            .collect_view()
    };
    view! {
        <figure class="code-view" data-testid="code-view">
            <figcaption><code>{move || format!("shaders/{}", file.get())}</code></figcaption>
            <pre tabindex="0"><code>{lines}</code></pre>
        </figure>
    }
}
