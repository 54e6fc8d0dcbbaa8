//! The cas-max lesson (`src/lessons/cas_max/report.rs`): its figures from real GPUs (`data/h100-cas-max.json`), read by column name.

use crate::data::measured::{report, Cell, Schema};

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

/// The columns the report writes and the page reads.
pub const SCHEMA: Schema = &[
    ("inputs", Cell::Text),
    ("invocations", Cell::Whole),
    ("workgroup_size", Cell::Whole),
    ("runs", Cell::Whole),
    ("runs_exact", Cell::Whole),
    ("gave_up", Cell::Whole),
    ("retries_in_all_min", Cell::Whole),
    ("retries_in_all_median", Cell::Whole),
    ("retries_in_all_max", Cell::Whole),
    ("most_retries_by_one_invocation", Cell::Whole),
];

pub fn parse_cas_report(text: &str) -> Option<(String, Vec<MeasuredCas>)> {
    report(text, SCHEMA, |r| {
        Some(MeasuredCas {
            inputs: r.text("inputs")?.to_owned(),
            invocations: r.whole("invocations")?,
            workgroup_size: r.whole("workgroup_size")?,
            runs: r.whole("runs")?,
            exact: r.whole("runs_exact")?,
            gave_up: r.whole("gave_up")?,
            retries: (r.whole("retries_in_all_min")?, r.whole("retries_in_all_median")?, r.whole("retries_in_all_max")?),
            most_by_one: r.whole("most_retries_by_one_invocation")?,
        })
    })
}
