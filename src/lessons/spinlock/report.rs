//! Runs the three spinlock kernels on this machine's GPU (native wgpu over Vulkan) and prints,
//! as JSON, how many invocations entered, gave up, overlapped inside, and how many increments
//! were lost: the figures the spinlock lesson shows beside the reader's own.
//!
//! ```sh
//! cargo run --release --example report -- spinlock > data/<gpu>-spinlock.json
//! ```
//!
//! Every number is counted by the kernel on the GPU and read back.

use crate::gpu::params::{check_params, ComputeLimits, GpuParams};
use crate::lessons::spinlock::gpu::run_spinlock;
use crate::lessons::spinlock::{check, Lock};
use crate::site::settings::LessonVariant;

use crate::data::measured::names;
use super::measured::SpinlockColumns;
use crate::data::report::count;

const RUNS: usize = 10;

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let limits = ComputeLimits::from(ctx.adapter.limits);
    let mut rows = Vec::new();
    for lock in [Lock::None, Lock::SpinThenEnter, Lock::EnterInLoop] {
        for (invocations, workgroup_size) in [(1024, 64), (65_536, 256)] {
            let params = check_params(GpuParams { invocations, workgroup_size }, &limits).expect("sizes");
            pollster::block_on(run_spinlock(&ctx, lock, params)).expect("warm-up");
            let (mut consistent, mut excluded) = (0, 0);
            let mut spread = [(u32::MAX, 0u32); 4];
            for _ in 0..RUNS {
                let run = pollster::block_on(run_spinlock(&ctx, lock, params)).expect("run");
                let c = check(lock, params, run);
                consistent += usize::from(c.consistent);
                excluded += usize::from(c.excluded);
                for (range, v) in spread.iter_mut().zip([run.entered, run.gave_up, c.lost, run.overlaps]) {
                    *range = (range.0.min(v), range.1.max(v));
                }
            }
            let [entered, gave_up, lost, overlaps] = spread;
            rows.push(
                SpinlockColumns {
                    lock: lock.name().to_string(),
                    invocations,
                    workgroup_size,
                    runs: count(RUNS),
                    runs_consistent: count(consistent),
                    runs_excluded: count(excluded),
                    entered_min: entered.0,
                    entered_max: entered.1,
                    gave_up_min: gave_up.0,
                    gave_up_max: gave_up.1,
                    lost_min: lost.0,
                    lost_max: lost.1,
                    overlaps_min: overlaps.0,
                    overlaps_max: overlaps.1,
                }
                .to_json(),
            );
        }
    }
    crate::data::report::print_report("spinlock/report", &ctx, &names(SpinlockColumns::SCHEMA), rows, vec![]);
}
