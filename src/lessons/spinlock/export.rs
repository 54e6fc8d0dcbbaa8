//! The spinlock's GPU panel as JSON: the counter and what the kernel counted, as read back.

use crate::data::{adapter, Json};
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::spinlock::{check, Lock, LockRun, MAX_TRIES};
use crate::site::settings::LessonVariant;

pub fn run(gpu: &AdapterSummary, lock: Lock, params: GpuParams, run: LockRun, wall_ms: f64) -> Json {
    let c = check(lock, params, run);
    Json::object([
        ("syncscope", Json::from("spinlock/run")),
        ("adapter", adapter(gpu)),
        ("variant", Json::from(lock.name())),
        ("kernel", Json::from(lock.kernel().file_name())),
        (
            "parameters",
            Json::object([
                ("invocations", Json::from(params.invocations)),
                ("workgroup_size", Json::from(params.workgroup_size)),
                ("workgroups", Json::from(params.workgroups())),
                ("max_tries", Json::from(MAX_TRIES)),
            ]),
        ),
        ("counter", Json::from(run.counter)),
        ("entered", Json::from(run.entered)),
        ("gave_up", Json::from(run.gave_up)),
        ("overlaps", Json::from(run.overlaps)),
        ("increments_lost", Json::from(c.lost)),
        ("accounts_consistent", Json::from(c.consistent)),
        ("lock_excluded", Json::from(c.excluded)),
        ("wall_ms", Json::from(wall_ms)),
    ])
}
