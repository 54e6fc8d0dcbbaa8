//! The spinlock kernels on a real Vulkan device: every invocation entered or gave up, and the
//! counter never holds more increments than entries. Whether the lock excluded is reported,
//! not asserted: WGSL does not promise it.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::spinlock::gpu::run_spinlock;
use crate::lessons::spinlock::{check, Lock};

use crate::testing::{gpu, limits};

#[test]
fn every_variant_accounts_for_every_invocation() {
    let Some(ctx) = gpu() else { return };
    for lock in [Lock::None, Lock::SpinThenEnter, Lock::EnterInLoop] {
        for (invocations, workgroup_size) in [(1, 1), (256, 64), (1024, 64), (4096, 256)] {
            let p = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
            let run = pollster::block_on(run_spinlock(&ctx, lock, p)).unwrap();
            let c = check(lock, p, run);
            assert!(c.consistent, "{lock:?} {p:?} on {}: {run:?}", ctx.adapter.name);
            eprintln!("{lock:?} {invocations}/{workgroup_size}: {run:?} lost {}", c.lost);
            if invocations == 1 {
                assert_eq!((run.counter, run.entered, run.overlaps), (1, 1, 0), "{lock:?}: one invocation alone");
            }
        }
    }
}
