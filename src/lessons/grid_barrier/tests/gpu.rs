//! The grid barrier on a real Vulkan device: every workgroup passed or gave up; two dispatches
//! always pass and read every part. How many gave up is printed, not asserted: it is the
//! GPU's scheduling.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::grid_barrier::gpu::{run_grid, sweep};
use crate::lessons::grid_barrier::{check, GpuWay};
use crate::testing::{gpu, limits};

#[test]
fn every_grid_size_accounts_for_every_workgroup_and_two_dispatches_keep_their_promise() {
    let Some(ctx) = gpu() else { return };
    let p = check_params(GpuParams { invocations: 64 * 64, workgroup_size: 64 }, &limits(&ctx)).unwrap();
    let mut runs = Vec::new();
    pollster::block_on(sweep(&ctx, p, |way, run| runs.push((way, run)))).unwrap();
    assert_eq!(runs.len(), 8, "1 to 64 workgroups, then two dispatches");
    for (way, run) in runs {
        let params = GpuParams { invocations: run.workgroups * 64, workgroup_size: 64 };
        eprintln!("{way:?} on {}: {run:?}", ctx.adapter.name);
        let c = check(way, params, run);
        assert!(c.consistent && c.promise_held, "{way:?}: {run:?}");
    }
    // A partial last workgroup still reads and is read whole.
    let odd = check_params(GpuParams { invocations: 100, workgroup_size: 64 }, &limits(&ctx)).unwrap();
    let run = pollster::block_on(run_grid(&ctx, GpuWay::TwoDispatches, odd)).unwrap();
    assert_eq!((run.passed, run.gave_up, run.stale), (2, 0, 0));
}
