//! The barrier lesson (`src/lessons/barrier/report.rs`): its figures from real GPUs (`data/h100-barrier.json`), read by column name.

use crate::data::measured::{report, Cell, Schema};

/// One variant and size of a barrier report (`src/lessons/barrier/report.rs`): counts over the
/// runs as `(fewest, most)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredBarrier {
    pub variant: String,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub sound: u32,
    pub stale: (u32, u32),
    pub stale_within_four: (u32, u32),
    pub ordered_workgroups: (u32, u32),
    pub workgroups: u32,
}

pub const H100_BARRIER: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-barrier.json"));

/// The columns the report writes and the page reads.
pub const SCHEMA: Schema = &[
    ("variant", Cell::Text),
    ("invocations", Cell::Whole),
    ("workgroup_size", Cell::Whole),
    ("runs", Cell::Whole),
    ("runs_sound", Cell::Whole),
    ("stale_min", Cell::Whole),
    ("stale_max", Cell::Whole),
    ("stale_within_four_min", Cell::Whole),
    ("stale_within_four_max", Cell::Whole),
    ("ordered_workgroups_min", Cell::Whole),
    ("ordered_workgroups_max", Cell::Whole),
    ("workgroups", Cell::Whole),
];

pub fn parse_barrier_report(text: &str) -> Option<(String, Vec<MeasuredBarrier>)> {
    report(text, SCHEMA, |r| {
        Some(MeasuredBarrier {
            variant: r.text("variant")?.to_owned(),
            invocations: r.whole("invocations")?,
            workgroup_size: r.whole("workgroup_size")?,
            runs: r.whole("runs")?,
            sound: r.whole("runs_sound")?,
            stale: r.range("stale_min", "stale_max")?,
            stale_within_four: r.range("stale_within_four_min", "stale_within_four_max")?,
            ordered_workgroups: r.range("ordered_workgroups_min", "ordered_workgroups_max")?,
            workgroups: r.whole("workgroups")?,
        })
    })
}

/// One way and size of the storage-buffer demonstration (`src/lessons/barrier/across_report.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredAcross {
    pub how: String,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub runs_stale: u32,
    /// Stale reads per run, `(fewest, most)`.
    pub stale: (u32, u32),
    pub impossible: u32,
}

pub const H100_ACROSS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-across.json"));

/// The columns of the storage-buffer report (`src/lessons/barrier/across_report.rs`).
pub const ACROSS_SCHEMA: Schema = &[
    ("how", Cell::Text),
    ("invocations", Cell::Whole),
    ("workgroup_size", Cell::Whole),
    ("runs", Cell::Whole),
    ("runs_stale", Cell::Whole),
    ("stale_min", Cell::Whole),
    ("stale_max", Cell::Whole),
    ("impossible", Cell::Whole),
];

pub fn parse_across_report(text: &str) -> Option<(String, Vec<MeasuredAcross>)> {
    report(text, ACROSS_SCHEMA, |r| {
        Some(MeasuredAcross {
            how: r.text("how")?.to_owned(),
            invocations: r.whole("invocations")?,
            workgroup_size: r.whole("workgroup_size")?,
            runs: r.whole("runs")?,
            runs_stale: r.whole("runs_stale")?,
            stale: r.range("stale_min", "stale_max")?,
            impossible: r.whole("impossible")?,
        })
    })
}
