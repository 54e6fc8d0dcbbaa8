//! The barrier kernels on a real Vulkan device: every read found the neighbour's value or 0;
//! with storageBarrier() and the neighbour in the same workgroup, never 0. Across workgroups
//! the stale reads are printed, not asserted.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::scopes::gpu::run_reach;
use crate::lessons::scopes::{check, layout_problem, BarrierReach};
use crate::testing::{gpu, limits};

#[test]
fn every_variant_counts_every_read_and_keeps_its_promise() {
    let Some(ctx) = gpu() else { return };
    for reach in BarrierReach::ALL {
        for (invocations, workgroup_size) in [(2, 1), (64, 64), (1024, 64), (4096, 256)] {
            let p = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
            if layout_problem(reach, p).is_some() {
                assert!(pollster::block_on(run_reach(&ctx, reach, p)).is_err(), "{reach:?} {p:?} is refused");
                continue;
            }
            let run = pollster::block_on(run_reach(&ctx, reach, p)).unwrap();
            eprintln!("{reach:?} {invocations}/{workgroup_size} on {}: {run:?}", ctx.adapter.name);
            let c = check(reach, p, run);
            assert!(c.consistent, "{reach:?} {p:?}: {run:?}");
            assert!(c.promise_held, "{reach:?} {p:?}: WGSL's promise broken: {run:?}");
        }
    }
}
