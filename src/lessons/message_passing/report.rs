//! Runs the message-passing litmus test on this machine's GPU (native wgpu over Vulkan): every
//! variant at four sizes, the outcomes counted by the kernel, and the throughput of many
//! instances per dispatch against the smallest test per dispatch. Prints JSON: the figures the
//! message-passing lesson shows beside the reader's.
//!
//! ```sh
//! cargo run --release --example report -- message-passing > data/<gpu>-message-passing.json
//! ```
//!
//! Counts are the kernel's own; nothing here is computed by the model. Counts columns follow
//! `Outcome::ALL`: reader first, writer first, interleaved, weak.

use crate::data::Json;
use crate::gpu::params::GpuParams;
use crate::lessons::message_passing::gpu::{compare_throughput, run_litmus};
use crate::lessons::message_passing::{check, MessagePassingVariant, Outcome};
use crate::site::settings::LessonVariant;
use std::time::Instant;

use crate::data::measured::names;
use super::measured::MessagePassingColumns;
use crate::data::report::count;

fn now_ms() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let mut rows = Vec::new();
    // Workgroups of 32 (one NVIDIA warp each) as well as 256: more workgroups, more pairs
    // spread over the GPU.
    for (instances, workgroup_size, dispatches) in [(1u32 << 16, 256u32, 100u32), (1 << 20, 256, 100), (1 << 22, 256, 20), (1 << 20, 32, 100)] {
        let params = GpuParams { invocations: instances, workgroup_size };
        for variant in MessagePassingVariant::ALL {
            let run = pollster::block_on(run_litmus(&ctx, variant, params, dispatches, u64::from(instances) ^ 0x5eed, now_ms)).expect("run");
            let c = check(variant, &run.counts, run.instances());
            assert!(c.ok(), "{variant:?} {instances}: {c:?}");
            let seen = |o: Outcome| count(run.counts[o.slot()]);
            rows.push(
                MessagePassingColumns {
                    variant: variant.name().to_string(),
                    instances,
                    workgroup_size: params.workgroup_size,
                    dispatches,
                    reader_first: seen(Outcome::ReaderFirst),
                    writer_first: seen(Outcome::WriterFirst),
                    interleaved: seen(Outcome::Interleaved),
                    weak: seen(Outcome::Weak),
                    instances_per_s: run.per_second(),
                }
                .to_json(),
            );
        }
    }
    let many = GpuParams { invocations: 1 << 20, workgroup_size: 256 };
    let t = pollster::block_on(compare_throughput(&ctx, MessagePassingVariant::Relaxed, many, 10, 1000, 7, now_ms)).expect("throughput");
    eprintln!("throughput: {:.0}/s vs {:.0}/s = {:.0}×", t.many.per_second(), t.smallest.per_second(), t.ratio());
    crate::data::report::print_report(
        "message-passing/report",
        &ctx,
        &names(MessagePassingColumns::SCHEMA),
        rows,
        vec![
            ("throughput_variant", Json::from("relaxed")),
            ("throughput_many_instances", Json::from(many.invocations)),
            ("throughput_many_dispatches", Json::from(10u32)),
            ("throughput_many_per_second", Json::Exact(t.many.per_second())),
            ("throughput_smallest_dispatches", Json::from(1000u32)),
            ("throughput_smallest_per_second", Json::Exact(t.smallest.per_second())),
        ],
    );
}
