//! `?embed=1`: one lesson without the site's header, for an `<iframe>` in course notes. The
//! page tells its parent how tall it is, so the frame can fit it without a scroll bar.
//!
//! The message has one fixed shape, built only from constants and measured numbers:
//! `{ source: "syncscope", type: "height", lesson: <a known lesson id or "">, height: <px> }`.
//! A parent tells two frames apart by `event.source`, not by anything in the message.

use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// True when the page was opened with `embed=1`.
pub fn requested() -> bool {
    super::query::get("embed").as_deref() == Some("1")
}

/// Marks the document as embedded (for the stylesheet) and reports its height to the parent
/// once the page is laid out, and whenever it changes.
pub fn start(lesson: &'static str) {
    let Some(window) = web_sys::window() else { return };
    let Some(document) = window.document() else { return };
    let Some(root) = document.document_element() else { return };
    let _ = root.class_list().add_1("embedded");
    let Ok(Some(parent)) = window.parent() else { return };
    if parent == window {
        return;
    }

    let Some(body) = document.body() else { return };
    let last = Rc::new(Cell::new(-1.0f64));
    let post = {
        let body = body.clone();
        move || {
            // The body's own height (it is a flow root, so its children's margins count), not
            // the document's: that never drops below the frame, so a frame could only grow.
            let height = f64::from(body.scroll_height());
            // A body with nothing laid out in it yet is not the page's height: a parent that
            // took it would collapse the frame to nothing.
            if height <= 0.0 || height == last.get() {
                return;
            }
            last.set(height);
            let message = js_sys::Object::new();
            for (key, value) in [
                ("source", JsValue::from_str("syncscope")),
                ("type", JsValue::from_str("height")),
                ("lesson", JsValue::from_str(lesson)),
                ("height", JsValue::from_f64(height)),
            ] {
                let _ = js_sys::Reflect::set(&message, &JsValue::from_str(key), &value);
            }
            // The message holds nothing private, and the embedding page's origin is not known.
            let _ = parent.post_message(&message, "*");
        }
    };
    // No message now: this runs as the app is built, before its view is in the body, so the
    // body would measure 0. A ResizeObserver reports each element it observes once after the
    // next layout (with the view in place), then on every change: that first report is the
    // first message, with the real height.
    let observer_callback = Closure::<dyn Fn()>::new(post);
    if let Ok(observer) = web_sys::ResizeObserver::new(observer_callback.as_ref().unchecked_ref()) {
        observer.observe(&body);
    }
    // The observer lives as long as the page.
    observer_callback.forget();
}
