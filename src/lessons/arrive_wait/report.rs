//! Runs the arrive-wait kernels on this machine's GPU (native wgpu over Vulkan) and prints, as
//! JSON, how many invocations gave up waiting, how many neighbour reads were stale and the
//! longest wait: the figures the arrive-wait lesson shows beside the reader's own.
//!
//! ```sh
//! cargo run --release --example report -- arrive-wait > data/<gpu>-arrive-wait.json
//! ```
//!
//! Every number is counted by the kernel on the GPU and read back.

use super::measured::ArriveWaitColumns;
use crate::data::measured::names;
use crate::data::report::count;
use crate::gpu::params::{check_params, ComputeLimits, GpuParams};
use crate::lessons::arrive_wait::gpu::run_arrive_wait;
use crate::lessons::arrive_wait::{check, ArriveWait};
use crate::site::settings::LessonVariant;

const RUNS: usize = 10;

/// The sizes run: one small workgroup, many, and many large ones.
pub const SIZES: [(u32, u32); 3] = [(64, 64), (65_536, 64), (65_536, 1024)];

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let limits = ComputeLimits::from(ctx.adapter.limits);
    let mut rows = Vec::new();
    for variant in ArriveWait::ALL {
        for (invocations, workgroup_size) in SIZES {
            let params = check_params(GpuParams { invocations, workgroup_size }, &limits).expect("sizes");
            pollster::block_on(run_arrive_wait(&ctx, variant, params)).expect("warm-up");
            let (mut consistent, mut clean) = (0, 0);
            let mut spread = [(u32::MAX, 0u32); 3];
            for _ in 0..RUNS {
                let run = pollster::block_on(run_arrive_wait(&ctx, variant, params)).expect("run");
                let c = check(variant, params, &run);
                consistent += usize::from(c.consistent);
                clean += usize::from(c.clean);
                for (range, v) in spread.iter_mut().zip([run.gave_up, run.stale, run.longest_wait]) {
                    *range = (range.0.min(v), range.1.max(v));
                }
            }
            let [gave_up, stale, longest] = spread;
            rows.push(
                ArriveWaitColumns {
                    variant: variant.name().to_string(),
                    invocations,
                    workgroup_size,
                    runs: count(RUNS),
                    runs_consistent: count(consistent),
                    runs_clean: count(clean),
                    gave_up_min: gave_up.0,
                    gave_up_max: gave_up.1,
                    stale_min: stale.0,
                    stale_max: stale.1,
                    longest_wait_min: longest.0,
                    longest_wait_max: longest.1,
                }
                .to_json(),
            );
        }
    }
    crate::data::report::print_report("arrive-wait/report", &ctx, &names(ArriveWaitColumns::SCHEMA), rows, vec![]);
}
