//! Runs the append kernel on this machine's GPU (native wgpu over Vulkan) and prints, as JSON,
//! what it appended: the figures the append lesson shows beside the reader's own.
//!
//! ```sh
//! cargo run --release --example report -- append > data/<gpu>-append.json
//! ```
//!
//! Every number comes from the GPU: counts and output slots read back.

use crate::gpu::params::{check_params, ComputeLimits, GpuParams};
use crate::lessons::append::gpu::run_append;
use crate::lessons::append::{check, slots_changed};

use crate::data::measured::names;
use super::measured::AppendColumns;
use crate::data::report::count;

const RUNS: usize = 10;

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let limits = ComputeLimits::from(ctx.adapter.limits);
    let mut rows = Vec::new();
    for (invocations, workgroup_size) in [(1024, 64), (8192, 64), (65_536, 256), (1 << 20, 256)] {
        let params = check_params(GpuParams { invocations, workgroup_size }, &limits).expect("sizes");
        let mut previous = pollster::block_on(run_append(&ctx, params)).expect("warm-up");
        let (mut exact, mut changed, mut in_order) = (0, Vec::new(), Vec::new());
        let mut expected = 0;
        for _ in 0..RUNS {
            let run = pollster::block_on(run_append(&ctx, params)).expect("run");
            let c = check(&run.output, run.count, params);
            exact += usize::from(c.is_permutation);
            expected = c.expected;
            in_order.push(c.in_input_order);
            changed.push(slots_changed(&previous.output, &run.output, run.count));
            previous = run;
        }
        rows.push(AppendColumns {
            invocations: count(invocations),
            workgroup_size: count(workgroup_size),
            runs: count(RUNS),
            runs_exact: count(exact),
            kept: count(expected),
            slots_changed_from_previous_run_min: count(*changed.iter().min().unwrap()),
            slots_changed_from_previous_run_max: count(*changed.iter().max().unwrap()),
            slots_in_input_order_min: count(*in_order.iter().min().unwrap()),
            slots_in_input_order_max: count(*in_order.iter().max().unwrap()),
        }
        .to_json());
    }
    crate::data::report::print_report("append/report", &ctx, &names(AppendColumns::SCHEMA), rows, vec![]);
}
