//! The semaphore kernels on a real Vulkan device: every invocation entered or gave up, the
//! count and `inside` balance, and the peak lies between 1 and the entries. Whether the limit
//! held is asserted only for one invocation alone: WGSL's relaxed atomics promise nothing
//! about `inside` against `count`, and nothing about the read-then-take kernel.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::semaphore::gpu::run_semaphore;
use crate::lessons::semaphore::{check, Semaphore};
use crate::testing::{gpu, limits};

#[test]
fn every_variant_accounts_for_every_invocation() {
    let Some(ctx) = gpu() else { return };
    for semaphore in Semaphore::ALL {
        for (invocations, workgroup_size) in [(1, 1), (64, 64), (1024, 64), (4096, 256)] {
            let p = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
            let run = pollster::block_on(run_semaphore(&ctx, semaphore, p)).unwrap();
            let c = check(semaphore, p, run);
            assert!(c.consistent, "{semaphore:?} {p:?} on {}: {run:?}", ctx.adapter.name);
            eprintln!("{semaphore:?} {invocations}/{workgroup_size}: {run:?} limit held: {}", c.limit_held);
            if invocations == 1 {
                assert_eq!((run.entered, run.peak, run.over, run.count), (1, 1, 0, semaphore.limit() as i32), "{semaphore:?}: one invocation alone");
            }
        }
    }
}
