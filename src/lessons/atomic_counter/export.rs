//! The ticket lesson's GPU panel as JSON: every invocation's ticket, as read back.

use crate::data::{adapter, Json};
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::atomic_counter::gpu::TicketRun;
use crate::lessons::atomic_counter::{check, Tickets};

pub fn run(gpu: &AdapterSummary, params: GpuParams, run: &TicketRun, wall_ms: f64) -> Json {
    let c = check(&run.tickets, run.next, params);
    Json::object([
        ("syncscope", Json::from("atomic-counter/run")),
        ("adapter", adapter(gpu)),
        ("kernel", Json::from(Tickets::kernel().file_name())),
        (
            "parameters",
            Json::object([
                ("invocations", Json::from(params.invocations)),
                ("workgroup_size", Json::from(params.workgroup_size)),
                ("workgroups", Json::from(params.workgroups())),
            ]),
        ),
        ("final_counter", Json::from(run.next)),
        ("is_permutation", Json::from(c.is_permutation)),
        ("workgroups_served_whole", Json::from(c.whole_workgroups)),
        ("neighbours_in_lane_order", Json::from(c.in_lane_order)),
        ("tickets", Json::array(run.tickets.iter().copied())),
        ("wall_ms", Json::from(wall_ms)),
        ("gpu_ms", Json::from(run.gpu_ns.map(|ns| ns / 1e6))),
    ])
}
