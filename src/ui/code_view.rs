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
    let follow = FollowLine::new();
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
        // The code holds one element per line, in order: the line's is found by its place, not by
        // a search through every line's attributes.
        let lines = code.children();
        let show = |line: usize, threads: Option<&str>| {
            let Some(element) = line.checked_sub(1).and_then(|i| lines.item(i as u32)) else { return };
            let _ = element.class_list().toggle_with_force("current", threads.is_some());
            let _ = match threads {
                Some(_) => element.set_attribute("aria-current", "step"),
                None => element.remove_attribute("aria-current"),
            };
            if let Some(gutter) = element.children().item(1) {
                crate::ui::set_text(&gutter, threads.unwrap_or_default());
            }
        };
        for (line, _) in was.iter().filter(|(l, _)| !now.iter().any(|(m, _)| m == l)) {
            show(*line, None);
        }
        for (line, threads) in now.iter().filter(|mark| !was.contains(mark)) {
            show(*line, Some(threads));
        }
        // The first line being run stays in sight.
        if let Some(&(first, _)) = now.first().filter(|(first, _)| was.first().map(|(l, _)| l) != Some(first)) {
            follow.watch(&code, first);
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

/// Keeps the line being run inside the code's box (the `pre` around the code): the box scrolls,
/// the page does not, and by nothing while the line is in sight, else to put it a third of the
/// way down.
///
/// An intersection observer says where the line is after the browser has laid the page out
/// anyway. Asked during a step, the line's position would cost a layout of its own: on a
/// sixty-four-lane lockstep step, about as long as the rest of the step.
#[derive(Clone, Copy)]
struct FollowLine {
    observer: StoredValue<Option<LineObserver>, LocalStorage>,
}

struct LineObserver {
    observer: observe::IntersectionObserver,
    _on_change: wasm_bindgen::closure::Closure<dyn FnMut(js_sys::Array)>,
}

impl FollowLine {
    fn new() -> Self {
        let observer = StoredValue::new_local(None::<LineObserver>);
        on_cleanup(move || {
            if let Some(Some(held)) = observer.try_update_value(Option::take) {
                held.observer.disconnect();
            }
        });
        FollowLine { observer }
    }

    /// Follows line `line` of `code` from now on.
    fn watch(self, code: &web_sys::HtmlElement, line: usize) {
        let Some(pre) = code.parent_element() else { return };
        let Some(element) = line.checked_sub(1).and_then(|i| code.children().item(i as u32)) else { return };
        self.observer.update_value(|held| {
            if held.is_none() {
                *held = LineObserver::new(pre);
            }
            if let Some(held) = held {
                // One line followed at a time: observing a target reports it once at once.
                held.observer.disconnect();
                held.observer.observe(&element);
            }
        });
    }
}

impl LineObserver {
    fn new(pre: web_sys::Element) -> Option<Self> {
        use wasm_bindgen::JsCast;
        let root = pre.clone();
        let on_change = wasm_bindgen::closure::Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let Some(entry) = entries.iter().last().map(JsCast::unchecked_into::<observe::Entry>) else { return };
            let Some(shown) = entry.root_bounds() else { return };
            if entry.ratio() >= 1.0 || shown.height() <= 0.0 {
                return;
            }
            let line = entry.bounds();
            root.scroll_by_with_x_and_y(0.0, (line.top() - shown.top() - shown.height() / 3.0).round());
        });
        let options = js_sys::Object::new();
        js_sys::Reflect::set(&options, &"root".into(), &pre).ok()?;
        js_sys::Reflect::set(&options, &"threshold".into(), &1.0.into()).ok()?;
        let observer = observe::IntersectionObserver::new(on_change.as_ref().unchecked_ref(), &options).ok()?;
        Some(LineObserver { observer, _on_change: on_change })
    }
}

/// The parts of the intersection observer API the code view uses.
mod observe {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        pub type IntersectionObserver;
        #[wasm_bindgen(constructor, catch)]
        pub fn new(callback: &js_sys::Function, options: &js_sys::Object) -> Result<IntersectionObserver, JsValue>;
        #[wasm_bindgen(method)]
        pub fn observe(this: &IntersectionObserver, target: &web_sys::Element);
        #[wasm_bindgen(method)]
        pub fn disconnect(this: &IntersectionObserver);

        pub type Entry;
        #[wasm_bindgen(method, getter, js_name = intersectionRatio)]
        pub fn ratio(this: &Entry) -> f64;
        #[wasm_bindgen(method, getter, js_name = boundingClientRect)]
        pub fn bounds(this: &Entry) -> web_sys::DomRect;
        #[wasm_bindgen(method, getter, js_name = rootBounds)]
        pub fn root_bounds(this: &Entry) -> Option<web_sys::DomRect>;
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
