//! Runs every litmus-lab preset on this machine's GPU (native wgpu over Vulkan), with the lab's
//! own kernels: each in both placements in storage memory without barriers, in one workgroup in
//! workgroup memory, and `mp`, `sb` and `lb` in one workgroup with a barrier of either class
//! between their accesses. Prints JSON, one row per configuration: the figures the lab shows
//! beside the reader's.
//!
//! ```sh
//! cargo run --release --example report -- litmus > data/<gpu>-litmus.json
//! ```
//!
//! Counts are the count kernel's own; the model only names the outcomes and gives each its
//! verdicts. A forbidden outcome or an unlisted instance is recorded and flagged, never asserted
//! against: seen on real hardware it is a finding, and the rest of the report is still wanted.
//!
//! `SYNCSCOPE_LITMUS_INSTANCES` (default 10,000,000) sets the instances aimed at per
//! configuration and `SYNCSCOPE_LITMUS_SECONDS` (default 20) the wall-clock seconds after which a
//! slow configuration stops short of them: a software rasteriser runs far fewer.

use crate::data::measured::names;
use crate::data::Json;
use crate::lessons::litmus::generate::kernels;
use crate::lessons::litmus::gpu::{compile, run, Shape, INSTANCES, WORKGROUP_SIZE};
use crate::lessons::litmus::measured::{outcomes_cell, Observed};
use crate::lessons::litmus::{memory_name, placement_name, preset_text, rows, BarrierModifier, LabSettings};
use crate::model::litmus::{Placement, PRESETS};
use crate::model::Space;
use std::time::Instant;
use super::measured::LitmusColumns;
use crate::data::report::count;

/// Dispatches per submission: a configuration is several submissions, each on its own shuffle
/// of the workgroups, so no single one runs long enough to meet a driver's watchdog and the
/// time budget is checked between them.
const CHUNK: u32 = 32;

fn now_ms() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v.trim().replace('_', "").parse().unwrap_or_else(|_| panic!("{name}={v} is not a whole number")),
        Err(_) => default,
    }
}

/// The configurations the report runs, in the order its rows list them.
fn configurations() -> Vec<(&'static str, Placement, Space, BarrierModifier)> {
    let mut all = Vec::new();
    for (name, _) in PRESETS {
        all.push((name, Placement::Across, Space::Storage, BarrierModifier::None));
        all.push((name, Placement::Same, Space::Storage, BarrierModifier::None));
        all.push((name, Placement::Same, Space::Workgroup, BarrierModifier::None));
        // The three two-thread shapes whose weak outcome a barrier between the accesses
        // forbids, but only among one workgroup and only for the memory class it names.
        if matches!(name, "mp" | "sb" | "lb") {
            all.push((name, Placement::Same, Space::Storage, BarrierModifier::Storage));
            all.push((name, Placement::Same, Space::Storage, BarrierModifier::Workgroup));
        }
    }
    all
}

/// Runs the report and prints it to standard output.
pub fn main() {
    let target = env_number("SYNCSCOPE_LITMUS_INSTANCES", 10_000_000).max(1);
    let budget_ms = env_number("SYNCSCOPE_LITMUS_SECONDS", 20) as f64 * 1e3;
    let ctx = crate::data::report::gpu_or_exit();
    let mut rows_out = Vec::new();
    let mut flagged = Vec::new();
    for (i, (name, placement, memory, barrier)) in configurations().into_iter().enumerate() {
        let settings = LabSettings { text: preset_text(name), placement, memory, barrier };
        let test = settings.test().unwrap_or_else(|e| panic!("{name}: {e}"));
        let table = rows(&test);
        let compiled = pollster::block_on(compile(&ctx, kernels(&test, &settings.text, WORKGROUP_SIZE))).unwrap_or_else(|e| panic!("{name}: {e}"));
        let shape = Shape::of(&test, INSTANCES);
        let wanted = u32::try_from(target.div_ceil(u64::from(shape.instances))).expect("dispatches fit in u32").max(1);
        let (mut dispatches, mut wall_ms, mut unlisted) = (0u32, 0.0f64, 0u64);
        let mut counts = vec![0u64; table.len()];
        let mut submission = 0u64;
        while dispatches < wanted && (dispatches == 0 || wall_ms < budget_ms) {
            let n = CHUNK.min(wanted - dispatches);
            // A different workgroup order for every submission of every configuration.
            let seed = crate::model::splitmix64(((i as u64) << 32) | submission);
            let c = pollster::block_on(run(&ctx, &test, &compiled, INSTANCES, n, seed, now_ms)).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(c.shape, shape, "{name}: every submission the same shape");
            for (total, n) in counts.iter_mut().zip(&c.counts) {
                *total += n;
            }
            unlisted += c.unlisted;
            wall_ms += c.wall_ms;
            dispatches += n;
            submission += 1;
        }
        let instances = u64::from(shape.instances) * u64::from(dispatches);
        let per_second = instances as f64 / (wall_ms / 1e3).max(1e-9);
        let observed: Vec<Observed> =
            table.iter().zip(&counts).map(|(r, &count)| Observed { outcome: r.name.clone(), count, sc: r.sc.is_some(), allowed: r.allowed() }).collect();
        let weak: u64 = observed.iter().filter(|o| o.weak()).map(|o| o.count).sum();
        let forbidden: u64 = observed.iter().filter(|o| !o.allowed).map(|o| o.count).sum();
        // The count kernel puts every instance in exactly one counter; a shortfall or surplus
        // is as much a finding as a forbidden outcome.
        let counted = counts.iter().sum::<u64>() + unlisted;
        let bad = forbidden > 0 || unlisted > 0 || counted != instances;
        let config = format!("{name} {} {} barrier={}", placement_name(placement), memory_name(memory), barrier.name());
        let seen: Vec<String> = observed.iter().filter(|o| !o.sc && o.count > 0).map(|o| format!("{} {}", o.outcome, o.count)).collect();
        eprintln!(
            "{config}: {instances} instances in {dispatches} dispatches, {:.1} ms, {:.0}/s; not sequentially consistent: {}{}",
            wall_ms,
            per_second,
            if seen.is_empty() { "none".to_owned() } else { seen.join(", ") },
            if bad { format!(" — FLAGGED: forbidden {forbidden}, unlisted {unlisted}, counted {counted}") } else { String::new() }
        );
        if bad {
            flagged.push(config);
        }
        rows_out.push(LitmusColumns {
            preset: name.to_string(),
            placement: placement_name(placement).to_string(),
            memory: memory_name(memory).to_string(),
            barrier: barrier.name().to_string(),
            instances_per_dispatch: count(shape.instances),
            dispatches: count(dispatches),
            instances: count(instances),
            wall_ms,
            instances_per_s: per_second,
            unlisted: count(unlisted),
            weak: count(weak),
            forbidden: count(forbidden),
            forbidden_or_unlisted_seen: u32::from(bad),
            outcomes: outcomes_cell(&observed),
        }
        .to_json());
    }
    if !flagged.is_empty() {
        eprintln!("forbidden, unlisted or miscounted instances in: {}", flagged.join("; "));
    }
    crate::data::report::print_report(
        "litmus/report",
        &ctx,
        &names(LitmusColumns::SCHEMA),
        rows_out,
        vec![
            ("workgroup_size", Json::from(WORKGROUP_SIZE)),
            ("instances_aimed_at", Json::from(u32::try_from(target).unwrap_or(u32::MAX))),
            ("seconds_per_configuration", Json::Number(budget_ms / 1e3)),
            ("dispatches_per_submission", Json::from(CHUNK)),
            ("flagged", Json::array(flagged)),
        ],
    );
}
