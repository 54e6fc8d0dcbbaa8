//! The terms the site uses, each with one plain sentence, and [`gloss`], which marks the first
//! use of each in a page's text so that hovering or focusing it shows the sentence.

/// A term as it appears in running text (matched whole, any case) and what it means.
pub const TERMS: &[(&str, &str)] = &[
    ("lockstep", "Threads running one instruction stream together: at each step every one of them does the same instruction before any goes on."),
    ("uniform control flow", "Every invocation of the workgroup reaches this point by the same path. WGSL requires it of every barrier."),
    ("happens-before", "An order the memory model promises between two operations: if A happens before B, then B sees what A did."),
    ("coherence", "For one location, every invocation sees its writes in one and the same order."),
    ("reads-from", "Which write a read takes its value from."),
    ("from-read", "A read, and a write to its location that comes after the write it read: the read saw the location before that write."),
    ("program order", "The order of one thread's statements, as written."),
    ("workgroup", "The invocations that run together, share workgroup memory and can wait for each other at a barrier: a block, in CUDA."),
    ("relaxed", "An atomic that is indivisible but orders nothing else: other memory may become visible before or after it."),
    ("data race", "Two invocations touch one location at once, at least one writing, not both atomically: WGSL then promises no value."),
];

/// `html` with the first use of each term in [`TERMS`] wrapped as a focusable term that shows
/// its meaning. Only running text is touched: never inside a tag, nor inside `<code>`, `<a>` or
/// an earlier term. `html` is the site's own constant markup, never text from outside.
///
/// Written over bytes, without `format!` or string searchers: it runs in every lesson page's
/// wasm, where each of those would cost more than the work it does.
pub fn gloss(html: &str) -> String {
    let mut out = html.to_owned();
    for (term, meaning) in TERMS {
        if let Some(at) = first_use(out.as_bytes(), term.as_bytes()) {
            let word = out[at..at + term.len()].to_owned();
            let mut wrapped = String::with_capacity(word.len() + meaning.len() + 96);
            for piece in
                [r#"<span class="term" tabindex="0" data-term=""#, term, r#"">"#, &word, r#"<span class="gloss" role="tooltip">"#, meaning, "</span></span>"]
            {
                wrapped.push_str(piece);
            }
            out.replace_range(at..at + term.len(), &wrapped);
        }
    }
    out
}

/// Where `term` (lower case) is first used in running text, as a whole word in any case.
fn first_use(html: &[u8], term: &[u8]) -> Option<usize> {
    let word_char = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
    // Outside a tag while `tag` is false; inside `<code>`, `<a …>` or `<span …>` while `depth` > 0.
    let (mut tag, mut depth) = (false, 0usize);
    let mut i = 0;
    while i < html.len() {
        let c = html[i];
        if c == b'<' {
            let rest = &html[i + 1..];
            let opens = |name: &[u8]| rest.len() > name.len() && rest[..name.len()].eq_ignore_ascii_case(name) && !word_char(rest[name.len()]);
            let closes = rest.first() == Some(&b'/');
            if closes && [&b"/code"[..], b"/a", b"/span"].iter().any(|n| opens(n)) {
                depth = depth.saturating_sub(1);
            } else if [&b"code"[..], b"a", b"span"].iter().any(|n| opens(n)) {
                depth += 1;
            }
            tag = true;
        } else if c == b'>' {
            tag = false;
        } else if !tag && depth == 0 && html.len() - i >= term.len() && html[i..i + term.len()].eq_ignore_ascii_case(term) {
            let before = i.checked_sub(1).map(|b| html[b]);
            let after = html.get(i + term.len()).copied();
            if !before.is_some_and(word_char) && !after.is_some_and(word_char) {
                return Some(i);
            }
        }
        i += 1;
    }
    None
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
