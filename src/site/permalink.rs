//! Links that reopen a lesson exactly as it was: the query string a lesson's state writes,
//! and the history of hand-chosen ticks that a schedule's name alone cannot reproduce.

/// Keys that belong to the page rather than to a lesson; a rewritten link keeps them.
pub const PAGE_KEYS: [&str; 2] = ["embed", "debug"];

/// Longest `ticks` value read from a link: far beyond any lesson's run, far below a size that
/// could slow the page down.
pub const MAX_TICKS_TEXT: usize = 20_000;

/// Longest query a link carries: past it, the long values (a kernel's text) travel after the
/// `#`, which no server receives (many refuse a request over 8 KB) and the page reads the same.
const QUERY_MAX: usize = 2000;

/// A link to `lesson` with `pairs`: `?lesson=…&…`, its long values moved to `#key=value` when
/// they would make the query pass [`QUERY_MAX`].
pub fn href(lesson: &str, pairs: &[(&str, String)]) -> String {
    let long = pairs.iter().map(|(_, v)| v.len()).sum::<usize>() > QUERY_MAX;
    let (mut link, mut after) = (format!("?lesson={}", encode(lesson)), String::new());
    for (key, value) in pairs {
        let to = if long && value.len() > QUERY_MAX / 8 { &mut after } else { &mut link };
        to.push(if to.is_empty() { '#' } else { '&' });
        to.push_str(&encode(key));
        to.push('=');
        to.push_str(&encode(value));
    }
    link + &after
}

/// `lesson=<id>&key=value…` (no leading `?`), values percent-encoded.
pub fn query(lesson: &str, pairs: &[(&str, String)]) -> String {
    let mut q = format!("lesson={}", encode(lesson));
    for (key, value) in pairs {
        q.push('&');
        q.push_str(&encode(key));
        q.push('=');
        q.push_str(&encode(value));
    }
    q
}

/// Percent-encodes everything but unreserved characters and the `,` and `_` that tick lists
/// use, so links stay readable.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~,".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Ticks as `0,1,0_1_2`: ticks separated by commas, the threads of one tick by underscores.
pub fn format_ticks(ticks: &[Vec<usize>]) -> String {
    ticks.iter().map(|t| t.iter().map(usize::to_string).collect::<Vec<_>>().join("_")).collect::<Vec<_>>().join(",")
}

/// Reads [`format_ticks`]'s format for a model of `threads` threads. Each tick names at
/// least one thread, each below `threads`, none twice.
pub fn parse_ticks(value: &str, threads: usize) -> Result<Vec<Vec<usize>>, String> {
    let refuse = |why: String| Err(format!("ticks={} was ignored: {why}", super::param::quote(value)));
    if value.len() > MAX_TICKS_TEXT {
        return refuse(format!("it is longer than {MAX_TICKS_TEXT} characters"));
    }
    if value.is_empty() {
        return Ok(Vec::new());
    }
    let mut ticks = Vec::new();
    for (i, tick) in value.split(',').enumerate() {
        let mut moved: Vec<usize> = Vec::new();
        for part in tick.split('_') {
            match part.parse::<usize>() {
                Ok(t) if t < threads && !moved.contains(&t) => moved.push(t),
                Ok(t) if t < threads => return refuse(format!("tick {} names thread {t} twice", i + 1)),
                _ => return refuse(format!("tick {} should list thread numbers from 0 to {} joined by _", i + 1, threads.saturating_sub(1))),
            }
        }
        ticks.push(moved);
    }
    Ok(ticks)
}
