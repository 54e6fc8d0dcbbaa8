//! The scan lesson (`src/lessons/scan/report.rs`): its figures from real GPUs
//! (`data/h100-scan.json`, `data/h200-scan.json` with CUB's rows beside the project's), read by
//! column name.

use crate::data::measured::{columns, report, Schema};

pub const H100_SCAN: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-scan.json"));
pub const H200_SCAN: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h200-scan.json"));

columns! {
    /// One way and size of a scan report: a tile kernel, the three-dispatch scan, the ordered
    /// compaction, the single-pass scan with and without its fallback, the reduce-then-scan, a
    /// `vec4` copy of the input (the bound on a scan's speed), or CUB's scan and `cudaMemcpy`
    /// (`cub`, `copy-cuda`: workgroup size 0, CUB picks its own). Times are medians over the
    /// runs, per scan; GB/s counts each element read once and written once, for every way.
    pub struct ScanColumns {
        pub way: String,
        pub invocations: u32,
        pub workgroup_size: u32,
        pub runs: u32,
        pub runs_exact: u32,
        pub wrong_min: u32,
        pub wrong_max: u32,
        pub gpu_ms_median: Option<f64>,
        pub cpu_ms_median: Option<f64>,
        pub gb_per_s: Option<f64>,
        /// The single-pass ways' counters over every run and repeat (0 for the other ways):
        /// silent tiles summed from the input, look-backs given up, and how many windows of
        /// tiles each look-back read (`windows:tiles …`).
        pub fallbacks: u32,
        pub give_ups: u32,
        pub lookback_windows: String,
    }
}

pub const SCHEMA: Schema = ScanColumns::SCHEMA;

pub fn parse_scan_report(text: &str) -> Option<(String, Vec<ScanColumns>)> {
    report(text, SCHEMA, |r| ScanColumns::read(&r))
}
