//! Times the reduction lesson's large sum on this machine's GPU (native wgpu over Vulkan): a
//! tree of workgroups against atomicAdd into one counter, each repeated inside one timed
//! pass, and prints the figures as JSON for the lesson to show beside the reader's own.
//!
//! ```sh
//! cargo run --release --example report -- reduction > data/<gpu>-reduction.json
//! ```
//!
//! Every time comes from the GPU's timestamp queries; every sum is checked against the CPU.

use crate::data::Json;
use crate::gpu::params::{check_params, ComputeLimits, GpuParams};
use crate::lessons::reduction::gpu::{run_comparison, run_trace, Ways};
use crate::lessons::reduction::{large_sum, trace, VALUES};

use crate::data::measured::names;
use super::measured::ReductionColumns;
use crate::data::report::count;

const REPEATS: u32 = 20;
const RUNS: usize = 5;

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let limits = ComputeLimits::from(ctx.adapter.limits);
    let traced = pollster::block_on(run_trace(&ctx, 8)).expect("trace") == trace(&VALUES[..8]);
    let mut rows = Vec::new();
    for (invocations, workgroup_size) in [(1024, 256), (65_536, 64), (1 << 20, 256), (1 << 22, 256)] {
        let params = check_params(GpuParams { invocations, workgroup_size }, &limits).expect("sizes");
        let run = || pollster::block_on(run_comparison(&ctx, params, REPEATS, Ways::All)).expect("run");
        run(); // warm-up
        let runs: Vec<_> = (0..RUNS).map(|_| run()).collect();
        let want = large_sum(invocations);
        // Each counter holds the sum of every repeat, wrapped at 32 bits as u32 arithmetic does.
        let repeated = (want * u64::from(REPEATS)) & 0xFFFF_FFFF;
        let right =
            runs.iter().filter(|c| c.tree_sum.map(u64::from) == Some(want) && [Some(c.atomic_total), c.tree_atomic_total].iter().all(|t| t.map(u64::from) == Some(repeated))).count();
        let median = |f: fn(&crate::lessons::reduction::gpu::Comparison) -> Option<f64>| {
            let mut v: Vec<f64> = runs.iter().filter_map(f).collect();
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2).map(|ns| ns / 1e6)
        };
        rows.push(ReductionColumns {
            invocations: count(invocations),
            workgroup_size: count(workgroup_size),
            runs: count(RUNS),
            runs_right: count(right),
            tree_levels: count(runs[0].levels),
            tree_ms_median: median(|c| c.tree_ns),
            atomic_ms_median: median(|c| c.atomic_ns),
            tree_atomic_ms_median: median(|c| c.tree_atomic_ns),
        }
        .to_json());
    }
    crate::data::report::print_report(
        "reduction/report",
        &ctx,
        &names(ReductionColumns::SCHEMA),
        rows,
        vec![("trace_of_8_matches", Json::from(traced)), ("repeats_per_timed_pass", Json::from(REPEATS))],
    );
}
