//! The append lesson's GPU panel as JSON: the count and every filled slot, as read back.

use crate::data::{adapter, Json};
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::append::gpu::AppendRun;
use crate::lessons::append::{check, Append, LIMIT};

pub fn run(gpu: &AdapterSummary, params: GpuParams, run: &AppendRun, wall_ms: f64) -> Json {
    let c = check(&run.output, run.count, params);
    let filled = run.output.iter().take(run.count as usize).copied();
    Json::object([
        ("syncscope", Json::from("append/run")),
        ("adapter", adapter(gpu)),
        ("kernel", Json::from(Append::kernel().file_name())),
        (
            "parameters",
            Json::object([
                ("invocations", Json::from(params.invocations)),
                ("workgroup_size", Json::from(params.workgroup_size)),
                ("keep_below", Json::from(LIMIT)),
            ]),
        ),
        ("expected_count", Json::from(c.expected)),
        ("count", Json::from(run.count)),
        ("is_permutation_of_kept_inputs", Json::from(c.is_permutation)),
        ("slots_in_input_order", Json::from(c.in_input_order)),
        ("output", Json::array(filled)),
        ("wall_ms", Json::from(wall_ms)),
    ])
}
