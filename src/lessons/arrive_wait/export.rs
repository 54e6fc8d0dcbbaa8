//! The arrive-wait GPU panel as JSON: what the kernel counted, and every arrival ticket.

use crate::data::{adapter, Json};
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::arrive_wait::{check, ArriveRun, ArriveWait, MAX_TRIES};
use crate::site::settings::LessonVariant;

pub fn run(gpu: &AdapterSummary, variant: ArriveWait, params: GpuParams, run: &ArriveRun, wall_ms: f64) -> Json {
    let c = check(variant, params, run);
    Json::object([
        ("syncscope", Json::from("arrive-wait/run")),
        ("adapter", adapter(gpu)),
        ("variant", Json::from(variant.name())),
        ("kernel", Json::from(variant.kernel().file_name())),
        (
            "parameters",
            Json::object([
                ("invocations", Json::from(params.invocations)),
                ("workgroup_size", Json::from(params.workgroup_size)),
                ("workgroups", Json::from(params.workgroups())),
                ("max_tries", Json::from(MAX_TRIES)),
            ]),
        ),
        ("phases_opened", Json::from(run.opened)),
        ("released", Json::from(run.released)),
        ("gave_up", Json::from(run.gave_up)),
        ("stale_reads", Json::from(run.stale)),
        ("longest_wait_tries", Json::from(run.longest_wait)),
        ("tickets", Json::Array(run.tickets.iter().map(|&t| Json::from(t)).collect())),
        ("accounts_consistent", Json::from(c.consistent)),
        ("no_give_up_no_stale_read", Json::from(c.clean)),
        ("wall_ms", Json::from(wall_ms)),
    ])
}
