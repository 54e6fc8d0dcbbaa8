//! Reading the page's URL query.

/// The value of `name` in the page's query string, if present.
pub fn get(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search).ok()?.get(name)
}
