//! Reading the page's URL query.

/// The value of `name` in the page's query string, else after its `#` (where a link puts a
/// value too long for a server: see `permalink::href`), if present.
pub fn get(name: &str) -> Option<String> {
    let location = web_sys::window()?.location();
    let in_query = web_sys::UrlSearchParams::new_with_str(&location.search().ok()?).ok()?.get(name);
    in_query.or_else(|| web_sys::UrlSearchParams::new_with_str(location.hash().ok()?.trim_start_matches('#')).ok()?.get(name))
}
