//! The arrive-wait kernels on a real Vulkan device: every invocation was released or gave up,
//! each workgroup's tickets are 1 to its size once each, and the split barrier opened once per
//! workgroup. Only the barrier promises no give-up and no stale read, so only its run asserts
//! them; the hand-built waits' are printed.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::arrive_wait::gpu::run_arrive_wait;
use crate::lessons::arrive_wait::{check, ArriveWait};
use crate::testing::{gpu, limits};

#[test]
fn every_variant_accounts_for_every_invocation() {
    let Some(ctx) = gpu() else { return };
    for variant in ArriveWait::ALL {
        for (invocations, workgroup_size) in [(1, 1), (64, 64), (100, 64), (1024, 256)] {
            let p = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
            let run = pollster::block_on(run_arrive_wait(&ctx, variant, p)).unwrap();
            let c = check(variant, p, &run);
            eprintln!(
                "{variant:?} {invocations}/{workgroup_size}: released {} gave up {} stale {} longest wait {}",
                run.released, run.gave_up, run.stale, run.longest_wait
            );
            assert!(c.consistent, "{variant:?} {p:?} on {}: {run:?}", ctx.adapter.name);
            if variant == ArriveWait::WorkgroupBarrier {
                assert!(c.clean, "the barrier promises every neighbour's value: {run:?}");
            }
            if invocations == 1 {
                assert_eq!((run.released, run.gave_up, run.stale), (1, 0, 0), "{variant:?}: one invocation waits for nobody");
            }
        }
    }
}
