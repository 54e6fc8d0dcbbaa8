//! The barrier lesson (`src/lessons/barrier/report.rs`): its figures from real GPUs (`data/h100-barrier.json`), read by column name.

use crate::data::measured::{columns, report, Schema};

/// One variant and size of a barrier report (`src/lessons/barrier/report.rs`): counts over the
/// runs as `(fewest, most)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredBarrier {
    pub variant: String,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub sound: u32,
    pub stale: (u32, u32),
    pub stale_within_four: (u32, u32),
    pub ordered_workgroups: (u32, u32),
    pub workgroups: u32,
}

pub const H100_BARRIER: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-barrier.json"));

columns! {
    /// One row of the barrier report, as its file has it.
    pub struct BarrierColumns {
        pub variant: String,
        pub invocations: u32,
        pub workgroup_size: u32,
        pub runs: u32,
        pub runs_sound: u32,
        pub stale_min: u32,
        pub stale_max: u32,
        pub stale_within_four_min: u32,
        pub stale_within_four_max: u32,
        pub ordered_workgroups_min: u32,
        pub ordered_workgroups_max: u32,
        pub workgroups: u32,
    }
}

pub const SCHEMA: Schema = BarrierColumns::SCHEMA;

impl From<BarrierColumns> for MeasuredBarrier {
    fn from(c: BarrierColumns) -> MeasuredBarrier {
        MeasuredBarrier {
            variant: c.variant,
            invocations: c.invocations,
            workgroup_size: c.workgroup_size,
            runs: c.runs,
            sound: c.runs_sound,
            stale: (c.stale_min, c.stale_max),
            stale_within_four: (c.stale_within_four_min, c.stale_within_four_max),
            ordered_workgroups: (c.ordered_workgroups_min, c.ordered_workgroups_max),
            workgroups: c.workgroups,
        }
    }
}

pub fn parse_barrier_report(text: &str) -> Option<(String, Vec<MeasuredBarrier>)> {
    report(text, SCHEMA, |r| BarrierColumns::read(&r).map(MeasuredBarrier::from))
}

/// One way and size of the storage-buffer demonstration (`src/lessons/barrier/across_report.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredAcross {
    pub how: String,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub runs_stale: u32,
    /// Stale reads per run, `(fewest, most)`.
    pub stale: (u32, u32),
    pub impossible: u32,
}

pub const H100_ACROSS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-across.json"));

columns! {
    /// One row of the storage-barrier report (`across`), as its file has it.
    pub struct AcrossColumns {
        pub how: String,
        pub invocations: u32,
        pub workgroup_size: u32,
        pub runs: u32,
        pub runs_stale: u32,
        pub stale_min: u32,
        pub stale_max: u32,
        pub impossible: u32,
    }
}

pub const ACROSS_SCHEMA: Schema = AcrossColumns::SCHEMA;

impl From<AcrossColumns> for MeasuredAcross {
    fn from(c: AcrossColumns) -> MeasuredAcross {
        MeasuredAcross {
            how: c.how,
            invocations: c.invocations,
            workgroup_size: c.workgroup_size,
            runs: c.runs,
            runs_stale: c.runs_stale,
            stale: (c.stale_min, c.stale_max),
            impossible: c.impossible,
        }
    }
}

pub fn parse_across_report(text: &str) -> Option<(String, Vec<MeasuredAcross>)> {
    report(text, ACROSS_SCHEMA, |r| AcrossColumns::read(&r).map(MeasuredAcross::from))
}

pub const H100_BARRIER_COST: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-barrier-cost.json"));

columns! {
    /// One size of the barrier-cost report: `workgroups` workgroups of 256 running `rounds`
    /// rounds with two barriers each, then without; times are medians of the timed passes.
    pub struct CostColumns {
        pub workgroups: u32,
        pub workgroup_size: u32,
        pub rounds: u32,
        pub runs: u32,
        pub runs_exact: u32,
        pub with_ns_median: Option<f64>,
        pub without_ns_median: Option<f64>,
        pub ns_per_barrier: Option<f64>,
    }
}

pub const COST_SCHEMA: Schema = CostColumns::SCHEMA;

pub fn parse_cost_report(text: &str) -> Option<(String, Vec<CostColumns>)> {
    report(text, COST_SCHEMA, |r| CostColumns::read(&r))
}
