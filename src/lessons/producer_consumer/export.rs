//! The producer-consumer GPU panel as JSON: what the consumers counted, as read back.

use crate::data::{adapter, Json};
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::producer_consumer::{check, Handoff, HandoffRun, SPIN_LIMIT};
use crate::site::settings::LessonVariant;

pub fn run(gpu: &AdapterSummary, handoff: Handoff, params: GpuParams, run: HandoffRun, wall_ms: f64) -> Json {
    let c = check(handoff, params, run);
    Json::object([
        ("syncscope", Json::from("producer-consumer/run")),
        ("adapter", adapter(gpu)),
        ("variant", Json::from(handoff.name())),
        ("kernel", Json::from(handoff.kernel().file_name())),
        (
            "parameters",
            Json::object([
                ("invocations", Json::from(params.invocations)),
                ("workgroup_size", Json::from(params.workgroup_size)),
                ("workgroups", Json::from(params.workgroups())),
                ("spin_limit", Json::from(SPIN_LIMIT)),
            ]),
        ),
        ("consumed", Json::from(run.consumed)),
        ("stale", Json::from(run.stale)),
        ("gave_up", Json::from(run.gave_up)),
        ("longest_wait", Json::from(run.longest_wait)),
        ("promises_data", Json::from(handoff.promises_data())),
        ("promises_flag", Json::from(handoff.promises_flag())),
        ("accounts_consistent", Json::from(c.consistent)),
        ("promise_held", Json::from(c.promise_held)),
        ("wall_ms", Json::from(wall_ms)),
    ])
}
