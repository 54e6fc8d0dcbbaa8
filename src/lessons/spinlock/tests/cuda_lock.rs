//! A CUDA lock's handover in two memory models that share no code: the visibility model, which
//! the page steps, lets the next holder read stale data exactly where the scoped (axiomatic)
//! model allows it, and both agree with which locks are right.

use crate::lessons::litmus::method::STALE;
use crate::lessons::spinlock::cuda_lock::LOCK_METHODS;
use crate::model::litmus::{scoped, views};

#[test]
fn the_next_holder_reads_stale_data_exactly_where_the_scoped_model_allows_it() {
    for m in &LOCK_METHODS {
        let test = m.litmus();
        let reached = views::reachable(&test).expect("a small test's states");
        let reaches_stale = reached.keys().any(|o| test.name(o) == STALE);
        let verdicts = scoped::verdicts(&test).expect("the scoped model weighs it");
        let allows_stale = verdicts.allowed.keys().any(|o| test.name(o) == STALE);
        assert_eq!(reaches_stale, allows_stale, "{}: the two models disagree", m.id);
        assert_eq!(allows_stale, !m.safe, "{}: {}", m.id, m.reading);
        assert!(reached.keys().all(|o| verdicts.allowed.contains_key(o)), "{}", m.id);
    }
}

#[test]
fn every_lock_is_a_message_passing_test_the_scene_sets_its_challenge_for() {
    for m in &LOCK_METHODS {
        let c = crate::lessons::litmus::challenge::Challenge::of(&m.litmus());
        assert_eq!(c.map(|c| (c.shape, c.outcome)), Some(("mp", STALE)), "{}", m.id);
    }
    // Two right and two wrong, the fence on both sides being what tells them apart.
    assert_eq!(LOCK_METHODS.iter().filter(|m| m.safe).count(), 2);
}
