//! The challenges the visibility scene sets: for a test of a shape it knows (message passing,
//! store buffering), reach the weak outcome by choosing stale reads, then change the test until
//! the scoped model forbids it. Pure, so the shapes are checked on the host.

use crate::model::litmus::{LitmusTest, Op};

/// A challenge the scene sets for a test of a shape it knows: reach the weak outcome by choosing
/// stale reads, then change the test until the scoped model forbids it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Challenge {
    pub shape: &'static str,
    /// The weak outcome, as the table names it.
    pub outcome: &'static str,
    pub make: &'static str,
    pub done: &'static str,
    pub then: &'static str,
    pub forbidden_here: &'static str,
}

impl Challenge {
    /// Message passing (T0 writes data, then a flag; T1 reads the flag, then the data) and store
    /// buffering (each thread writes one location, then reads the other), fences and orders
    /// anywhere; `None` for any other test.
    pub fn of(test: &LitmusTest) -> Option<Challenge> {
        // The outcomes' names below read r0 and r1 in that order.
        if test.threads.len() != 2 || test.registers != ["r0", "r1"] {
            return None;
        }
        // Each thread's accesses, without its fences and barriers.
        let accesses: Vec<Vec<Op>> = test.threads.iter().map(|ops| ops.iter().copied().filter(|op| op.loc().is_some()).collect()).collect();
        let (a, b) = (&accesses[0], &accesses[1]);
        match (a.as_slice(), b.as_slice()) {
            // The outcome's name says r0 for the flag and r1 for the data: registers in that order.
            (
                [Op::Store { loc: data, value: d, .. }, Op::Store { loc: flag, value: 1, .. }],
                [Op::Load { loc: seen, reg: 0, .. }, Op::Load { loc: read, reg: 1, .. }],
            ) if *d != 0 && data != flag && seen == flag && read == data => {
                Some(Challenge {
                    shape: "mp",
                    outcome: "r0=1 r1=0",
                    make: "Make the consumer read stale data: end with r0=1 r1=0 (T1 sees the flag y = 1, then reads x = 0).",
                    done: "✓ Done: T1 saw the flag, then read stale data.",
                    then: "Then change the test — one order or one fence, e.g. a release store of y and an acquire load of it — until the scoped model forbids r0=1 r1=0.",
                    forbidden_here: "The scoped model forbids it here: no choice of yours reaches it. Something in the test synchronises the flag.",
                })
            }
            (
                [Op::Store { loc: mine, value: m, .. }, Op::Load { loc: theirs, reg: 0, .. }],
                [Op::Store { loc: other, value: o, .. }, Op::Load { loc: back, reg: 1, .. }],
            ) if *m != 0 && *o != 0 && mine != theirs && other == theirs && back == mine => {
                Some(Challenge {
                    shape: "sb",
                    outcome: "r0=0 r1=0",
                    make: "Make each thread miss the other's write: end with r0=0 r1=0 (each stores, then reads the initial 0 of the location the other stored to).",
                    done: "✓ Done: both threads read a stale 0, though each wrote before it read.",
                    then: "Then change the test — a seq_cst fence between each thread's store and its load — until the scoped model forbids r0=0 r1=0. (Release stores and acquire loads are not enough: an acquire helps only a thread that reads the release, and here each reads the initial 0.)",
                    forbidden_here: "The scoped model forbids it here: no choice of yours reaches it. Something in the test orders each store before the other thread's load.",
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Challenge;
    use crate::model::litmus::{parse, preset, Placement};
    use crate::model::Space;

    fn shape(name: &str) -> Option<&'static str> {
        let test = parse(preset(name).unwrap(), Placement::Across, Space::Storage).unwrap();
        Challenge::of(&test).map(|c| c.shape)
    }

    #[test]
    fn challenges_are_set_for_message_passing_and_store_buffering_only() {
        for mp in ["mp", "mp-release-acquire", "mp-workgroup-scope", "mp-threadfence", "mp-fence-block"] {
            assert_eq!(shape(mp), Some("mp"), "{mp}");
        }
        for sb in ["sb", "sb-fence-sc", "sb-fence-acq-rel"] {
            assert_eq!(shape(sb), Some("sb"), "{sb}");
        }
        for other in ["lb", "iriw", "2+2w", "corr", "s", "r"] {
            assert_eq!(shape(other), None, "{other}");
        }
        // Registers the other way round would make the outcome's name mean something else.
        let swapped = parse("T0: x = 1; y = 1 | T1: r1 = y; r0 = x", Placement::Across, Space::Storage).unwrap();
        assert_eq!(Challenge::of(&swapped), None);
    }
}

