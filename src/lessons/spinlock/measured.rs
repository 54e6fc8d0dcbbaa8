//! The spinlock lesson (`src/lessons/spinlock/report.rs`): its figures from real GPUs (`data/h100-spinlock.json`), read by column name.

use crate::data::measured::{columns, report, Schema};

/// One variant and size of a spinlock report (`src/lessons/spinlock/report.rs`): counts over the
/// runs as `(fewest, most)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredSpinlock {
    pub lock: String,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub consistent: u32,
    pub excluded: u32,
    pub entered: (u32, u32),
    pub gave_up: (u32, u32),
    pub lost: (u32, u32),
    pub overlaps: (u32, u32),
}

pub const H100_SPINLOCK: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-spinlock.json"));

columns! {
    /// One row of the spinlock report, as its file has it.
    pub struct SpinlockColumns {
        pub lock: String,
        pub invocations: u32,
        pub workgroup_size: u32,
        pub runs: u32,
        pub runs_consistent: u32,
        pub runs_excluded: u32,
        pub entered_min: u32,
        pub entered_max: u32,
        pub gave_up_min: u32,
        pub gave_up_max: u32,
        pub lost_min: u32,
        pub lost_max: u32,
        pub overlaps_min: u32,
        pub overlaps_max: u32,
    }
}

pub const SCHEMA: Schema = SpinlockColumns::SCHEMA;

impl From<SpinlockColumns> for MeasuredSpinlock {
    fn from(c: SpinlockColumns) -> MeasuredSpinlock {
        MeasuredSpinlock {
            lock: c.lock,
            invocations: c.invocations,
            workgroup_size: c.workgroup_size,
            runs: c.runs,
            consistent: c.runs_consistent,
            excluded: c.runs_excluded,
            entered: (c.entered_min, c.entered_max),
            gave_up: (c.gave_up_min, c.gave_up_max),
            lost: (c.lost_min, c.lost_max),
            overlaps: (c.overlaps_min, c.overlaps_max),
        }
    }
}

pub fn parse_spinlock_report(text: &str) -> Option<(String, Vec<MeasuredSpinlock>)> {
    report(text, SCHEMA, |r| SpinlockColumns::read(&r).map(MeasuredSpinlock::from))
}
