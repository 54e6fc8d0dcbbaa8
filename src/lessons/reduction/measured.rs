//! The reduction lesson (`src/lessons/reduction/report.rs`): its figures from real GPUs (`data/h100-reduction.json`), read by column name.

use crate::data::measured::{columns, report, Schema};

/// One size of a reduction report (`src/lessons/reduction/report.rs`): median time per sum.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredReduction {
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub right: u32,
    pub levels: u32,
    pub tree_ms: Option<f64>,
    pub atomic_ms: Option<f64>,
    /// The tree in workgroup memory, then one atomicAdd per workgroup.
    pub tree_atomic_ms: Option<f64>,
}

pub const H100_REDUCTION: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-reduction.json"));

columns! {
    /// One row of the reduction report, as its file has it.
    pub struct ReductionColumns {
        pub invocations: u32,
        pub workgroup_size: u32,
        pub runs: u32,
        pub runs_right: u32,
        pub tree_levels: u32,
        pub tree_ms_median: Option<f64>,
        pub atomic_ms_median: Option<f64>,
        pub tree_atomic_ms_median: Option<f64>,
    }
}

pub const SCHEMA: Schema = ReductionColumns::SCHEMA;

impl From<ReductionColumns> for MeasuredReduction {
    fn from(c: ReductionColumns) -> MeasuredReduction {
        MeasuredReduction {
            invocations: c.invocations,
            workgroup_size: c.workgroup_size,
            runs: c.runs,
            right: c.runs_right,
            levels: c.tree_levels,
            tree_ms: c.tree_ms_median,
            atomic_ms: c.atomic_ms_median,
            tree_atomic_ms: c.tree_atomic_ms_median,
        }
    }
}

pub fn parse_reduction_report(text: &str) -> Option<(String, Vec<MeasuredReduction>)> {
    report(text, SCHEMA, |r| ReductionColumns::read(&r).map(MeasuredReduction::from))
}
