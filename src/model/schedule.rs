//! Who moves next. Every automatic schedule is a pure function of the history so far, so
//! stepping back and forward again always replays the same run.

use super::machine::{Event, Machine};

/// How the threads of the model take turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every ready thread takes the same instruction together, like the lanes of a SIMD group.
    Lockstep,
    /// One instruction each, in turn: thread 0, 1, 2, … and around again.
    RoundRobin,
    /// A random ready thread each step, from a seed, so a run can be shared and replayed.
    Random { seed: u64 },
    /// Each thread runs to its end before the next one starts: no overlap at all.
    Serial,
    /// The reader picks the thread.
    Manual,
}

impl Schedule {
    pub const NAMES: [&'static str; 5] = ["lockstep", "round-robin", "random", "serial", "manual"];

    pub fn name(&self) -> &'static str {
        match self {
            Schedule::Lockstep => "lockstep",
            Schedule::RoundRobin => "round-robin",
            Schedule::Random { .. } => "random",
            Schedule::Serial => "serial",
            Schedule::Manual => "manual",
        }
    }

    /// Parses a schedule name; `seed` is used by `random` only.
    pub fn from_name(name: &str, seed: u64) -> Option<Schedule> {
        Some(match name {
            "lockstep" => Schedule::Lockstep,
            "round-robin" => Schedule::RoundRobin,
            "random" => Schedule::Random { seed },
            "serial" => Schedule::Serial,
            "manual" => Schedule::Manual,
            _ => return None,
        })
    }

    /// The threads that move in the next tick, or `None` when the schedule leaves the choice
    /// to the reader or nothing can move.
    ///
    /// `tick` counts ticks taken so far; `last` is the previous tick's events.
    pub fn pick(&self, machine: &Machine, tick: usize, last: &[Event]) -> Option<Vec<usize>> {
        let ready: Vec<usize> = machine.ready_threads().collect();
        if ready.is_empty() {
            return None;
        }
        match *self {
            Schedule::Lockstep => Some(ready),
            Schedule::Serial => Some(vec![ready[0]]),
            Schedule::RoundRobin => {
                let after = last.last().map_or(0, |e| e.thread + 1);
                let next = ready.iter().copied().find(|&t| t >= after).unwrap_or(ready[0]);
                Some(vec![next])
            }
            Schedule::Random { seed } => {
                let r = splitmix64(seed ^ (tick as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                Some(vec![ready[(r % ready.len() as u64) as usize]])
            }
            Schedule::Manual => None,
        }
    }
}

/// A small, well-mixed hash from one `u64` to another (SplitMix64's finaliser).
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
