//! Keeping the address bar in step with the lesson, and the "copy link" control.

use crate::site::permalink::{href, query, PAGE_KEYS};
use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// Quiet time before the address follows the lesson: playing or holding an arrow key changes
/// state many times a second, and browsers throttle pages that rewrite their URL that often.
const SETTLE_MS: u32 = 200;

/// Keeps the address bar at `lesson` with the pairs `state` gives, once it settles.
pub fn follow(lesson: &'static str, state: impl Fn() -> Vec<(&'static str, String)> + 'static) {
    let pending = StoredValue::new_local(None::<Timeout>);
    Effect::new(move |_| {
        let pairs = state();
        mark_pending(true);
        let timer = Timeout::new(SETTLE_MS, move || {
            replace_query(lesson, &pairs);
            mark_pending(false);
        });
        // Dropping the previous timeout cancels it.
        pending.set_value(Some(timer));
    });
    on_cleanup(move || {
        pending.set_value(None);
        mark_pending(false);
    });
}

/// [`follow`] for a page whose link may carry a value too long for a server's request line (a
/// kernel's text): such values are written after the `#` ([`href`]). Apart from `follow`, so that
/// no lesson page carries its code.
pub fn follow_long(lesson: &'static str, state: impl Fn() -> Vec<(&'static str, String)> + 'static) {
    let pending = StoredValue::new_local(None::<Timeout>);
    Effect::new(move |_| {
        let mut pairs = state();
        mark_pending(true);
        let timer = Timeout::new(SETTLE_MS, move || {
            for key in PAGE_KEYS {
                if let Some(v) = crate::site::query::get(key) {
                    pairs.push((key, v));
                }
            }
            let link = href(lesson, &pairs);
            if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
                let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&link));
            }
            mark_pending(false);
        });
        pending.set_value(Some(timer));
    });
    on_cleanup(move || {
        pending.set_value(None);
        mark_pending(false);
    });
}

/// `data-link-pending` on the root element while the address has yet to catch up with the
/// lesson: what a test waits on instead of sleeping.
fn mark_pending(on: bool) {
    let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) else { return };
    let _ = if on { root.set_attribute("data-link-pending", "") } else { root.remove_attribute("data-link-pending") };
}

/// Rewrites the page's query to `lesson` and `pairs` without adding a history entry, keeping
/// the page-level keys (`embed`, `debug`) the page was opened with.
pub fn replace_query(lesson: &str, pairs: &[(&'static str, String)]) {
    let mut all: Vec<(&str, String)> = pairs.to_vec();
    for key in PAGE_KEYS {
        if let Some(v) = crate::site::query::get(key) {
            all.push((key, v));
        }
    }
    let search = format!("?{}", query(lesson, &all));
    let Some(window) = web_sys::window() else { return };
    if window.location().search().ok().as_deref() == Some(search.as_str()) {
        return;
    }
    if let Ok(history) = window.history() {
        // Fails only in documents that cannot change their URL (e.g. opaque origins): the
        // lesson works the same, the link just is not kept up to date.
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&search));
    }
}

/// A button that copies the page's address, which [`replace_query`] keeps current. Where the
/// clipboard is refused (an iframe without permission, an insecure origin) the link is shown
/// in a field, selected, for the reader to copy.
#[component]
pub fn CopyLink() -> impl IntoView {
    let shown = RwSignal::new(None::<String>);
    let status = RwSignal::new("");
    let copy = move |_| {
        let Some(window) = web_sys::window() else { return };
        let Ok(href) = window.location().href() else { return };
        let clipboard = window.navigator().clipboard();
        let promise = clipboard.write_text(&href);
        leptos::task::spawn_local(async move {
            match JsFuture::from(promise).await {
                Ok(_) => {
                    shown.set(None);
                    status.set("Link copied.");
                }
                Err(_) => {
                    shown.set(Some(href));
                    status.set("Copy this link:");
                }
            }
        });
    };
    view! {
        <div class="copy-link">
            <button on:click=copy data-testid="copy-link" title="Copy a link that reopens this lesson as it is now">
                "Copy link"
            </button>
            <span aria-live="polite" data-testid="copy-link-status">{move || status.get()}</span>
            {move || shown.get().map(|href| view! {
                <input type="text" readonly prop:value=href aria-label="link to this state" data-testid="copy-link-field"
                    on:focus=move |e| {
                        use wasm_bindgen::JsCast;
                        if let Some(input) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                            input.select();
                        }
                    } />
            })}
        </div>
    }
}
