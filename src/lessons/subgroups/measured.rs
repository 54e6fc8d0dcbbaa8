//! The subgroups lesson (`src/lessons/subgroups/report.rs`): its figures from real GPUs
//! (`data/h100-subgroups.json`), read by column name.

use crate::data::measured::{columns, report, Schema};

pub const H100_SUBGROUPS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-subgroups.json"));

columns! {
    /// One way and size of a subgroups report. `wrong`: sums unlike the CPU's (for the
    /// divergent way, active lanes whose sum missed some kept value of their subgroup; for the
    /// reductions, workgroups); `stale`: neighbour reads that found a cell not yet written.
    /// Times are medians over the runs of one timed pass of `repeats` dispatches.
    pub struct SubgroupColumns {
        pub way: String,
        pub invocations: u32,
        pub workgroup_size: u32,
        pub subgroup_size: u32,
        pub runs: u32,
        pub runs_exact: u32,
        pub wrong_min: u32,
        pub wrong_max: u32,
        pub stale_min: u32,
        pub stale_max: u32,
        pub atomics: Option<f64>,
        pub gpu_ms_median: Option<f64>,
    }
}

pub const SCHEMA: Schema = SubgroupColumns::SCHEMA;

pub fn parse_subgroups_report(text: &str) -> Option<(String, Vec<SubgroupColumns>)> {
    report(text, SCHEMA, |r| SubgroupColumns::read(&r))
}
