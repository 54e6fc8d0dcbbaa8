//! The compare-exchange maximum's GPU panel as JSON: the bits left in `best` and every
//! invocation's retry count, as read back.

use crate::data::{adapter, Json};
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::cas_max::gpu::CasRun;
use crate::lessons::cas_max::{check, CasInputs};
use crate::site::settings::LessonVariant;

pub fn run(gpu: &AdapterSummary, inputs: CasInputs, params: GpuParams, run: &CasRun, wall_ms: f64) -> Json {
    let c = check(inputs, params, run.best_bits, &run.retries);
    Json::object([
        ("syncscope", Json::from("cas-max/run")),
        ("adapter", adapter(gpu)),
        ("variant", Json::from(inputs.name())),
        ("kernel", Json::from(CasInputs::kernel().file_name())),
        (
            "parameters",
            Json::object([
                ("invocations", Json::from(params.invocations)),
                ("workgroup_size", Json::from(params.workgroup_size)),
                ("workgroups", Json::from(params.workgroups())),
            ]),
        ),
        ("expected", Json::from(f64::from(c.expected))),
        ("expected_bits", Json::from(c.expected.to_bits())),
        ("best", Json::from(f64::from(c.observed))),
        ("best_bits", Json::from(run.best_bits)),
        ("exact", Json::from(c.exact)),
        ("gave_up", Json::from(run.gave_up)),
        ("total_retries", Json::from(c.total_retries)),
        ("most_retries", Json::from(c.most_retries)),
        ("retries", Json::array(run.retries.iter().copied())),
        ("wall_ms", Json::from(wall_ms)),
    ])
}
