//! "Download JSON": hands the reader a file made in the page, with no server involved.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Offers `text` to the reader as a file called `name`.
pub fn save_json(name: &str, text: &str) -> Result<(), String> {
    let fail = |what: &str| format!("could not prepare the download ({what})");
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(|_| fail("blob"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| fail("object URL"))?;
    let document = web_sys::window().and_then(|w| w.document()).ok_or_else(|| fail("no document"))?;
    let link: web_sys::HtmlAnchorElement = document.create_element("a").map_err(|_| fail("link"))?.unchecked_into();
    link.set_href(&url);
    link.set_download(name);
    link.click();
    // The click has started the download; the object URL is no longer needed.
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// A button that downloads what `make` returns (a file name and its JSON text).
#[component]
pub fn DownloadJson(
    /// Boxed rather than generic, so every panel shares one copy of this component.
    make: Box<dyn Fn() -> (String, String)>,
    /// The button's `data-testid`.
    test_id: &'static str,
) -> impl IntoView {
    let problem = RwSignal::new(None::<String>);
    view! {
        <button class="download" data-testid=test_id on:click=move |_| {
            let (name, text) = make();
            problem.set(save_json(&name, &text).err());
        }>"Download JSON"</button>
        {move || problem.get().map(|p| view! { <span class="notice warn" role="alert">{p}</span> })}
    }
}
