//! The reader's run of the visibility model ([`crate::model::litmus::views`]) in the lab: the
//! choices it is made of, as the link carries them, and the run they make. The scene that
//! draws it is `scene.rs`.

use crate::model::litmus::views::Visibility;
use crate::model::litmus::LitmusTest;

/// The reader's choices, `(thread, write read)` in order, as the link carries them:
/// `0.0,1.1,1.0` (the write read counts only for a load).
pub fn encode(choices: &[(usize, usize)]) -> String {
    choices.iter().map(|(t, r)| format!("{t}.{r}")).collect::<Vec<_>>().join(",")
}

/// Reads `watch=`; `None` where it is not a list of `thread.write` pairs.
pub fn decode(value: &str) -> Option<Vec<(usize, usize)>> {
    if value.is_empty() {
        return Some(Vec::new());
    }
    value.split(',').take(64).map(|pair| pair.split_once('.').and_then(|(t, r)| Some((t.parse().ok()?, r.parse().ok()?)))).collect()
}

/// The run the choices make, as far as they make sense for `test`.
pub fn replay(test: &LitmusTest, choices: &[(usize, usize)]) -> (Visibility, usize) {
    let mut state = Visibility::start(test);
    for (i, &(t, read)) in choices.iter().enumerate() {
        match (t < test.threads.len()).then(|| state.step(test, t, read)).flatten() {
            Some(next) => state = next,
            None => return (state, i),
        }
    }
    (state, choices.len())
}

