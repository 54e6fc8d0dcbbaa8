//! Times the barrier lesson's cost kernel on this machine's GPU (native wgpu over Vulkan): the
//! same rounds of a neighbour exchange with two barriers a round and without, from one
//! workgroup to many, and prints, as JSON, what one barrier adds.
//!
//! ```sh
//! cargo run --release --example report -- barrier-cost > data/<gpu>-barrier-cost.json
//! ```
//!
//! Every time is read from the GPU's timestamps; every run with barriers is checked.

use super::cost::{median, run_cost, BarrierCost, WIDTH};
use super::measured::CostColumns;
use crate::data::measured::names;
use crate::data::report::count;

const RUNS: usize = 5;
const ROUNDS: u32 = 16_384;

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let mut rows = Vec::new();
    for workgroups in [1u32, 64, 1024] {
        let run = || pollster::block_on(run_cost(&ctx, workgroups, ROUNDS)).expect("run");
        run(); // warm-up
        let runs: Vec<BarrierCost> = (0..RUNS).map(|_| run()).collect();
        let median = |f: fn(&BarrierCost) -> Option<f64>| median(&mut runs.iter().filter_map(f).collect::<Vec<f64>>());
        rows.push(
            CostColumns {
                workgroups,
                workgroup_size: WIDTH,
                rounds: ROUNDS,
                runs: count(RUNS),
                runs_exact: count(runs.iter().filter(|r| r.exact).count()),
                with_ns_median: median(|r| r.with_ns),
                without_ns_median: median(|r| r.without_ns),
                ns_per_barrier: median(BarrierCost::ns_per_barrier),
            }
            .to_json(),
        );
    }
    crate::data::report::print_report("barrier-cost/report", &ctx, &names(CostColumns::SCHEMA), rows, vec![]);
}
