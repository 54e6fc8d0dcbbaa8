//! Runs the three histogram kernels on this machine's GPU (native wgpu over Vulkan) over the
//! contention sweep — data hitting 1, 2, 4 … 256 bins — at two sizes, and prints, as JSON,
//! whether the atomic ways were exact, what the plain one lost, and the median time per
//! dispatch: the figures the histogram lesson charts beside the reader's.
//!
//! ```sh
//! cargo run --release --example report -- histogram > data/<gpu>-histogram.json
//! ```
//!
//! Every number is counted or timed on the GPU; the histograms are checked against the CPU.

use crate::gpu::params::GpuParams;
use crate::lessons::histogram::gpu::run_histogram;
use crate::lessons::histogram::{check, HistogramVariant, DISTINCT};
use crate::site::settings::LessonVariant;

use crate::data::measured::names;
use super::measured::HistogramColumns;
use crate::data::report::count;

const PASSES: usize = 5;
const REPEATS: u32 = 20;

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let mut rows = Vec::new();
    for values in [1 << 20, 1 << 24] {
        let params = GpuParams { invocations: values, workgroup_size: 256 };
        for distinct in DISTINCT {
            for variant in HistogramVariant::ALL {
                let run = || pollster::block_on(run_histogram(&ctx, variant, params, distinct, REPEATS)).expect("run");
                run(); // warm-up
                let runs: Vec<_> = (0..PASSES).map(|_| run()).collect();
                let checks: Vec<_> = runs.iter().map(|r| check(values, distinct, REPEATS, &r.bins)).collect();
                assert!(checks.iter().all(|c| c.possible), "{variant:?} {distinct}: impossible bins");
                let mut us: Vec<f64> = runs.iter().filter_map(|r| r.ns_per_dispatch).map(|ns| ns / 1e3).collect();
                us.sort_by(f64::total_cmp);
                rows.push(HistogramColumns {
                    variant: variant.name().to_string(),
                    values: count(values),
                    workgroup_size: count(params.workgroup_size),
                    distinct: count(distinct),
                    repeats: count(REPEATS),
                    exact: u32::from(checks.iter().all(|c| c.exact)),
                    lost_last: count(checks.last().map_or(0, |c| c.lost())),
                    us_per_dispatch_median: us.get(us.len() / 2).copied(),
                }
                .to_json());
            }
        }
    }
    crate::data::report::print_report("histogram/report", &ctx, &names(HistogramColumns::SCHEMA), rows, vec![]);
}
