//! The reduction lesson (`src/lessons/reduction/report.rs`): its figures from real GPUs (`data/h100-reduction.json`), read by column name.

use crate::data::measured::{report, Cell, Schema};

/// One size of a reduction report (`src/lessons/reduction/report.rs`): median time per sum.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredReduction {
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub right: u32,
    pub levels: u32,
    pub tree_ms: Option<f64>,
    pub atomic_ms: Option<f64>,
}

pub const H100_REDUCTION: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-reduction.json"));

/// The columns the report writes and the page reads.
pub const SCHEMA: Schema = &[
    ("invocations", Cell::Whole),
    ("workgroup_size", Cell::Whole),
    ("runs", Cell::Whole),
    ("runs_right", Cell::Whole),
    ("tree_levels", Cell::Whole),
    ("tree_ms_median", Cell::Decimal),
    ("atomic_ms_median", Cell::Decimal),
];

pub fn parse_reduction_report(text: &str) -> Option<(String, Vec<MeasuredReduction>)> {
    report(text, SCHEMA, |r| {
        Some(MeasuredReduction {
            invocations: r.whole("invocations")?,
            workgroup_size: r.whole("workgroup_size")?,
            runs: r.whole("runs")?,
            right: r.whole("runs_right")?,
            levels: r.whole("tree_levels")?,
            tree_ms: r.decimal("tree_ms_median"),
            atomic_ms: r.decimal("atomic_ms_median"),
        })
    })
}
