//! Runs the neighbour exchange with and without its barrier on this machine's GPU (native
//! wgpu over Vulkan) and prints, as JSON, the stale reads and how many workgroups had every
//! arrival before every departure: the figures the barrier lesson shows beside the reader's.
//!
//! ```sh
//! cargo run --release --example report -- barrier > data/<gpu>-barrier.json
//! ```
//!
//! Every number is counted from what the GPU wrote.

use crate::gpu::params::{check_params, ComputeLimits, GpuParams};
use crate::lessons::barrier::gpu::run_barrier;
use crate::lessons::barrier::{check, BarrierVariant};
use crate::site::settings::LessonVariant;

use crate::data::measured::names;
use super::measured::BarrierColumns;
use crate::data::report::count;

const RUNS: usize = 10;

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let limits = ComputeLimits::from(ctx.adapter.limits);
    let mut rows = Vec::new();
    for variant in [BarrierVariant::With, BarrierVariant::Without] {
        for (invocations, workgroup_size) in [(1024, 64), (1024, 256), (65_536, 256)] {
            let params = check_params(GpuParams { invocations, workgroup_size }, &limits).expect("sizes");
            let run = || pollster::block_on(run_barrier(&ctx, variant, params)).expect("run");
            run(); // warm-up
            let checks: Vec<_> = (0..RUNS).map(|_| check(params, &run())).collect();
            let span = |f: fn(&crate::lessons::barrier::BarrierCheck) -> u32| {
                let values = checks.iter().map(f);
                (values.clone().min().unwrap_or(0), values.max().unwrap_or(0))
            };
            let (stale, within, ordered) = (span(|c| c.stale), span(|c| c.stale_within_four), span(|c| c.ordered_workgroups));
            let sound = checks.iter().filter(|c| c.impossible == 0 && c.tickets_whole()).count();
            rows.push(BarrierColumns {
                variant: variant.name().to_string(),
                invocations: count(invocations),
                workgroup_size: count(workgroup_size),
                runs: count(RUNS),
                runs_sound: count(sound),
                stale_min: count(stale.0),
                stale_max: count(stale.1),
                stale_within_four_min: count(within.0),
                stale_within_four_max: count(within.1),
                ordered_workgroups_min: count(ordered.0),
                ordered_workgroups_max: count(ordered.1),
                workgroups: count(params.workgroups()),
            }
            .to_json());
        }
    }
    crate::data::report::print_report("barrier/report", &ctx, &names(BarrierColumns::SCHEMA), rows, vec![]);
}
