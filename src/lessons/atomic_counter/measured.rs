//! The atomic-counter lesson (`src/lessons/atomic_counter/report.rs`): its figures from real GPUs (`data/h100-tickets.json`), read by column name.

use crate::data::measured::{columns, report, Schema};

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

columns! {
    /// One row of the ticket report, as its file has it.
    pub struct TicketColumns {
        pub invocations: u32,
        pub workgroup_size: u32,
        pub runs: u32,
        pub runs_with_exact_permutation: u32,
        pub workgroups_served_whole_min: u32,
        pub workgroups_served_whole_max: u32,
        pub workgroups: u32,
        pub neighbours_in_lane_order_min: u32,
        pub neighbours_in_lane_order_max: u32,
        pub neighbour_pairs: u32,
        pub gpu_ms_median: Option<f64>,
    }
}

pub const SCHEMA: Schema = TicketColumns::SCHEMA;

impl From<TicketColumns> for MeasuredTickets {
    fn from(c: TicketColumns) -> MeasuredTickets {
        MeasuredTickets {
            invocations: c.invocations,
            workgroup_size: c.workgroup_size,
            runs: c.runs,
            exact_permutations: c.runs_with_exact_permutation,
            whole_workgroups: (c.workgroups_served_whole_min, c.workgroups_served_whole_max),
            workgroups: c.workgroups,
            lane_order: (c.neighbours_in_lane_order_min, c.neighbours_in_lane_order_max),
            neighbour_pairs: c.neighbour_pairs,
            gpu_ms_median: c.gpu_ms_median,
        }
    }
}

pub fn parse_ticket_report(text: &str) -> Option<(String, Vec<MeasuredTickets>)> {
    report(text, SCHEMA, |r| TicketColumns::read(&r).map(MeasuredTickets::from))
}
