//! Runs the float sum by compare-exchange on this machine's GPU (native wgpu over Vulkan):
//! 2^24 and ones, at three sizes, and prints, as JSON, how many ones each run added before the
//! large value and the totals that came of it.
//!
//! ```sh
//! cargo run --release --example report -- cas-add > data/<gpu>-cas-add.json
//! ```
//!
//! Every number is read from what the GPU wrote, and every run's chain is checked.

use super::measured::SumColumns;
use super::sum::{check, run_sum};
use crate::data::measured::names;
use crate::data::report::count;
use crate::gpu::params::{check_params, ComputeLimits, GpuParams};

const RUNS: usize = 10;

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let limits = ComputeLimits::from(ctx.adapter.limits);
    let mut rows = Vec::new();
    for (invocations, workgroup_size) in [(1024, 64), (4096, 256), (16_384, 256)] {
        let params = check_params(GpuParams { invocations, workgroup_size }, &limits).expect("sizes");
        pollster::block_on(run_sum(&ctx, params)).expect("warm-up");
        let runs: Vec<_> = (0..RUNS)
            .map(|_| {
                let run = pollster::block_on(run_sum(&ctx, params)).expect("run");
                (check(invocations, &run), run.gave_up)
            })
            .collect();
        let ones = runs.iter().map(|(c, _)| c.ones_before);
        let totals = runs.iter().map(|(c, _)| f64::from(c.total));
        let mut retries: Vec<u64> = runs.iter().map(|(c, _)| c.total_retries).collect();
        retries.sort_unstable();
        rows.push(
            SumColumns {
                invocations,
                workgroup_size,
                runs: count(RUNS),
                runs_one_chain: count(runs.iter().filter(|(c, g)| c.promise_held(*g)).count()),
                gave_up: runs.iter().map(|(_, g)| g).sum(),
                ones_before_min: ones.clone().min().unwrap_or(0),
                ones_before_max: ones.max().unwrap_or(0),
                total_min: totals.clone().fold(f64::INFINITY, f64::min),
                total_max: totals.fold(f64::NEG_INFINITY, f64::max),
                exact_sum: runs[0].0.exact,
                retries_in_all_median: count(retries[RUNS / 2]),
            }
            .to_json(),
        );
    }
    crate::data::report::print_report("cas-add/report", &ctx, &names(SumColumns::SCHEMA), rows, vec![]);
}
