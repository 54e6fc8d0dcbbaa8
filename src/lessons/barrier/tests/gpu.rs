//! The neighbour exchange on a real Vulkan device: with the barrier every read is right and
//! every workgroup's arrivals come before its departures; without it reads are right or
//! stale, never anything else.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::barrier::gpu::run_barrier;
use crate::lessons::barrier::{check, BarrierVariant};

use crate::testing::{gpu, limits};

#[test]
fn with_the_barrier_every_read_is_right_and_nobody_leaves_early() {
    let Some(ctx) = gpu() else { return };
    for (invocations, workgroup_size) in [(1, 1), (64, 64), (1000, 64), (1024, 256), (4100, 128)] {
        let p = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
        let run = pollster::block_on(run_barrier(&ctx, BarrierVariant::With, p)).unwrap();
        let c = check(p, &run);
        assert_eq!((c.right, c.stale, c.impossible), (invocations, 0, 0), "{p:?}: {c:?}");
        assert_eq!(c.ordered_workgroups, c.workgroups, "{p:?}: {c:?}");
        assert!(c.tickets_whole(), "{p:?}");
    }
}

#[test]
fn without_the_barrier_reads_are_right_or_stale() {
    let Some(ctx) = gpu() else { return };
    for (invocations, workgroup_size) in [(1024, 64), (1000, 256)] {
        let p = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
        let run = pollster::block_on(run_barrier(&ctx, BarrierVariant::Without, p)).unwrap();
        let c = check(p, &run);
        // Every read races with its neighbour's write: WGSL promises no value, so a value
        // nobody wrote is reported, not failed; every read is still accounted for.
        assert_eq!(c.right + c.stale + c.impossible, invocations);
        assert_eq!(c.stale, c.stale_within_four + c.stale_across_four);
        eprintln!("without barrier {p:?} on {}: {c:?}", ctx.adapter.name);
    }
}

#[test]
fn storage_writes_are_seen_within_a_workgroup_and_after_a_dispatch_ends() {
    use crate::lessons::barrier::across::run_across;
    use crate::lessons::barrier::{check_across, Across};
    let Some(ctx) = gpu() else { return };
    for (invocations, workgroup_size) in [(64, 64), (1000, 64), (65_536, 256)] {
        let p = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
        for how in Across::ALL {
            let got = pollster::block_on(run_across(&ctx, how, p)).unwrap();
            let c = check_across(how, p, &got);
            assert_eq!(c.right + c.stale + c.impossible, invocations);
            if how.guaranteed() {
                assert_eq!((c.stale, c.impossible), (0, 0), "{how:?} {p:?}: WGSL promises every write is seen");
            }
            eprintln!("{how:?} {p:?} on {}: {c:?}", ctx.adapter.name);
        }
    }
}

#[test]
fn the_cost_kernel_with_barriers_leaves_the_cpus_values_and_is_timed_both_ways() {
    use crate::lessons::barrier::cost::{expected, run_cost};
    // Two rounds by hand: x starts at the lane and each round adds the right-hand neighbour's.
    assert_eq!(expected(4, 1), [1, 3, 5, 3]);
    assert_eq!(expected(4, 2), [4, 8, 8, 4]);
    let Some(ctx) = gpu() else { return };
    for (workgroups, rounds) in [(1, 1), (3, 17), (2, 256)] {
        let cost = pollster::block_on(run_cost(&ctx, workgroups, rounds)).unwrap();
        assert!(cost.exact, "{workgroups} × {rounds}: {cost:?}");
        assert_eq!(cost.barriers(), 2 * rounds);
        // Timestamps where the adapter has them; what they say is the adapter's business.
        assert_eq!(cost.with_ns.is_some(), ctx.adapter.has_timestamps, "{cost:?}");
        assert_eq!(cost.ns_per_barrier().is_some(), ctx.adapter.has_timestamps);
        eprintln!("barrier cost on {}: {cost:?}, {:?} ns a barrier", ctx.adapter.name, cost.ns_per_barrier());
    }
}
