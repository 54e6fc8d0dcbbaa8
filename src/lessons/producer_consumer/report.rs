//! Runs the producer-consumer kernels on this machine's GPU (native wgpu over Vulkan) and
//! prints, as JSON, how many consumers read the data, read it stale, or gave up waiting: the
//! figures the lesson shows beside the reader's own.
//!
//! ```sh
//! cargo run --release --example report -- producer-consumer > data/<gpu>-producer-consumer.json
//! ```
//!
//! Every number is counted by the kernel on the GPU and read back.

use super::measured::HandoffColumns;
use crate::data::measured::names;
use crate::data::report::count;
use crate::gpu::params::{check_params, ComputeLimits, GpuParams};
use crate::lessons::producer_consumer::gpu::run_handoff;
use crate::lessons::producer_consumer::{check, Handoff};
use crate::site::settings::LessonVariant;

const RUNS: usize = 10;

/// The sizes run: a few workgroups, then many.
pub const SIZES: [(u32, u32); 3] = [(1024, 64), (65_536, 256), (1 << 20, 256)];

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let limits = ComputeLimits::from(ctx.adapter.limits);
    let mut rows = Vec::new();
    for handoff in Handoff::ALL {
        for (invocations, workgroup_size) in SIZES {
            let params = check_params(GpuParams { invocations, workgroup_size }, &limits).expect("sizes");
            pollster::block_on(run_handoff(&ctx, handoff, params)).expect("warm-up");
            let (mut consistent, mut held) = (0, 0);
            let mut spread = [(u32::MAX, 0u32); 4];
            for _ in 0..RUNS {
                let run = pollster::block_on(run_handoff(&ctx, handoff, params)).expect("run");
                let c = check(handoff, params, run);
                consistent += usize::from(c.consistent);
                held += usize::from(c.promise_held);
                for (range, v) in spread.iter_mut().zip([run.consumed, run.stale, run.gave_up, run.longest_wait]) {
                    *range = (range.0.min(v), range.1.max(v));
                }
            }
            let [consumed, stale, gave_up, longest_wait] = spread;
            rows.push(
                HandoffColumns {
                    variant: handoff.name().to_string(),
                    invocations,
                    workgroup_size,
                    runs: count(RUNS),
                    runs_consistent: count(consistent),
                    runs_promise_held: count(held),
                    consumed_min: consumed.0,
                    consumed_max: consumed.1,
                    stale_min: stale.0,
                    stale_max: stale.1,
                    gave_up_min: gave_up.0,
                    gave_up_max: gave_up.1,
                    longest_wait_min: longest_wait.0,
                    longest_wait_max: longest_wait.1,
                }
                .to_json(),
            );
        }
    }
    crate::data::report::print_report("producer-consumer/report", &ctx, &names(HandoffColumns::SCHEMA), rows, vec![]);
}
