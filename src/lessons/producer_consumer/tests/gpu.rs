//! The handoff kernels on a real Vulkan device: every consumer read or gave up; where WGSL
//! promises the data (one workgroup with the barrier; two dispatches) no read is stale, and
//! where it promises the flag (two dispatches) nobody gives up. Across workgroups the counts
//! are printed, not asserted.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::producer_consumer::gpu::run_handoff;
use crate::lessons::producer_consumer::{check, Handoff};
use crate::testing::{gpu, limits};

#[test]
fn every_variant_accounts_for_every_consumer_and_keeps_its_promise() {
    let Some(ctx) = gpu() else { return };
    for handoff in Handoff::ALL {
        for (invocations, workgroup_size) in [(2, 1), (4, 2), (1024, 64), (4096, 256)] {
            let p = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
            if crate::lessons::producer_consumer::layout_problem(handoff, p).is_some() {
                assert!(pollster::block_on(run_handoff(&ctx, handoff, p)).is_err(), "{handoff:?} {p:?} is refused");
                continue;
            }
            let run = pollster::block_on(run_handoff(&ctx, handoff, p)).unwrap();
            let c = check(handoff, p, run);
            eprintln!("{handoff:?} {invocations}/{workgroup_size} on {}: {run:?}", ctx.adapter.name);
            assert!(c.consistent, "{handoff:?} {p:?}: {run:?}");
            assert!(c.promise_held, "{handoff:?} {p:?}: WGSL's promise broken: {run:?}");
        }
    }
}
