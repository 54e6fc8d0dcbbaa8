//! The tiled lesson (`src/lessons/tiled/report.rs`): its figures from real GPUs (`data/h100-tiled.json`), read by column name.

use crate::data::measured::{report, Cell, Schema};

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

/// The columns the report writes and the page reads.
pub const SCHEMA: Schema = &[
    ("variant", Cell::Text),
    ("n", Cell::Whole),
    ("tile", Cell::Whole),
    ("runs", Cell::Whole),
    ("runs_wrong", Cell::Whole),
    ("wrong_min", Cell::Whole),
    ("wrong_max", Cell::Whole),
];

pub fn parse_tiled_report(text: &str) -> Option<(String, Vec<MeasuredTiled>)> {
    report(text, SCHEMA, |r| {
        Some(MeasuredTiled {
            variant: r.text("variant")?.to_owned(),
            n: r.whole("n")?,
            tile: r.whole("tile")?,
            runs: r.whole("runs")?,
            runs_wrong: r.whole("runs_wrong")?,
            wrong: r.range("wrong_min", "wrong_max")?,
        })
    })
}
