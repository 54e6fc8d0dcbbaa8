//! The grid-barrier lesson (`src/lessons/grid_barrier/report.rs`): its figures from real GPUs
//! (`data/h100-grid-barrier.json`), read by column name.

use crate::data::measured::{columns, report, Schema};

/// One way and grid size of a grid-barrier report: counts over the runs as `(fewest, most)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredGrid {
    pub way: String,
    pub workgroups: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    pub consistent: u32,
    pub promise_held: u32,
    pub gave_up: (u32, u32),
    pub stale: (u32, u32),
}

pub const H100_GRID_BARRIER: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-grid-barrier.json"));

columns! {
    /// One row of the grid-barrier report, as its file has it.
    pub struct GridColumns {
        pub way: String,
        pub workgroups: u32,
        pub workgroup_size: u32,
        pub runs: u32,
        pub runs_consistent: u32,
        pub runs_promise_held: u32,
        pub gave_up_min: u32,
        pub gave_up_max: u32,
        pub stale_min: u32,
        pub stale_max: u32,
    }
}

pub const SCHEMA: Schema = GridColumns::SCHEMA;

impl From<GridColumns> for MeasuredGrid {
    fn from(c: GridColumns) -> MeasuredGrid {
        MeasuredGrid {
            way: c.way,
            workgroups: c.workgroups,
            workgroup_size: c.workgroup_size,
            runs: c.runs,
            consistent: c.runs_consistent,
            promise_held: c.runs_promise_held,
            gave_up: (c.gave_up_min, c.gave_up_max),
            stale: (c.stale_min, c.stale_max),
        }
    }
}

pub fn parse_grid_report(text: &str) -> Option<(String, Vec<MeasuredGrid>)> {
    report(text, SCHEMA, |r| GridColumns::read(&r).map(MeasuredGrid::from))
}
