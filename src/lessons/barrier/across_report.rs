//! Runs the barrier lesson's storage-buffer demonstration on this machine's GPU (native wgpu
//! over Vulkan): reads after storageBarrier() within a workgroup, across workgroups in one
//! dispatch, and across workgroups over two dispatches. Prints, as JSON, how many reads missed
//! the write they looked for.
//!
//! ```sh
//! cargo run --release --example report -- across > data/<gpu>-across.json
//! ```
//!
//! Every number is counted from what the GPU wrote.

use crate::data::Json;
use crate::gpu::params::{check_params, ComputeLimits, GpuParams};
use crate::lessons::barrier::across::run_across;
use crate::lessons::barrier::{check_across, Across};

use crate::data::measured::names;
use crate::lessons::barrier;

const RUNS: usize = 10;

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let limits = ComputeLimits::from(ctx.adapter.limits);
    let mut rows = Vec::new();
    for how in Across::ALL {
        for (invocations, workgroup_size) in [(1024, 64), (65_536, 256), (1 << 20, 256)] {
            let params = check_params(GpuParams { invocations, workgroup_size }, &limits).expect("sizes");
            let checks: Vec<_> = (0..RUNS).map(|_| check_across(how, params, &pollster::block_on(run_across(&ctx, how, params)).expect("run"))).collect();
            let stale = checks.iter().map(|c| c.stale);
            rows.push(Json::Array(vec![
                Json::from(how.name()),
                Json::from(invocations),
                Json::from(workgroup_size),
                Json::from(RUNS),
                Json::from(checks.iter().filter(|c| c.stale > 0).count()),
                Json::from(stale.clone().min().unwrap_or(0)),
                Json::from(stale.max().unwrap_or(0)),
                Json::from(checks.iter().map(|c| c.impossible).sum::<u32>()),
            ]));
        }
    }
    crate::data::report::print_report("across/report", &ctx, &names(barrier::measured::ACROSS_SCHEMA), rows, vec![]);
}
