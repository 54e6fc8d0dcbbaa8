//! Runs the compare-exchange maximum on this machine's GPU (native wgpu over Vulkan) and
//! prints, as JSON, whether it found the true maximum and how many retries it took: the
//! figures the cas-max lesson shows beside the reader's own.
//!
//! ```sh
//! cargo run --release --example report -- cas-max > data/<gpu>-cas-max.json
//! ```
//!
//! Every number comes from the GPU: the result's bits and each invocation's retries.

use crate::gpu::params::{check_params, ComputeLimits, GpuParams};
use crate::lessons::cas_max::gpu::run_cas_max;
use crate::lessons::cas_max::{check, CasInputs};
use crate::site::settings::LessonVariant;

use crate::data::measured::names;
use super::measured::CasColumns;
use crate::data::report::count;

const RUNS: usize = 10;

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let limits = ComputeLimits::from(ctx.adapter.limits);
    let mut rows = Vec::new();
    for inputs in [CasInputs::Mixed, CasInputs::NonPositive, CasInputs::WithNan] {
        for (invocations, workgroup_size) in [(1024, 64), (65_536, 256), (1 << 20, 256)] {
            let params = check_params(GpuParams { invocations, workgroup_size }, &limits).expect("sizes");
            pollster::block_on(run_cas_max(&ctx, inputs, params)).expect("warm-up");
            let (mut exact, mut gave_up, mut totals, mut most) = (0, 0, Vec::new(), 0);
            for _ in 0..RUNS {
                let run = pollster::block_on(run_cas_max(&ctx, inputs, params)).expect("run");
                let c = check(inputs, params, run.best_bits, &run.retries);
                exact += usize::from(c.exact && run.gave_up == 0);
                gave_up += run.gave_up;
                totals.push(c.total_retries);
                most = most.max(c.most_retries);
            }
            totals.sort_unstable();
            rows.push(CasColumns {
                inputs: inputs.name().to_string(),
                invocations: count(invocations),
                workgroup_size: count(workgroup_size),
                runs: count(RUNS),
                runs_exact: count(exact),
                gave_up: count(gave_up),
                retries_in_all_min: count(totals[0]),
                retries_in_all_median: count(totals[RUNS / 2]),
                retries_in_all_max: count(totals[RUNS - 1]),
                most_retries_by_one_invocation: count(most),
            }
            .to_json());
        }
    }
    crate::data::report::print_report("cas-max/report", &ctx, &names(CasColumns::SCHEMA), rows, vec![]);
}
