//! The append lesson (`src/lessons/append/report.rs`): its figures from real GPUs (`data/h100-append.json`), read by column name.

use crate::data::measured::{report, Cell, Schema};

/// One size of an append report (`src/lessons/append/report.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredAppend {
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub exact: u32,
    pub kept: u32,
    pub slots_changed: (u32, u32),
    pub in_input_order: (u32, u32),
}

pub const H100_APPEND: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-append.json"));

/// The columns the report writes and the page reads.
pub const SCHEMA: Schema = &[
    ("invocations", Cell::Whole),
    ("workgroup_size", Cell::Whole),
    ("runs", Cell::Whole),
    ("runs_exact", Cell::Whole),
    ("kept", Cell::Whole),
    ("slots_changed_from_previous_run_min", Cell::Whole),
    ("slots_changed_from_previous_run_max", Cell::Whole),
    ("slots_in_input_order_min", Cell::Whole),
    ("slots_in_input_order_max", Cell::Whole),
];

pub fn parse_append_report(text: &str) -> Option<(String, Vec<MeasuredAppend>)> {
    report(text, SCHEMA, |r| {
        Some(MeasuredAppend {
            invocations: r.whole("invocations")?,
            workgroup_size: r.whole("workgroup_size")?,
            runs: r.whole("runs")?,
            exact: r.whole("runs_exact")?,
            kept: r.whole("kept")?,
            slots_changed: r.range("slots_changed_from_previous_run_min", "slots_changed_from_previous_run_max")?,
            in_input_order: r.range("slots_in_input_order_min", "slots_in_input_order_max")?,
        })
    })
}
