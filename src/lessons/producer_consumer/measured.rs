//! The producer-consumer lesson (`src/lessons/producer_consumer/report.rs`): its figures from
//! real GPUs (`data/h100-producer-consumer.json`), read by column name.

use crate::data::measured::{columns, report, Schema};

/// One variant and size of a producer-consumer report: counts over the runs as
/// `(fewest, most)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredHandoff {
    pub variant: String,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub consistent: u32,
    pub promise_held: u32,
    pub consumed: (u32, u32),
    pub stale: (u32, u32),
    pub gave_up: (u32, u32),
    pub longest_wait: (u32, u32),
}

pub const H100_PRODUCER_CONSUMER: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-producer-consumer.json"));

columns! {
    /// One row of the producer-consumer report, as its file has it.
    pub struct HandoffColumns {
        pub variant: String,
        pub invocations: u32,
        pub workgroup_size: u32,
        pub runs: u32,
        pub runs_consistent: u32,
        pub runs_promise_held: u32,
        pub consumed_min: u32,
        pub consumed_max: u32,
        pub stale_min: u32,
        pub stale_max: u32,
        pub gave_up_min: u32,
        pub gave_up_max: u32,
        pub longest_wait_min: u32,
        pub longest_wait_max: u32,
    }
}

pub const SCHEMA: Schema = HandoffColumns::SCHEMA;

impl From<HandoffColumns> for MeasuredHandoff {
    fn from(c: HandoffColumns) -> MeasuredHandoff {
        MeasuredHandoff {
            variant: c.variant,
            invocations: c.invocations,
            workgroup_size: c.workgroup_size,
            runs: c.runs,
            consistent: c.runs_consistent,
            promise_held: c.runs_promise_held,
            consumed: (c.consumed_min, c.consumed_max),
            stale: (c.stale_min, c.stale_max),
            gave_up: (c.gave_up_min, c.gave_up_max),
            longest_wait: (c.longest_wait_min, c.longest_wait_max),
        }
    }
}

pub fn parse_handoff_report(text: &str) -> Option<(String, Vec<MeasuredHandoff>)> {
    report(text, SCHEMA, |r| HandoffColumns::read(&r).map(MeasuredHandoff::from))
}
