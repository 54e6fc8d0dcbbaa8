//! The histogram lesson (`src/lessons/histogram/report.rs`): its figures from real GPUs (`data/h100-histogram.json`), read by column name.

use crate::data::measured::{report, Cell, Schema};

/// One way, size and number of bins of a histogram report (`src/lessons/histogram/report.rs`).
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredHistogram {
    pub variant: String,
    pub values: u32,
    pub workgroup_size: u32,
    pub distinct: u32,
    pub repeats: u32,
    /// Whether every timed pass's bins equalled the CPU's histogram (× repeats).
    pub exact: bool,
    /// Counts lost in the last pass.
    pub lost: u32,
    /// Median milliseconds per dispatch.
    pub ms: Option<f64>,
}

pub const H100_HISTOGRAM: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-histogram.json"));

/// The columns the report writes and the page reads.
pub const SCHEMA: Schema = &[
    ("variant", Cell::Text),
    ("values", Cell::Whole),
    ("workgroup_size", Cell::Whole),
    ("distinct", Cell::Whole),
    ("repeats", Cell::Whole),
    ("exact", Cell::Whole),
    ("lost_last", Cell::Whole),
    ("us_per_dispatch_median", Cell::Decimal),
];

pub fn parse_histogram_report(text: &str) -> Option<(String, Vec<MeasuredHistogram>)> {
    report(text, SCHEMA, |r| {
        Some(MeasuredHistogram {
            variant: r.text("variant")?.to_owned(),
            values: r.whole("values")?,
            workgroup_size: r.whole("workgroup_size")?,
            distinct: r.whole("distinct")?,
            repeats: r.whole("repeats")?,
            exact: r.whole("exact")? == 1,
            lost: r.whole("lost_last")?,
            ms: r.decimal("us_per_dispatch_median").map(|us| us / 1000.0),
        })
    })
}
