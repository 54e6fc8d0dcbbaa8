//! The scopes GPU panel as JSON: the neighbour reads, fresh and stale, as read back.

use crate::data::{adapter, Json};
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::scopes::{check, BarrierReach, ReachRun};
use crate::site::settings::LessonVariant;

pub fn run(gpu: &AdapterSummary, reach: BarrierReach, params: GpuParams, run: ReachRun, wall_ms: f64) -> Json {
    let c = check(reach, params, run);
    Json::object([
        ("syncscope", Json::from("scopes/run")),
        ("adapter", adapter(gpu)),
        ("variant", Json::from(reach.name())),
        ("kernel", Json::from(reach.kernel().file_name())),
        (
            "parameters",
            Json::object([
                ("invocations", Json::from(params.invocations)),
                ("workgroup_size", Json::from(params.workgroup_size)),
                ("workgroups", Json::from(params.workgroups())),
                ("neighbour_across_workgroups", Json::from(reach.across_workgroups())),
            ]),
        ),
        ("fresh", Json::from(run.fresh)),
        ("stale", Json::from(run.stale)),
        ("impossible", Json::from(run.impossible)),
        ("promises_fresh", Json::from(reach.promises_fresh())),
        ("accounts_consistent", Json::from(c.consistent)),
        ("promise_held", Json::from(c.promise_held)),
        ("wall_ms", Json::from(wall_ms)),
    ])
}
