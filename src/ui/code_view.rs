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
    let code = NodeRef::<leptos::html::Code>::new();
    // The lines marked now, with their threads as shown: a step touches only the lines whose
    // marks changed. (A reactive class, label and text on each of a file's lines cost every
    // step a wake-up of each of them, most of them to find nothing changed.)
    let shown = StoredValue::new(Vec::<(usize, String)>::new());
    let marked = move || marks.with(|m| m.iter().map(|(l, t)| (*l, thread_list(t))).collect::<Vec<_>>());
    // Lines are built once per file, with the marks of the moment.
    let lines = move || {
        let now = untrack(marked);
        source
            .get()
            .lines()
            .enumerate()
            .map(|(i, text)| {
                let n = i + 1;
                let on_line = now.iter().find(|(l, _)| *l == n).map(|(_, t)| t.clone());
                let current = on_line.is_some();
                view! {
                    <span class="code-line" class:current=current data-line=n aria-current=current.then_some("step")>
                        <span class="gutter" aria-hidden="true">{format!("{n:>2}")}</span>
                        <span class="threads">{on_line.unwrap_or_default()}</span>
                        <span class="text">{text.to_owned()}</span>
                    </span>
                }
            })
            .collect_view()
    };
    let mark_lines = RenderEffect::new(move |_| {
        let now = marked();
        let Some(code) = code.get() else { return };
        let was = shown.get_value();
        let show = |line: usize, threads: Option<&str>| {
            let Ok(Some(element)) = code.query_selector(&format!("[data-line=\"{line}\"]")) else { return };
            let _ = element.class_list().toggle_with_force("current", threads.is_some());
            let _ = match threads {
                Some(_) => element.set_attribute("aria-current", "step"),
                None => element.remove_attribute("aria-current"),
            };
            if let Ok(Some(gutter)) = element.query_selector(".threads") {
                crate::ui::set_text(&gutter, threads.unwrap_or_default());
            }
        };
        for (line, _) in was.iter().filter(|(l, _)| !now.iter().any(|(m, _)| m == l)) {
            show(*line, None);
        }
        for (line, threads) in now.iter().filter(|mark| !was.contains(mark)) {
            show(*line, Some(threads));
        }
        // The first line being run stays in sight: the code scrolls inside its own box (the page
        // does not move), by as little as brings the line into view.
        if let Some(&(first, _)) = now.first() {
            keep_in_view(&code, first);
        }
        shown.set_value(now);
    });
    StoredValue::new_local(mark_lines);
    view! {
        <figure class="code-view" data-testid="code-view">
            <figcaption><code>{move || file.get()}</code></figcaption>
            <pre tabindex="0"><code node_ref=code>{lines}</code></pre>
        </figure>
    }
}

/// Scrolls the code's box (the `pre` around `code`) so that line `line` is inside it, a third
/// of the way down when it has to move; nothing when it is already in sight.
fn keep_in_view(code: &web_sys::HtmlElement, line: usize) {
    use wasm_bindgen::JsCast;
    let Some(pre) = code.parent_element() else { return };
    let Ok(Some(element)) = code.query_selector(&format!("[data-line=\"{line}\"]")) else { return };
    let Ok(element) = element.dyn_into::<web_sys::HtmlElement>() else { return };
    let (top, height) = (element.offset_top(), element.offset_height());
    let (scrolled, shown) = (pre.scroll_top(), pre.client_height());
    if shown > 0 && (top < scrolled || top + height > scrolled + shown) {
        pre.set_scroll_top((top - shown / 3).max(0));
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
