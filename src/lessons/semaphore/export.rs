//! The semaphore's GPU panel as JSON: the count and what the kernel counted, as read back.

use crate::data::{adapter, Json};
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::semaphore::{check, Semaphore, SemaphoreRun, MAX_TRIES};
use crate::site::settings::LessonVariant;

pub fn run(gpu: &AdapterSummary, semaphore: Semaphore, params: GpuParams, run: SemaphoreRun, wall_ms: f64) -> Json {
    let c = check(semaphore, params, run);
    Json::object([
        ("syncscope", Json::from("semaphore/run")),
        ("adapter", adapter(gpu)),
        ("variant", Json::from(semaphore.name())),
        ("kernel", Json::from(semaphore.kernel().file_name())),
        (
            "parameters",
            Json::object([
                ("invocations", Json::from(params.invocations)),
                ("workgroup_size", Json::from(params.workgroup_size)),
                ("workgroups", Json::from(params.workgroups())),
                ("limit", Json::from(semaphore.limit())),
                ("max_tries", Json::from(MAX_TRIES)),
            ]),
        ),
        ("count_at_end", Json::from(i64::from(run.count))),
        ("entered", Json::from(run.entered)),
        ("gave_up", Json::from(run.gave_up)),
        ("inside_at_end", Json::from(i64::from(run.inside))),
        ("peak_inside", Json::from(i64::from(run.peak))),
        ("entries_over_limit", Json::from(run.over)),
        ("accounts_consistent", Json::from(c.consistent)),
        ("limit_held", Json::from(c.limit_held)),
        ("wall_ms", Json::from(wall_ms)),
    ])
}
