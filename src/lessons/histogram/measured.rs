//! The histogram lesson (`src/lessons/histogram/report.rs`): its figures from real GPUs (`data/h100-histogram.json`), read by column name.

use crate::data::measured::{columns, report, Schema};

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

columns! {
    /// One row of the histogram report, as its file has it.
    pub struct HistogramColumns {
        pub variant: String,
        pub values: u32,
        pub workgroup_size: u32,
        pub distinct: u32,
        pub repeats: u32,
        /// 1 where every bin equalled the CPU's count, else 0.
        pub exact: u32,
        pub lost_last: u32,
        pub us_per_dispatch_median: Option<f64>,
    }
}

pub const SCHEMA: Schema = HistogramColumns::SCHEMA;

impl From<HistogramColumns> for MeasuredHistogram {
    fn from(c: HistogramColumns) -> MeasuredHistogram {
        MeasuredHistogram {
            variant: c.variant,
            values: c.values,
            workgroup_size: c.workgroup_size,
            distinct: c.distinct,
            repeats: c.repeats,
            exact: c.exact == 1,
            lost: c.lost_last,
            ms: c.us_per_dispatch_median.map(|us| us / 1000.0),
        }
    }
}

pub fn parse_histogram_report(text: &str) -> Option<(String, Vec<MeasuredHistogram>)> {
    report(text, SCHEMA, |r| HistogramColumns::read(&r).map(MeasuredHistogram::from))
}
