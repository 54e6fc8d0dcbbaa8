//! The grid-barrier GPU panel as JSON: every run of the sweep, as read back.

use crate::data::{adapter, Json};
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::grid_barrier::{check, crossover, GpuWay, GridRun, SPIN_LIMIT};

pub fn sweep(gpu: &AdapterSummary, params: GpuParams, runs: &[(GpuWay, GridRun)], wall_ms: f64) -> Json {
    let barrier: Vec<GridRun> = runs.iter().filter(|(w, _)| *w == GpuWay::GridBarrier).map(|(_, r)| *r).collect();
    let row = |way: GpuWay, r: &GridRun| {
        let p = GpuParams { invocations: r.workgroups * params.workgroup_size, workgroup_size: params.workgroup_size };
        let c = check(way, p, *r);
        Json::object([
            ("way", Json::from(if way == GpuWay::GridBarrier { "grid-barrier" } else { "two-dispatches" })),
            ("workgroups", Json::from(r.workgroups)),
            ("passed", Json::from(r.passed)),
            ("gave_up", Json::from(r.gave_up)),
            ("stale", Json::from(r.stale)),
            ("longest_wait", Json::from(r.longest_wait)),
            ("accounts_consistent", Json::from(c.consistent)),
            ("promise_held", Json::from(c.promise_held)),
        ])
    };
    Json::object([
        ("syncscope", Json::from("grid-barrier/sweep")),
        ("adapter", adapter(gpu)),
        ("kernel", Json::from(crate::lessons::grid_barrier::kernels::GRID_BARRIER.file_name())),
        ("parameters", Json::object([("workgroup_size", Json::from(params.workgroup_size)), ("most_workgroups", Json::from(params.workgroups())), ("spin_limit", Json::from(SPIN_LIMIT))])),
        ("runs", Json::array(runs.iter().map(|(w, r)| row(*w, r)))),
        ("first_give_up_at_workgroups", crossover(&barrier).map_or(Json::Null, Json::from)),
        ("wall_ms", Json::from(wall_ms)),
    ])
}
