//! The terms the site uses, each with one plain sentence, and [`gloss`], which marks the first
//! use of each in a page's text so that hovering or focusing it shows the sentence.

/// A term as it appears in running text (matched whole, any case) and what it means.
pub const TERMS: &[(&str, &str)] = &[
    ("lockstep", "Threads running one instruction stream together: at each step every one of them does the same instruction before any goes on."),
    ("uniform control flow", "Every invocation of the workgroup reaches this point by the same path. WGSL requires it of every barrier."),
    ("happens-before", "An order the memory model promises between two operations: if A happens before B, then B sees what A did."),
    ("coherence", "For one location, every invocation sees its writes in one and the same order."),
    ("reads-from", "Which write a read takes its value from."),
    ("workgroup", "The invocations that run together, share workgroup memory and can wait for each other at a barrier: a block, in CUDA."),
    ("relaxed", "An atomic that is indivisible but orders nothing else: other memory may become visible before or after it."),
    ("data race", "Two invocations touch one location at once, at least one writing, not both atomically: WGSL then promises no value."),
];

/// `html` with the first use of each term in [`TERMS`] wrapped as a focusable term that shows
/// its meaning. Only running text is touched: never inside a tag, nor inside `<code>`, `<a>` or
/// an earlier term. `html` is the site's own constant markup, never text from outside.
pub fn gloss(html: &str) -> String {
    let mut out = html.to_owned();
    for (term, meaning) in TERMS {
        if let Some((at, len)) = first_use(&out, term) {
            let word = &out[at..at + len];
            let wrapped = format!(
                "<span class=\"term\" tabindex=\"0\" data-term=\"{term}\">{word}<span class=\"gloss\" role=\"tooltip\">{meaning}</span></span>"
            );
            out.replace_range(at..at + len, &wrapped);
        }
    }
    out
}

/// Where `term` is first used in running text: its byte offset and length.
fn first_use(html: &str, term: &str) -> Option<(usize, usize)> {
    let lower = html.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut from = 0;
    while let Some(found) = lower[from..].find(term) {
        let at = from + found;
        let end = at + term.len();
        let word_edge = |i: Option<&u8>| i.is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-'));
        let whole = word_edge(at.checked_sub(1).and_then(|i| bytes.get(i))) && word_edge(bytes.get(end));
        if whole && in_running_text(&lower[..at]) {
            return Some((at, term.len()));
        }
        from = end;
    }
    None
}

/// Whether text that follows `before` is running text: outside any tag, and outside `<code>`,
/// `<a>` and an earlier term's markup.
fn in_running_text(before: &str) -> bool {
    if before.rfind('<') > before.rfind('>') {
        return false;
    }
    let open = |tag: &str| before.matches(&format!("<{tag}")).count();
    let closed = |tag: &str| before.matches(&format!("</{tag}>")).count();
    ["code", "a ", "span"].iter().all(|tag| {
        let name = tag.trim();
        open(tag) <= closed(name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_use_in_running_text_is_marked() {
        let html = "<p>Threads in <code>lockstep</code> run; lockstep hides bugs, and lockstep again.</p>";
        let out = gloss(html);
        assert_eq!(out.matches("data-term=\"lockstep\"").count(), 1);
        assert!(out.contains("<code>lockstep</code> run; <span class=\"term\""), "{out}");
    }

    #[test]
    fn whole_words_only_and_never_inside_a_tag_or_a_link() {
        let out = gloss("<p><a href=\"?lesson=workgroup\">workgroup</a> workgroups of a workgroup-wide thing</p>");
        assert!(!out.contains("data-term"), "{out}");
        let out = gloss("<p class=\"relaxed\">All atomics are relaxed.</p>");
        assert!(out.starts_with("<p class=\"relaxed\">All atomics are <span"), "{out}");
    }

    #[test]
    fn a_meaning_that_names_another_term_is_left_alone_and_the_text_keeps_its_case() {
        let out = gloss("<p>Lockstep lanes of a workgroup.</p>");
        assert!(out.contains(">Lockstep<span"), "{out}");
        assert_eq!(out.matches("data-term=").count(), 2, "{out}");
        // The lockstep meaning says no term, and the workgroup term is the one in the text.
        assert!(out.contains("a <span class=\"term\" tabindex=\"0\" data-term=\"workgroup\">workgroup<span"), "{out}");
    }
}
