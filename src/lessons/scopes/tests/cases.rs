//! The scope cases in two memory models that share no code: the visibility model, which the
//! page steps, reaches the stale read exactly where the scoped (axiomatic) model allows it,
//! and that is where the release's scope does not hold the consumer.

use crate::lessons::litmus::method::STALE;
use crate::lessons::scopes::cases::CASES;
use crate::model::litmus::{scoped, views, Scope};

#[test]
fn the_stale_read_is_reachable_exactly_where_the_scope_does_not_hold_the_consumer() {
    for m in &CASES {
        let test = m.litmus();
        let reached = views::reachable(&test).expect("a small test's states");
        let reaches_stale = reached.keys().any(|o| test.name(o) == STALE);
        let allows_stale = scoped::verdicts(&test).expect("weighed").allowed.keys().any(|o| test.name(o) == STALE);
        assert_eq!(reaches_stale, allows_stale, "{}: the two models disagree", m.id);
        assert_eq!(allows_stale, !m.safe, "{}", m.id);
        // Unsafe exactly where the release reaches only a workgroup and the consumer is outside it.
        let outside = m.release_scope() == Some(Scope::Workgroup) && !test.together(0, 1);
        assert_eq!(allows_stale, outside, "{}", m.id);
    }
}
