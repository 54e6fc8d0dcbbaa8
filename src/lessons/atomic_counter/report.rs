//! Runs the ticket kernel on this machine's GPU (native wgpu over Vulkan) and prints, as JSON,
//! how it handed the tickets out: the figures the ticket lesson shows beside the reader's own.
//!
//! ```sh
//! cargo run --release --example report -- tickets > data/<gpu>-tickets.json
//! ```
//!
//! Every number comes from the GPU: tickets read back, timestamp-query durations.

use crate::data::Json;
use crate::gpu::params::{check_params, ComputeLimits, GpuParams};
use crate::lessons::atomic_counter::check;
use crate::lessons::atomic_counter::gpu::run_tickets;

const RUNS: usize = 10;
/// How many workgroups' service order to keep from each size's first run.
const ORDER_KEPT: usize = 16;

use crate::data::measured::names;
use super::measured::TicketColumns;
use crate::data::report::count;

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let limits = ComputeLimits::from(ctx.adapter.limits);
    let mut rows = Vec::new();
    let mut orders = Vec::new();
    for (invocations, workgroup_size) in [(1024, 64), (4096, 64), (65_536, 256), (1 << 20, 256)] {
        let params = check_params(GpuParams { invocations, workgroup_size }, &limits).expect("sizes");
        pollster::block_on(run_tickets(&ctx, params)).expect("warm-up");
        let mut permutations = 0;
        let (mut whole, mut lane, mut gpu_ms) = (Vec::new(), Vec::new(), Vec::new());
        for run_index in 0..RUNS {
            let run = pollster::block_on(run_tickets(&ctx, params)).expect("run");
            let c = check(&run.tickets, run.next, params);
            permutations += usize::from(c.is_permutation);
            whole.push(c.whole_workgroups);
            lane.push(c.in_lane_order);
            if let Some(ns) = run.gpu_ns {
                gpu_ms.push(ns / 1e6);
            }
            if run_index == 0 {
                orders.push(Json::array(service_order(&run.tickets, workgroup_size as usize)));
            }
        }
        gpu_ms.sort_by(f64::total_cmp);
        rows.push(TicketColumns {
            invocations: count(invocations),
            workgroup_size: count(workgroup_size),
            runs: count(RUNS),
            runs_with_exact_permutation: count(permutations),
            workgroups_served_whole_min: count(*whole.iter().min().unwrap()),
            workgroups_served_whole_max: count(*whole.iter().max().unwrap()),
            workgroups: count(params.workgroups()),
            neighbours_in_lane_order_min: count(*lane.iter().min().unwrap()),
            neighbours_in_lane_order_max: count(*lane.iter().max().unwrap()),
            neighbour_pairs: count(invocations - params.workgroups()),
            gpu_ms_median: gpu_ms.get(gpu_ms.len() / 2).copied(),
        }
        .to_json());
    }
    crate::data::report::print_report(
        "atomic-counter/report",
        &ctx,
        &names(TicketColumns::SCHEMA),
        rows,
        vec![("first_workgroups_in_service_order", Json::Array(orders))],
    );
}

/// Workgroup ids ordered by the first ticket any of their invocations took: the order the GPU
/// started serving them. Only the first few are kept.
fn service_order(tickets: &[u32], workgroup_size: usize) -> Vec<u32> {
    let mut firsts: Vec<(u32, u32)> = tickets.chunks(workgroup_size).enumerate().map(|(g, group)| (*group.iter().min().unwrap(), g as u32)).collect();
    firsts.sort();
    firsts.into_iter().take(ORDER_KEPT).map(|(_, g)| g).collect()
}
