//! Runs the scopes kernels on this machine's GPU (native wgpu over Vulkan) and prints, as
//! JSON, how many neighbour reads found the cell not yet written, with the neighbour in the
//! reader's workgroup and in the next: the figures the lesson shows beside the reader's own.
//!
//! ```sh
//! cargo run --release --example report -- scopes > data/<gpu>-scopes.json
//! ```
//!
//! Every number is counted by the kernel on the GPU and read back.

use super::measured::ReachColumns;
use crate::data::measured::names;
use crate::data::report::count;
use crate::gpu::params::{check_params, ComputeLimits, GpuParams};
use crate::lessons::scopes::gpu::run_reach;
use crate::lessons::scopes::{check, BarrierReach};
use crate::site::settings::LessonVariant;

const RUNS: usize = 10;

/// The sizes run: a few workgroups, then many more than the GPU holds at once.
pub const SIZES: [(u32, u32); 3] = [(1024, 64), (65_536, 256), (1 << 22, 256)];

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let limits = ComputeLimits::from(ctx.adapter.limits);
    let mut rows = Vec::new();
    for reach in BarrierReach::ALL {
        for (invocations, workgroup_size) in SIZES {
            let params = check_params(GpuParams { invocations, workgroup_size }, &limits).expect("sizes");
            pollster::block_on(run_reach(&ctx, reach, params)).expect("warm-up");
            let (mut consistent, mut held) = (0, 0);
            let mut stale = (u32::MAX, 0u32);
            for _ in 0..RUNS {
                let run = pollster::block_on(run_reach(&ctx, reach, params)).expect("run");
                let c = check(reach, params, run);
                consistent += usize::from(c.consistent);
                held += usize::from(c.promise_held);
                stale = (stale.0.min(run.stale), stale.1.max(run.stale));
            }
            rows.push(
                ReachColumns {
                    variant: reach.name().to_string(),
                    invocations,
                    workgroup_size,
                    runs: count(RUNS),
                    runs_consistent: count(consistent),
                    runs_promise_held: count(held),
                    stale_min: stale.0,
                    stale_max: stale.1,
                }
                .to_json(),
            );
        }
    }
    crate::data::report::print_report("scopes/report", &ctx, &names(ReachColumns::SCHEMA), rows, vec![]);
}
