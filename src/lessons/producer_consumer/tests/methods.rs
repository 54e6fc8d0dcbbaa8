//! CUDA's handoffs in two memory models that share no code: the visibility model, which the
//! page steps, reaches the stale read exactly where the scoped (axiomatic) model allows it, and
//! both agree with what the tutorial calls safe.

use crate::lessons::litmus::method::STALE;
use crate::lessons::producer_consumer::methods::METHODS;
use crate::model::litmus::{scoped, views};

#[test]
fn the_visibility_model_reaches_the_stale_read_exactly_where_the_scoped_model_allows_it() {
    for m in &METHODS {
        let test = m.litmus();
        let reached = views::reachable(&test).expect("a small test's states");
        let reaches_stale = reached.keys().any(|o| test.name(o) == STALE);
        let verdicts = scoped::verdicts(&test).expect("the scoped model weighs it");
        let allows_stale = verdicts.allowed.keys().any(|o| test.name(o) == STALE);
        assert_eq!(reaches_stale, allows_stale, "{}: the two models disagree", m.id);
        assert_eq!(allows_stale, !m.safe, "{}: {}", m.id, m.reading);
        // Every outcome the steps reach, the axioms allow.
        assert!(reached.keys().all(|o| verdicts.allowed.contains_key(o)), "{}", m.id);
    }
}

#[test]
fn every_method_is_a_message_passing_test_the_scene_sets_its_challenge_for() {
    for m in &METHODS {
        let c = crate::lessons::litmus::challenge::Challenge::of(&m.litmus());
        assert_eq!(c.map(|c| (c.shape, c.outcome)), Some(("mp", STALE)), "{}", m.id);
    }
}
