//! Reading the page's URL query.

/// The value of `name` in the page's query string, if present.
pub fn get(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search).ok()?.get(name)
}

/// The same, else after the `#`, where a link puts a value too long for a server (see
/// `permalink::href`): read by the pages whose links may carry one.
pub fn get_or_after_hash(name: &str) -> Option<String> {
    get(name).or_else(|| {
        let hash = web_sys::window()?.location().hash().ok()?;
        web_sys::UrlSearchParams::new_with_str(hash.trim_start_matches('#')).ok()?.get(name)
    })
}
