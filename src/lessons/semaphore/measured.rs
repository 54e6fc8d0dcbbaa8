//! The semaphore lesson (`src/lessons/semaphore/report.rs`): its figures from real GPUs (`data/h100-semaphore.json`), read by column name.

use crate::data::measured::{columns, report, Schema};

/// One variant and size of a semaphore report: counts over the runs as `(fewest, most)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredSemaphore {
    pub semaphore: String,
    pub limit: u32,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub consistent: u32,
    pub limit_held: u32,
    pub entered: (u32, u32),
    pub gave_up: (u32, u32),
    pub peak: (u32, u32),
    pub over: (u32, u32),
}

pub const H100_SEMAPHORE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-semaphore.json"));

columns! {
    /// One row of the semaphore report, as its file has it.
    pub struct SemaphoreColumns {
        pub semaphore: String,
        pub limit: u32,
        pub invocations: u32,
        pub workgroup_size: u32,
        pub runs: u32,
        pub runs_consistent: u32,
        pub runs_limit_held: u32,
        pub entered_min: u32,
        pub entered_max: u32,
        pub gave_up_min: u32,
        pub gave_up_max: u32,
        pub peak_min: u32,
        pub peak_max: u32,
        pub over_min: u32,
        pub over_max: u32,
    }
}

pub const SCHEMA: Schema = SemaphoreColumns::SCHEMA;

impl From<SemaphoreColumns> for MeasuredSemaphore {
    fn from(c: SemaphoreColumns) -> MeasuredSemaphore {
        MeasuredSemaphore {
            semaphore: c.semaphore,
            limit: c.limit,
            invocations: c.invocations,
            workgroup_size: c.workgroup_size,
            runs: c.runs,
            consistent: c.runs_consistent,
            limit_held: c.runs_limit_held,
            entered: (c.entered_min, c.entered_max),
            gave_up: (c.gave_up_min, c.gave_up_max),
            peak: (c.peak_min, c.peak_max),
            over: (c.over_min, c.over_max),
        }
    }
}

pub fn parse_semaphore_report(text: &str) -> Option<(String, Vec<MeasuredSemaphore>)> {
    report(text, SCHEMA, |r| SemaphoreColumns::read(&r).map(MeasuredSemaphore::from))
}
