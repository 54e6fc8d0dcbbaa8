//! Runs the grid barrier on this machine's GPU (native wgpu over Vulkan) over grid sizes from
//! one workgroup to far more than the GPU holds at once, and two dispatches beside it, and
//! prints, as JSON, how many workgroups gave up waiting: the figures the lesson shows beside the
//! reader's own.
//!
//! ```sh
//! cargo run --release --example report -- grid-barrier > data/<gpu>-grid-barrier.json
//! ```
//!
//! Every number is counted by the kernel on the GPU and read back.

use super::measured::GridColumns;
use crate::data::measured::names;
use crate::data::report::count;
use crate::gpu::params::{check_params, ComputeLimits, GpuParams};
use crate::lessons::grid_barrier::gpu::run_grid;
use crate::lessons::grid_barrier::{check, sweep_sizes, GpuWay};

const RUNS: usize = 5;

/// Workgroups of 64, from one to 16,384 (a million invocations).
pub const WORKGROUP_SIZE: u32 = 64;
pub const MOST_WORKGROUPS: u32 = 16_384;

/// An H100 has 132 multiprocessors, each holding at most 32 workgroups: 4,224 at once.
pub const H100_AT_ONCE: u32 = 132 * 32;

/// The grid sizes run: powers of two, and either side of what an H100 holds at once.
pub fn sizes() -> Vec<u32> {
    let mut s = sweep_sizes(MOST_WORKGROUPS);
    s.extend([H100_AT_ONCE, H100_AT_ONCE + 1]);
    s.sort_unstable();
    s
}

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let limits = ComputeLimits::from(ctx.adapter.limits);
    let mut rows = Vec::new();
    for way in [GpuWay::GridBarrier, GpuWay::TwoDispatches] {
        for workgroups in sizes() {
            let params = check_params(GpuParams { invocations: workgroups * WORKGROUP_SIZE, workgroup_size: WORKGROUP_SIZE }, &limits).expect("sizes");
            pollster::block_on(run_grid(&ctx, way, params)).expect("warm-up");
            let (mut consistent, mut held) = (0, 0);
            let (mut gave_up, mut stale) = ((u32::MAX, 0u32), (u32::MAX, 0u32));
            for _ in 0..RUNS {
                let run = pollster::block_on(run_grid(&ctx, way, params)).expect("run");
                let c = check(way, params, run);
                consistent += usize::from(c.consistent);
                held += usize::from(c.promise_held);
                gave_up = (gave_up.0.min(run.gave_up), gave_up.1.max(run.gave_up));
                stale = (stale.0.min(run.stale), stale.1.max(run.stale));
            }
            rows.push(
                GridColumns {
                    way: if way == GpuWay::GridBarrier { "grid-barrier" } else { "two-dispatches" }.to_string(),
                    workgroups,
                    workgroup_size: WORKGROUP_SIZE,
                    runs: count(RUNS),
                    runs_consistent: count(consistent),
                    runs_promise_held: count(held),
                    gave_up_min: gave_up.0,
                    gave_up_max: gave_up.1,
                    stale_min: stale.0,
                    stale_max: stale.1,
                }
                .to_json(),
            );
        }
    }
    crate::data::report::print_report("grid-barrier/report", &ctx, &names(GridColumns::SCHEMA), rows, vec![]);
}
