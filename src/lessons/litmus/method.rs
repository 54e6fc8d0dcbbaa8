//! A way of writing message passing — data, then a flag; read the flag, then the data — as
//! CUDA code and as the test the visibility model steps. `x` is the data, `y` the flag; T0
//! produces, T1 consumes. The consumer's wait is drawn as one load of the flag: the runs that
//! matter are those in which it saw the flag set, and the question is whether it can then read
//! `x` still 0. Lessons list their own ([`crate::lessons::producer_consumer::methods`],
//! [`crate::lessons::scopes::cases`]); `play.rs` lets the reader play the memory under each.

use crate::model::litmus::{parse, LitmusTest, Op, Order, Placement, Scope};
use crate::model::Space;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Method {
    /// Its name in the page's controls and test ids.
    pub id: &'static str,
    pub label: &'static str,
    /// The producer and consumer as CUDA writes them.
    pub cuda: &'static str,
    /// The same in the visibility model's syntax (the lab's), threads placed by their labels.
    pub test: &'static str,
    /// What the model's reading of the CUDA takes the statements to be.
    pub reading: &'static str,
    /// Whether the tutorial or the memory model calls it safe: what the tests hold the
    /// models' verdicts to.
    pub safe: bool,
}

/// The outcome a stale read ends in: the consumer saw the flag (r0 = 1) and read the data
/// unwritten (r1 = 0).
pub const STALE: &str = "r0=1 r1=0";

impl Method {
    pub fn litmus(&self) -> LitmusTest {
        parse(self.test, Placement::Across, Space::Storage).expect("every method's test parses")
    }

    /// The scope of the producer's release, where it has one.
    pub fn release_scope(&self) -> Option<Scope> {
        self.litmus().threads.first()?.iter().find_map(|op| match *op {
            Op::Store { mode, .. } if mode.order == Order::Release => mode.scope,
            _ => None,
        })
    }
}

/// For the lessons' tests: each method's stale read is reached by the visibility model (which
/// the page steps) exactly where the scoped, axiomatic model allows it (the two share no code),
/// both agree with what the method is said to be, every outcome the steps reach the axioms
/// allow, and the scene sets its message-passing challenge for it.
#[cfg(all(test, not(target_arch = "wasm32")))]
pub fn assert_models_agree(methods: &[Method]) {
    use crate::model::litmus::{scoped, views};
    for m in methods {
        let test = m.litmus();
        let reached = views::reachable(&test).expect("a small test's states");
        let reaches_stale = reached.keys().any(|o| test.name(o) == STALE);
        let verdicts = scoped::verdicts(&test).expect("the scoped model weighs it");
        let allows_stale = verdicts.allowed.keys().any(|o| test.name(o) == STALE);
        assert_eq!(reaches_stale, allows_stale, "{}: the two models disagree", m.id);
        assert_eq!(allows_stale, !m.safe, "{}: {}", m.id, m.reading);
        assert!(reached.keys().all(|o| verdicts.allowed.contains_key(o)), "{}", m.id);
        let c = super::challenge::Challenge::of(&test);
        assert_eq!(c.map(|c| (c.shape, c.outcome)), Some(("mp", STALE)), "{}", m.id);
    }
}
