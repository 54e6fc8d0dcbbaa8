//! The atomic-counter lesson (`src/lessons/atomic_counter/report.rs`): its figures from real GPUs (`data/h100-tickets.json`), read by column name.

use crate::data::measured::{report, Cell, Schema};

/// One size of a ticket report (`src/lessons/atomic_counter/report.rs`), its numbers read by the
/// report's `columns`.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredTickets {
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub exact_permutations: u32,
    pub whole_workgroups: (u32, u32),
    pub workgroups: u32,
    pub lane_order: (u32, u32),
    pub neighbour_pairs: u32,
    pub gpu_ms_median: Option<f64>,
}

pub const H100_TICKETS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-tickets.json"));

/// The columns the report writes and the page reads.
pub const SCHEMA: Schema = &[
    ("invocations", Cell::Whole),
    ("workgroup_size", Cell::Whole),
    ("runs", Cell::Whole),
    ("runs_with_exact_permutation", Cell::Whole),
    ("workgroups_served_whole_min", Cell::Whole),
    ("workgroups_served_whole_max", Cell::Whole),
    ("workgroups", Cell::Whole),
    ("neighbours_in_lane_order_min", Cell::Whole),
    ("neighbours_in_lane_order_max", Cell::Whole),
    ("neighbour_pairs", Cell::Whole),
    ("gpu_ms_median", Cell::Decimal),
];

pub fn parse_ticket_report(text: &str) -> Option<(String, Vec<MeasuredTickets>)> {
    report(text, SCHEMA, |r| {
        Some(MeasuredTickets {
            invocations: r.whole("invocations")?,
            workgroup_size: r.whole("workgroup_size")?,
            runs: r.whole("runs")?,
            exact_permutations: r.whole("runs_with_exact_permutation")?,
            whole_workgroups: r.range("workgroups_served_whole_min", "workgroups_served_whole_max")?,
            workgroups: r.whole("workgroups")?,
            lane_order: r.range("neighbours_in_lane_order_min", "neighbours_in_lane_order_max")?,
            neighbour_pairs: r.whole("neighbour_pairs")?,
            gpu_ms_median: r.decimal("gpu_ms_median"),
        })
    })
}
