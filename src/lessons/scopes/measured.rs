//! The scopes lesson (`src/lessons/scopes/report.rs`): its figures from real GPUs
//! (`data/h100-scopes.json`), read by column name.

use crate::data::measured::{columns, report, Schema};

/// One variant and size of a scopes report: counts over the runs as `(fewest, most)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredReach {
    pub variant: String,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub consistent: u32,
    pub promise_held: u32,
    pub stale: (u32, u32),
}

pub const H100_SCOPES: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-scopes.json"));

columns! {
    /// One row of the scopes report, as its file has it.
    pub struct ReachColumns {
        pub variant: String,
        pub invocations: u32,
        pub workgroup_size: u32,
        pub runs: u32,
        pub runs_consistent: u32,
        pub runs_promise_held: u32,
        pub stale_min: u32,
        pub stale_max: u32,
    }
}

pub const SCHEMA: Schema = ReachColumns::SCHEMA;

impl From<ReachColumns> for MeasuredReach {
    fn from(c: ReachColumns) -> MeasuredReach {
        MeasuredReach {
            variant: c.variant,
            invocations: c.invocations,
            workgroup_size: c.workgroup_size,
            runs: c.runs,
            consistent: c.runs_consistent,
            promise_held: c.runs_promise_held,
            stale: (c.stale_min, c.stale_max),
        }
    }
}

pub fn parse_reach_report(text: &str) -> Option<(String, Vec<MeasuredReach>)> {
    report(text, SCHEMA, |r| ReachColumns::read(&r).map(MeasuredReach::from))
}
