//! Runs the three spinlock kernels on this machine's GPU (native wgpu over Vulkan) and prints,
//! as JSON, how many invocations entered, gave up, overlapped inside, and how many increments
//! were lost: the figures the spinlock lesson shows beside the reader's own.
//!
//! ```sh
//! cargo run --release --example report -- spinlock > data/<gpu>-spinlock.json
//! ```
//!
//! Every number is counted by the kernel on the GPU and read back.

use crate::data::Json;
use crate::gpu::params::{check_params, ComputeLimits, GpuParams};
use crate::lessons::spinlock::gpu::run_spinlock;
use crate::lessons::spinlock::{check, Lock};
use crate::site::settings::LessonVariant;

use crate::data::measured::names;
use crate::lessons::spinlock;

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
            let mut row = vec![
                Json::from(lock.name()),
                Json::from(invocations),
                Json::from(workgroup_size),
                Json::from(RUNS),
                Json::from(consistent),
                Json::from(excluded),
            ];
            row.extend(spread.iter().flat_map(|&(lo, hi)| [Json::from(lo), Json::from(hi)]));
            rows.push(Json::Array(row));
        }
    }
    crate::data::report::print_report("spinlock/report", &ctx, &names(spinlock::measured::SCHEMA), rows, vec![]);
}
