//! The cas-max lesson (`src/lessons/cas_max/report.rs`): its figures from real GPUs (`data/h100-cas-max.json`), read by column name.

use crate::data::measured::{columns, report, Schema};

/// One row of a compare-exchange report (`src/lessons/cas_max/report.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredCas {
    pub inputs: String,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub exact: u32,
    pub gave_up: u32,
    /// Retries of a whole run: fewest, median, most over the runs.
    pub retries: (u32, u32, u32),
    pub most_by_one: u32,
}

pub const H100_CAS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-cas-max.json"));

columns! {
    /// One row of the cas-max report, as its file has it.
    pub struct CasColumns {
        pub inputs: String,
        pub invocations: u32,
        pub workgroup_size: u32,
        pub runs: u32,
        pub runs_exact: u32,
        pub gave_up: u32,
        pub retries_in_all_min: u32,
        pub retries_in_all_median: u32,
        pub retries_in_all_max: u32,
        pub most_retries_by_one_invocation: u32,
    }
}

pub const SCHEMA: Schema = CasColumns::SCHEMA;

impl From<CasColumns> for MeasuredCas {
    fn from(c: CasColumns) -> MeasuredCas {
        MeasuredCas {
            inputs: c.inputs,
            invocations: c.invocations,
            workgroup_size: c.workgroup_size,
            runs: c.runs,
            exact: c.runs_exact,
            gave_up: c.gave_up,
            retries: (c.retries_in_all_min, c.retries_in_all_median, c.retries_in_all_max),
            most_by_one: c.most_retries_by_one_invocation,
        }
    }
}

pub fn parse_cas_report(text: &str) -> Option<(String, Vec<MeasuredCas>)> {
    report(text, SCHEMA, |r| CasColumns::read(&r).map(MeasuredCas::from))
}

pub const H100_CAS_ADD: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-cas-add.json"));

columns! {
    /// One size of the float-sum report: input 0 is 2^24, the rest 1.0, summed by a
    /// compare-exchange loop. Totals are f32 values; `ones_before` counts the ones the GPU added
    /// before the large value in a run.
    pub struct SumColumns {
        pub invocations: u32,
        pub workgroup_size: u32,
        pub runs: u32,
        pub runs_one_chain: u32,
        pub gave_up: u32,
        pub ones_before_min: u32,
        pub ones_before_max: u32,
        pub total_min: f64,
        pub total_max: f64,
        pub exact_sum: f64,
        pub retries_in_all_median: u32,
    }
}

pub const SUM_SCHEMA: Schema = SumColumns::SCHEMA;

pub fn parse_sum_report(text: &str) -> Option<(String, Vec<SumColumns>)> {
    report(text, SUM_SCHEMA, |r| SumColumns::read(&r))
}
