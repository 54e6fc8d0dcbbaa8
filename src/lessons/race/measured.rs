//! The race lesson: its figures from real GPUs (`data/h100-race.json`, written by
//! `src/lessons/race/report.rs`), each field read by name.

use crate::data::measured::{field, number};

/// One race-kernel row of a report: a size, and how often each final count came up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredRace {
    pub variant: String,
    pub invocations: u32,
    pub workgroup_size: u32,
    pub runs: u32,
    /// `(final count, runs that ended there)`, ascending by count.
    pub final_counts: Vec<(u32, u32)>,
}

/// A report: which GPU, and its race rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasuredReport {
    pub adapter: String,
    pub race: Vec<MeasuredRace>,
}

pub const H100_RACE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-race.json"));

pub fn parse_report(text: &str) -> Option<MeasuredReport> {
    let adapter_line = text.lines().find(|l| l.trim_start().starts_with("\"adapter\""))?;
    let adapter = field(adapter_line, "name")?.to_owned();
    let mut race = Vec::new();
    for line in text.lines().filter(|l| l.contains("\"final_counts\"")) {
        let counts = field(line, "final_counts")?.trim_matches(['{', '}']);
        let mut final_counts = Vec::new();
        for pair in counts.split(',').filter(|p| !p.trim().is_empty()) {
            let (k, v) = pair.split_once(':')?;
            final_counts.push((k.trim().trim_matches('"').parse().ok()?, v.trim().parse().ok()?));
        }
        final_counts.sort_unstable();
        race.push(MeasuredRace {
            variant: field(line, "variant")?.to_owned(),
            invocations: number(line, "invocations")?,
            workgroup_size: number(line, "workgroup_size")?,
            runs: number(line, "runs")?,
            final_counts,
        });
    }
    Some(MeasuredReport { adapter, race })
}

impl MeasuredRace {
    /// "1 in 100 of 100 runs" or "1 (94 runs), 2 (6 runs)".
    pub fn describe(&self) -> String {
        match self.final_counts.as_slice() {
            [(count, n)] => format!("{count} in {n} of {} runs", self.runs),
            many => many.iter().map(|(c, n)| format!("{c} ({n} runs)")).collect::<Vec<_>>().join(", "),
        }
    }
}
