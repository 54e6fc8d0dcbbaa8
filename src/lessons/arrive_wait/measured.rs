//! The arrive-wait lesson (`src/lessons/arrive_wait/report.rs`): its figures from real GPUs (`data/h100-arrive-wait.json`), read by column name.

use crate::data::measured::{columns, report, Schema};

/// One variant and size of an arrive-wait report: counts over the runs as `(fewest, most)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredArriveWait {
    pub variant: String,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub consistent: u32,
    pub clean: u32,
    pub gave_up: (u32, u32),
    pub stale: (u32, u32),
    pub longest_wait: (u32, u32),
}

pub const H100_ARRIVE_WAIT: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-arrive-wait.json"));

columns! {
    /// One row of the arrive-wait report, as its file has it.
    pub struct ArriveWaitColumns {
        pub variant: String,
        pub invocations: u32,
        pub workgroup_size: u32,
        pub runs: u32,
        pub runs_consistent: u32,
        pub runs_clean: u32,
        pub gave_up_min: u32,
        pub gave_up_max: u32,
        pub stale_min: u32,
        pub stale_max: u32,
        pub longest_wait_min: u32,
        pub longest_wait_max: u32,
    }
}

pub const SCHEMA: Schema = ArriveWaitColumns::SCHEMA;

impl From<ArriveWaitColumns> for MeasuredArriveWait {
    fn from(c: ArriveWaitColumns) -> MeasuredArriveWait {
        MeasuredArriveWait {
            variant: c.variant,
            invocations: c.invocations,
            workgroup_size: c.workgroup_size,
            runs: c.runs,
            consistent: c.runs_consistent,
            clean: c.runs_clean,
            gave_up: (c.gave_up_min, c.gave_up_max),
            stale: (c.stale_min, c.stale_max),
            longest_wait: (c.longest_wait_min, c.longest_wait_max),
        }
    }
}

pub fn parse_arrive_wait_report(text: &str) -> Option<(String, Vec<MeasuredArriveWait>)> {
    report(text, SCHEMA, |r| ArriveWaitColumns::read(&r).map(MeasuredArriveWait::from))
}
