//! The spinlock lesson (`src/lessons/spinlock/report.rs`): its figures from real GPUs (`data/h100-spinlock.json`), read by column name.

use crate::data::measured::{report, Cell, Schema};

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

/// The columns the report writes and the page reads.
pub const SCHEMA: Schema = &[
    ("lock", Cell::Text),
    ("invocations", Cell::Whole),
    ("workgroup_size", Cell::Whole),
    ("runs", Cell::Whole),
    ("runs_consistent", Cell::Whole),
    ("runs_excluded", Cell::Whole),
    ("entered_min", Cell::Whole),
    ("entered_max", Cell::Whole),
    ("gave_up_min", Cell::Whole),
    ("gave_up_max", Cell::Whole),
    ("lost_min", Cell::Whole),
    ("lost_max", Cell::Whole),
    ("overlaps_min", Cell::Whole),
    ("overlaps_max", Cell::Whole),
];

pub fn parse_spinlock_report(text: &str) -> Option<(String, Vec<MeasuredSpinlock>)> {
    report(text, SCHEMA, |r| {
        Some(MeasuredSpinlock {
            lock: r.text("lock")?.to_owned(),
            invocations: r.whole("invocations")?,
            workgroup_size: r.whole("workgroup_size")?,
            runs: r.whole("runs")?,
            consistent: r.whole("runs_consistent")?,
            excluded: r.whole("runs_excluded")?,
            entered: r.range("entered_min", "entered_max")?,
            gave_up: r.range("gave_up_min", "gave_up_max")?,
            lost: r.range("lost_min", "lost_max")?,
            overlaps: r.range("overlaps_min", "overlaps_max")?,
        })
    })
}
