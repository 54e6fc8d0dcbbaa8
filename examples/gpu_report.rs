//! Runs the race kernels on this machine's GPU (native wgpu over Vulkan) and prints what
//! they did as JSON: the figures the lessons show as "measured on …" beside the reader's own.
//!
//!     cargo run --release --example gpu_report > data/<gpu>-race.json
//!
//! Every number comes from the GPU: final counts read back, tickets recorded by the kernel,
//! timestamp-query durations.

use std::collections::BTreeMap;
use std::time::Instant;
use syncscope::gpu::race::{run_race, run_replay};
use syncscope::gpu::GpuContext;
use syncscope::lessons::race::{GpuParams, Variant};
use syncscope::model::ReplayTimeline;

const RUNS: u32 = 100;

fn main() {
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
    let mut out = String::from("{\n");
    out += &format!(
        "  \"adapter\": {{\"name\": {:?}, \"backend\": {:?}, \"device_type\": {:?}, \"driver\": {:?}, \"timestamps\": {}}},\n",
        a.name, a.backend, a.device_type, a.driver, a.has_timestamps
    );
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
            let hist = histogram.iter().map(|(v, c)| format!("\"{v}\": {c}")).collect::<Vec<_>>().join(", ");
            rows.push(format!(
                "    {{\"variant\": {:?}, \"invocations\": {invocations}, \"workgroup_size\": {workgroup_size}, \"runs\": {RUNS}, \
                 \"final_counts\": {{{hist}}}, \"within_model\": {within}, \"batch_wall_ms\": {wall_ms:.3}, \
                 \"batch_gpu_ms\": {}, \"single_round_trip_ms\": {single_ms:.3}}}",
                variant.name(),
                batch.gpu_ns.map_or("null".into(), |ns| format!("{:.4}", ns / 1e6)),
            ));
        }
    }
    out += &rows.join(",\n");
    out += "\n  ],\n  \"replay\": [\n";

    let mut rows = Vec::new();
    for variant in [Variant::Racy, Variant::Atomic] {
        for lanes in [4u32, 8, 16] {
            let run = pollster::block_on(run_replay(&ctx, variant, lanes)).expect("replay");
            let timeline = ReplayTimeline::from_records(&run.records, 0, run.final_count).expect("history");
            let order = timeline
                .steps
                .iter()
                .map(|s| {
                    let kind = match s.access {
                        syncscope::model::ReplayAccess::Load { value } => format!("L{value}"),
                        syncscope::model::ReplayAccess::Store { value } => format!("S{value}"),
                        syncscope::model::ReplayAccess::ReadModifyWrite { old, .. } => format!("A{old}"),
                    };
                    format!("\"{}:{kind}\"", s.lane)
                })
                .collect::<Vec<_>>()
                .join(", ");
            rows.push(format!(
                "    {{\"variant\": {:?}, \"invocations\": {lanes}, \"final_count\": {}, \"disagreements\": {}, \"ticket_order\": [{order}]}}",
                variant.name(),
                run.final_count,
                timeline.disagreements()
            ));
        }
    }
    out += &rows.join(",\n");
    out += "\n  ]\n}";
    println!("{out}");
}
