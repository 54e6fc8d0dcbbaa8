//! Checking values that come from outside (URL parameters, form fields): each refusal is a
//! sentence that names the parameter, the bad value and what is accepted.

use std::ops::RangeInclusive;

/// Longest value quoted back in a message, so a hostile URL cannot flood the page.
const QUOTE_LIMIT: usize = 24;

/// `value` in quotes, cut short and with control characters made visible.
pub fn quote(value: &str) -> String {
    // Control characters would garble the message; show them as a replacement mark.
    let mut q: String = value.chars().take(QUOTE_LIMIT).map(|c| if c.is_control() { '\u{FFFD}' } else { c }).collect();
    if value.chars().count() > QUOTE_LIMIT {
        q.push('…');
    }
    format!("\"{q}\"")
}

/// An integer within `range`.
pub fn in_range(name: &str, value: &str, range: RangeInclusive<u64>) -> Result<u64, String> {
    match value.trim().parse::<u64>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(format!("{name}={} was ignored: expected a whole number from {} to {}", quote(value), range.start(), range.end())),
    }
}

/// One of a fixed set of words.
pub fn one_of<'a>(name: &str, value: &str, choices: &[&'a str]) -> Result<&'a str, String> {
    choices.iter().copied().find(|c| *c == value).ok_or_else(|| format!("{name}={} was ignored: expected one of {}", quote(value), choices.join(", ")))
}
