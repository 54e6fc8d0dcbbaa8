//! Runs the race kernels on this machine's GPU (native wgpu over Vulkan) and prints what
//! they did as JSON: the figures the lessons show as "measured on …" beside the reader's own.
//!
//! ```sh
//! cargo run --release --example report -- race > data/<gpu>-race.json
//! ```
//!
//! Every number comes from the GPU: final counts read back, tickets recorded by the kernel,
//! timestamp-query durations.

use crate::data::Json;
use crate::gpu::GpuContext;
use crate::lessons::race::gpu::{run_race, run_replay};
use crate::lessons::race::{GpuParams, Variant};
use crate::model::ReplayTimeline;
use std::collections::BTreeMap;
use std::time::Instant;

const RUNS: u32 = 100;

/// Runs the report and prints it to standard output.
pub fn main() {
    let started = Instant::now();
    let ctx = match pollster::block_on(GpuContext::acquire()) {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("no GPU: {e}");
            std::process::exit(1);
        }
    };
    let device_ms = started.elapsed().as_secs_f64() * 1e3;
    let a = &ctx.adapter;
    // The page reads this file a row per line (`lessons::race::measured`), so each row is
    // written on one line, through the same JSON writer as every download.
    let adapter = Json::object([
        ("name", Json::from(a.name.as_str())),
        ("backend", Json::from(a.backend.as_str())),
        ("device_type", Json::from(a.device_type.as_str())),
        ("driver", Json::from(a.driver.as_str())),
        ("timestamps", Json::Bool(a.has_timestamps)),
    ]);
    let mut out = String::from("{\n");
    out += &format!("  \"adapter\": {},\n", adapter.to_line());
    out += &format!("  \"device_creation_ms\": {device_ms:.1},\n  \"race\": [\n");

    let mut rows = Vec::new();
    for variant in [Variant::Racy, Variant::Atomic] {
        for (invocations, workgroup_size) in [(1024, 64), (1024, 256), (65_536, 256), (262_144, 256)] {
            let params = GpuParams { invocations, workgroup_size };
            // One warm-up batch compiles the pipeline and wakes the GPU.
            pollster::block_on(run_race(&ctx, variant, params, 1)).expect("warm-up");
            let t = Instant::now();
            let batch = pollster::block_on(run_race(&ctx, variant, params, RUNS)).expect("batch");
            let wall_ms = t.elapsed().as_secs_f64() * 1e3;
            let t1 = Instant::now();
            pollster::block_on(run_race(&ctx, variant, params, 1)).expect("single");
            let single_ms = t1.elapsed().as_secs_f64() * 1e3;
            let mut histogram: BTreeMap<u32, u32> = BTreeMap::new();
            for c in &batch.finals {
                *histogram.entry(*c).or_default() += 1;
            }
            let allowed = variant.allowed_final_counts(invocations);
            let within = batch.finals.iter().all(|c| allowed.contains(c));
            let counts = Json::Object(histogram.iter().map(|(v, c)| (v.to_string(), Json::from(*c))).collect());
            let row = Json::object([
                ("variant", Json::from(variant.name())),
                ("invocations", Json::from(invocations)),
                ("workgroup_size", Json::from(workgroup_size)),
                ("runs", Json::from(RUNS)),
                ("final_counts", counts),
                ("within_model", Json::Bool(within)),
                ("batch_wall_ms", Json::Number(wall_ms)),
                ("batch_gpu_ms", batch.gpu_ns.map_or(Json::Null, |ns| Json::Number(ns / 1e6))),
                ("single_round_trip_ms", Json::Number(single_ms)),
            ]);
            rows.push(format!("    {}", row.to_line()));
        }
    }
    out += &rows.join(",\n");
    out += "\n  ],\n  \"replay\": [\n";

    let mut rows = Vec::new();
    for variant in [Variant::Racy, Variant::Atomic] {
        for lanes in [4u32, 8, 16] {
            let run = pollster::block_on(run_replay(&ctx, variant, lanes)).expect("replay");
            let timeline = ReplayTimeline::from_records(&run.records, 0, run.final_count).expect("history");
            let order = timeline.steps.iter().map(|s| {
                let kind = match s.access {
                    crate::model::ReplayAccess::Load { value } => format!("L{value}"),
                    crate::model::ReplayAccess::Store { value } => format!("S{value}"),
                    crate::model::ReplayAccess::ReadModifyWrite { old, .. } => format!("A{old}"),
                };
                Json::from(format!("{}:{kind}", s.lane))
            });
            let row = Json::object([
                ("variant", Json::from(variant.name())),
                ("invocations", Json::from(lanes)),
                ("final_count", Json::from(run.final_count)),
                ("disagreements", Json::from(timeline.disagreements() as u32)),
                ("ticket_order", Json::Array(order.collect())),
            ]);
            rows.push(format!("    {}", row.to_line()));
        }
    }
    out += &rows.join(",\n");
    out += "\n  ]\n}";
    println!("{out}");
}
