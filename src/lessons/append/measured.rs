//! The append lesson (`src/lessons/append/report.rs`): its figures from real GPUs (`data/h100-append.json`), read by column name.

use crate::data::measured::{columns, report, Schema};

/// One size of an append report (`src/lessons/append/report.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredAppend {
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub exact: u32,
    pub kept: u32,
    pub slots_changed: (u32, u32),
    pub in_input_order: (u32, u32),
}

pub const H100_APPEND: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-append.json"));

columns! {
    /// One row of the append report, as its file has it.
    pub struct AppendColumns {
        pub invocations: u32,
        pub workgroup_size: u32,
        pub runs: u32,
        pub runs_exact: u32,
        pub kept: u32,
        pub slots_changed_from_previous_run_min: u32,
        pub slots_changed_from_previous_run_max: u32,
        pub slots_in_input_order_min: u32,
        pub slots_in_input_order_max: u32,
    }
}

pub const SCHEMA: Schema = AppendColumns::SCHEMA;

impl From<AppendColumns> for MeasuredAppend {
    fn from(c: AppendColumns) -> MeasuredAppend {
        MeasuredAppend {
            invocations: c.invocations,
            workgroup_size: c.workgroup_size,
            runs: c.runs,
            exact: c.runs_exact,
            kept: c.kept,
            slots_changed: (c.slots_changed_from_previous_run_min, c.slots_changed_from_previous_run_max),
            in_input_order: (c.slots_in_input_order_min, c.slots_in_input_order_max),
        }
    }
}

pub fn parse_append_report(text: &str) -> Option<(String, Vec<MeasuredAppend>)> {
    report(text, SCHEMA, |r| AppendColumns::read(&r).map(MeasuredAppend::from))
}
