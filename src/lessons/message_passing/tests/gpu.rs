//! The message-passing kernels on a real Vulkan device: every instance is counted once, the
//! same-workgroup variant never shows an outcome its barriers forbid, and sizes the variant
//! cannot pair are refused with a message. Weak outcomes across workgroups are printed, never
//! asserted: the memory model allows them and a GPU may or may not show them.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::message_passing::gpu::{compare_throughput, run_litmus};
use crate::lessons::message_passing::{check, MessagePassingVariant, Outcome};
use std::time::Instant;

use crate::testing::{gpu, limits};

fn now_ms() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

#[test]
fn every_instance_counted_and_promises_kept() {
    let Some(ctx) = gpu() else { return };
    for (n, w) in [(2, 1), (64, 8), (1000, 64), (65_536, 256)] {
        let p = check_params(GpuParams { invocations: n, workgroup_size: w }, &limits(&ctx)).unwrap();
        for variant in MessagePassingVariant::ALL {
            if !variant.across_workgroups() && w < 2 {
                continue; // refused: see below
            }
            for seed in 0..3 {
                let run = pollster::block_on(run_litmus(&ctx, variant, p, 4, seed, now_ms)).unwrap();
                let c = check(variant, &run.counts, run.instances());
                assert!(c.ok(), "{variant:?} {p:?} seed {seed}: {:?} {c:?}", run.counts);
                if seed == 0 && n == 65_536 {
                    let show: Vec<String> = Outcome::ALL.iter().map(|o| format!("{} {}", o.label(), run.counts[o.slot()])).collect();
                    eprintln!("{variant:?} on {}: {}", ctx.adapter.name, show.join(", "));
                }
            }
        }
    }
}

#[test]
fn unpairable_sizes_are_refused() {
    let Some(ctx) = gpu() else { return };
    let one_workgroup = GpuParams { invocations: 64, workgroup_size: 64 };
    let e = pollster::block_on(run_litmus(&ctx, MessagePassingVariant::Relaxed, one_workgroup, 1, 0, now_ms)).unwrap_err();
    assert!(e.to_string().contains("at least two"), "{e}");
    let lone_lanes = GpuParams { invocations: 8, workgroup_size: 1 };
    let e = pollster::block_on(run_litmus(&ctx, MessagePassingVariant::SameWorkgroup, lone_lanes, 1, 0, now_ms)).unwrap_err();
    assert!(e.to_string().contains("at least 2"), "{e}");
    // The device is still usable after a refusal.
    let run = pollster::block_on(run_litmus(&ctx, MessagePassingVariant::SameWorkgroup, one_workgroup, 1, 0, now_ms)).unwrap();
    assert!(check(MessagePassingVariant::SameWorkgroup, &run.counts, 64).ok());
}

#[test]
fn both_sides_of_the_throughput_comparison_count_every_instance() {
    let Some(ctx) = gpu() else { return };
    let p = GpuParams { invocations: 1 << 16, workgroup_size: 256 };
    let t = pollster::block_on(compare_throughput(&ctx, MessagePassingVariant::Relaxed, p, 4, 200, 9, now_ms)).unwrap();
    assert_eq!(t.many.counts.iter().sum::<u64>(), 4 << 16);
    assert_eq!(t.smallest.counts.iter().sum::<u64>(), 400);
    eprintln!(
        "throughput on {}: {:.0} instances/s in dispatches of 65,536, {:.0}/s two per dispatch: {:.0}×",
        ctx.adapter.name,
        t.many.per_second(),
        t.smallest.per_second(),
        t.ratio()
    );
}
