//! Runs the semaphore kernels on this machine's GPU (native wgpu over Vulkan) and prints, as
//! JSON, how many invocations entered and gave up and the most ever inside at once: the figures
//! the semaphore lesson shows beside the reader's own.
//!
//! ```sh
//! cargo run --release --example report -- semaphore > data/<gpu>-semaphore.json
//! ```
//!
//! Every number is counted by the kernel on the GPU and read back.

use super::measured::SemaphoreColumns;
use crate::data::measured::names;
use crate::data::report::count;
use crate::gpu::params::{check_params, ComputeLimits, GpuParams};
use crate::lessons::semaphore::gpu::run_semaphore;
use crate::lessons::semaphore::{check, Semaphore};
use crate::site::settings::LessonVariant;

const RUNS: usize = 10;

/// The sizes run: one workgroup, then many.
pub const SIZES: [(u32, u32); 3] = [(64, 64), (1024, 64), (65_536, 256)];

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let limits = ComputeLimits::from(ctx.adapter.limits);
    let mut rows = Vec::new();
    for semaphore in Semaphore::ALL {
        for (invocations, workgroup_size) in SIZES {
            let params = check_params(GpuParams { invocations, workgroup_size }, &limits).expect("sizes");
            pollster::block_on(run_semaphore(&ctx, semaphore, params)).expect("warm-up");
            let (mut consistent, mut held) = (0, 0);
            let mut spread = [(u32::MAX, 0u32); 4];
            for _ in 0..RUNS {
                let run = pollster::block_on(run_semaphore(&ctx, semaphore, params)).expect("run");
                let c = check(semaphore, params, run);
                consistent += usize::from(c.consistent);
                held += usize::from(c.limit_held);
                let peak = u32::try_from(run.peak).unwrap_or(0);
                for (range, v) in spread.iter_mut().zip([run.entered, run.gave_up, peak, run.over]) {
                    *range = (range.0.min(v), range.1.max(v));
                }
            }
            let [entered, gave_up, peak, over] = spread;
            rows.push(
                SemaphoreColumns {
                    semaphore: semaphore.name().to_string(),
                    limit: semaphore.limit(),
                    invocations,
                    workgroup_size,
                    runs: count(RUNS),
                    runs_consistent: count(consistent),
                    runs_limit_held: count(held),
                    entered_min: entered.0,
                    entered_max: entered.1,
                    gave_up_min: gave_up.0,
                    gave_up_max: gave_up.1,
                    peak_min: peak.0,
                    peak_max: peak.1,
                    over_min: over.0,
                    over_max: over.1,
                }
                .to_json(),
            );
        }
    }
    crate::data::report::print_report("semaphore/report", &ctx, &names(SemaphoreColumns::SCHEMA), rows, vec![]);
}
