//! The atomic-ops lesson (`src/lessons/atomic_ops/report.rs`): its figures from real GPUs (`data/h100-atomic-ops.json`), read by column name.

use crate::data::measured::{report, Cell, Schema};

/// One op of an atomic-family report (`src/lessons/atomic_ops/report.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredAtomicOp {
    pub op: String,
    pub ty: String,
    /// `one-workgroup` or `workgroup-each`.
    pub layout: String,
    pub invocations: u32,
    pub runs: u32,
    pub explained: u32,
    pub distinct_finals: u32,
    pub distinct_returns: u32,
    pub spurious: u32,
}

pub const H100_ATOMIC_OPS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-atomic-ops.json"));

/// The columns the report writes and the page reads.
pub const SCHEMA: Schema = &[
    ("op", Cell::Text),
    ("type", Cell::Text),
    ("layout", Cell::Text),
    ("invocations", Cell::Whole),
    ("runs", Cell::Whole),
    ("runs_explained", Cell::Whole),
    ("distinct_final_values", Cell::Whole),
    ("distinct_returned_sets", Cell::Whole),
    ("spurious_failures", Cell::Whole),
];

pub fn parse_atomic_ops_report(text: &str) -> Option<(String, Vec<MeasuredAtomicOp>)> {
    report(text, SCHEMA, |r| {
        Some(MeasuredAtomicOp {
            op: r.text("op")?.to_owned(),
            ty: r.text("type")?.to_owned(),
            layout: r.text("layout")?.to_owned(),
            invocations: r.whole("invocations")?,
            runs: r.whole("runs")?,
            explained: r.whole("runs_explained")?,
            distinct_finals: r.whole("distinct_final_values")?,
            distinct_returns: r.whole("distinct_returned_sets")?,
            spurious: r.whole("spurious_failures")?,
        })
    })
}
