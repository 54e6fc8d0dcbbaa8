//! The tiled lesson (`src/lessons/tiled/report.rs`): its figures from real GPUs (`data/h100-tiled.json`), read by column name.

use crate::data::measured::{columns, report, Schema};

/// One variant and size of a tiled-multiply report (`src/lessons/tiled/report.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredTiled {
    pub variant: String,
    pub n: u32,
    pub tile: u32,
    pub runs: u32,
    pub runs_wrong: u32,
    /// Wrong cells per run, `(fewest, most)`.
    pub wrong: (u32, u32),
}

pub const H100_TILED: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-tiled.json"));

columns! {
    /// One row of the tiled report, as its file has it.
    pub struct TiledColumns {
        pub variant: String,
        pub n: u32,
        pub tile: u32,
        pub runs: u32,
        pub runs_wrong: u32,
        pub wrong_min: u32,
        pub wrong_max: u32,
    }
}

pub const SCHEMA: Schema = TiledColumns::SCHEMA;

impl From<TiledColumns> for MeasuredTiled {
    fn from(c: TiledColumns) -> MeasuredTiled {
        MeasuredTiled { variant: c.variant, n: c.n, tile: c.tile, runs: c.runs, runs_wrong: c.runs_wrong, wrong: (c.wrong_min, c.wrong_max) }
    }
}

pub fn parse_tiled_report(text: &str) -> Option<(String, Vec<MeasuredTiled>)> {
    report(text, SCHEMA, |r| TiledColumns::read(&r).map(MeasuredTiled::from))
}
