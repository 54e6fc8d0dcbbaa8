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

use crate::gpu::params::{check_params, ComputeLimits, GpuParams};
use crate::lessons::barrier::across::run_across;
use crate::lessons::barrier::{check_across, Across};

use crate::data::measured::names;
use super::measured::AcrossColumns;
use crate::data::report::count;

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
            rows.push(AcrossColumns {
                how: how.name().to_string(),
                invocations: count(invocations),
                workgroup_size: count(workgroup_size),
                runs: count(RUNS),
                runs_stale: count(checks.iter().filter(|c| c.stale > 0).count()),
                stale_min: count(stale.clone().min().unwrap_or(0)),
                stale_max: count(stale.max().unwrap_or(0)),
                impossible: count(checks.iter().map(|c| c.impossible).sum::<u32>()),
            }
            .to_json());
        }
    }
    crate::data::report::print_report("across/report", &ctx, &names(AcrossColumns::SCHEMA), rows, vec![]);
}
