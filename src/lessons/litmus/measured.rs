//! The litmus lab's figures from real GPUs (`src/lessons/litmus/report.rs`): every preset in each
//! configuration the report runs, read by column name.
//!
//! A preset has as many outcomes as its registers and final values can combine to (3 for
//! `coww`, 16 for `iriw`), so one column per outcome would give every preset a schema of its
//! own. Instead the row's fixed columns say what ran and its totals, and one text cell lists
//! every outcome with its count and both verdicts, in the order the count kernel numbers them:
//! `r0=0 r1=0: 1234 sc=yes wgsl=allowed; r0=1 r1=0: 5 sc=no wgsl=allowed; …`. The report writes
//! that cell through [`outcomes_cell`] and the page reads it through [`read_outcomes`], so the
//! two cannot drift apart.

use crate::data::measured::{columns, report, Schema};

/// One outcome as a GPU counted it, with the verdicts the lab gives it for that configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observed {
    /// The outcome table's name for it, its `data-outcome`: `r0=1 r1=0`.
    pub outcome: String,
    pub count: u64,
    /// Some interleaving reaches it (sequential consistency).
    pub sc: bool,
    /// WGSL's memory model allows it.
    pub allowed: bool,
}

impl Observed {
    /// Allowed, yet reached by no interleaving: what a weak memory shows.
    pub fn weak(&self) -> bool {
        self.allowed && !self.sc
    }
}

/// One configuration of one preset, run on the GPU.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredConfig {
    pub preset: String,
    /// `across` or `same`, as the lab's link names it.
    pub placement: String,
    /// `storage` or `workgroup`.
    pub memory: String,
    /// `none`, `storage` or `workgroup`.
    pub barrier: String,
    pub instances_per_dispatch: u32,
    pub dispatches: u32,
    /// Every instance run: per dispatch × dispatches.
    pub instances: u32,
    pub wall_ms: f64,
    pub per_second: f64,
    /// Instances whose values no outcome lists.
    pub unlisted: u32,
    /// Instances that ended in a weak outcome (allowed, not sequentially consistent).
    pub weak: u32,
    /// Instances that ended in an outcome WGSL forbids.
    pub forbidden: u32,
    /// Anything forbidden or unlisted was seen: a bug in the GPU, its driver or the compiler.
    pub flagged: bool,
    pub outcomes: Vec<Observed>,
}

impl MeasuredConfig {
    /// `same, storage, storageBarrier()`: the configuration in the lab's own words.
    pub fn configuration(&self) -> String {
        let barrier = match self.barrier.as_str() {
            "storage" => ", storageBarrier()",
            "workgroup" => ", workgroupBarrier()",
            _ => "",
        };
        format!("{}, {}{barrier}", self.placement, self.memory)
    }
}

pub const H100_LITMUS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-litmus.json"));

columns! {
    /// One row of the litmus report, as its file has it.
    pub struct LitmusColumns {
        pub preset: String,
        pub placement: String,
        pub memory: String,
        pub barrier: String,
        pub instances_per_dispatch: u32,
        pub dispatches: u32,
        pub instances: u32,
        pub wall_ms: f64,
        pub instances_per_s: f64,
        pub unlisted: u32,
        pub weak: u32,
        pub forbidden: u32,
        /// 1 where anything forbidden or unlisted was seen, else 0.
        pub forbidden_or_unlisted_seen: u32,
        /// Every outcome with its count and verdicts ([`outcomes_cell`]).
        pub outcomes: String,
    }
}

pub const SCHEMA: Schema = LitmusColumns::SCHEMA;

/// The `outcomes` cell: every outcome with its count and verdicts. Outcome names are registers
/// and locations with their values, so neither `;`, `:` nor a comma (which would end the cell)
/// can occur in one.
pub fn outcomes_cell(outcomes: &[Observed]) -> String {
    let yes = |b: bool| if b { "yes" } else { "no" };
    outcomes
        .iter()
        .map(|o| format!("{}: {} sc={} wgsl={}", o.outcome, o.count, yes(o.sc), if o.allowed { "allowed" } else { "forbidden" }))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The outcomes of an `outcomes` cell, or `None` where any entry does not read.
pub fn read_outcomes(cell: &str) -> Option<Vec<Observed>> {
    cell.split("; ")
        .map(|entry| {
            let (outcome, rest) = entry.rsplit_once(": ")?;
            let mut words = rest.split(' ');
            let count = words.next()?.parse().ok()?;
            let sc = match words.next()? {
                "sc=yes" => true,
                "sc=no" => false,
                _ => return None,
            };
            let allowed = match words.next()? {
                "wgsl=allowed" => true,
                "wgsl=forbidden" => false,
                _ => return None,
            };
            words.next().is_none().then(|| Observed { outcome: outcome.to_owned(), count, sc, allowed })
        })
        .collect()
}

impl LitmusColumns {
    /// The row as the page shows it; `None` where the flag is neither 0 nor 1 or an outcome
    /// does not read.
    pub fn config(self) -> Option<MeasuredConfig> {
        Some(MeasuredConfig {
            flagged: match self.forbidden_or_unlisted_seen {
                0 => false,
                1 => true,
                _ => return None,
            },
            outcomes: read_outcomes(&self.outcomes)?,
            preset: self.preset,
            placement: self.placement,
            memory: self.memory,
            barrier: self.barrier,
            instances_per_dispatch: self.instances_per_dispatch,
            dispatches: self.dispatches,
            instances: self.instances,
            wall_ms: self.wall_ms,
            per_second: self.instances_per_s,
            unlisted: self.unlisted,
            weak: self.weak,
            forbidden: self.forbidden,
        })
    }
}

pub fn parse_litmus_report(text: &str) -> Option<(String, Vec<MeasuredConfig>)> {
    report(text, SCHEMA, |r| LitmusColumns::read(&r)?.config())
}
