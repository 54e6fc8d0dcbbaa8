//! The atomic-ops lesson (`src/lessons/atomic_ops/report.rs`): its figures from real GPUs (`data/h100-atomic-ops.json`), read by column name.

use crate::data::measured::{columns, report, Schema};

/// One op of an atomic-family report (`src/lessons/atomic_ops/report.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredAtomicOp {
    pub op: String,
    pub ty: String,
    /// `one-workgroup` or `workgroup-each`.
    pub layout: String,
    pub invocations: u32,
    pub runs: u32,
    pub explained: u32,
    pub distinct_finals: u32,
    pub distinct_returns: u32,
    pub spurious: u32,
}

pub const H100_ATOMIC_OPS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-atomic-ops.json"));

columns! {
    /// One row of the atomic-ops report, as its file has it.
    pub struct AtomicOpColumns {
        pub op: String,
        pub ty: String = "type",
        pub layout: String,
        pub invocations: u32,
        pub runs: u32,
        pub runs_explained: u32,
        pub distinct_final_values: u32,
        pub distinct_returned_sets: u32,
        pub spurious_failures: u32,
    }
}

pub const SCHEMA: Schema = AtomicOpColumns::SCHEMA;

impl From<AtomicOpColumns> for MeasuredAtomicOp {
    fn from(c: AtomicOpColumns) -> MeasuredAtomicOp {
        MeasuredAtomicOp {
            op: c.op,
            ty: c.ty,
            layout: c.layout,
            invocations: c.invocations,
            runs: c.runs,
            explained: c.runs_explained,
            distinct_finals: c.distinct_final_values,
            distinct_returns: c.distinct_returned_sets,
            spurious: c.spurious_failures,
        }
    }
}

pub fn parse_atomic_ops_report(text: &str) -> Option<(String, Vec<MeasuredAtomicOp>)> {
    report(text, SCHEMA, |r| AtomicOpColumns::read(&r).map(MeasuredAtomicOp::from))
}
