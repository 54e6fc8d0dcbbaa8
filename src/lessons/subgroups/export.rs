//! The subgroups GPU panel as JSON: the subgroup layout read back, every check, the neighbour
//! counts, the compactions and the reductions, as read back.

use crate::data::{adapter, Json};
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::subgroups::{check, SubgroupsRun};

pub fn run(gpu: &AdapterSummary, params: GpuParams, run: &SubgroupsRun, wall_ms: f64) -> Json {
    let ms = |ns: Option<f64>| ns.map_or(Json::Null, |ns| Json::from(ns / 1e6 / f64::from(run.repeats)));
    let held = check(run, params);
    Json::object([
        ("syncscope", Json::from("subgroups/run")),
        ("adapter", adapter(gpu)),
        ("parameters", Json::object([("invocations", Json::from(params.invocations)), ("workgroup_size", Json::from(params.workgroup_size)), ("repeats", Json::from(run.repeats))])),
        (
            "layout",
            Json::object([
                ("subgroup_sizes_read_back", Json::array(run.layout.sizes.iter().map(|&s| Json::from(s)))),
                ("subgroups", Json::from(run.layout.subgroups)),
                ("full_subgroups", Json::from(run.layout.full)),
                ("consecutive_invocations", Json::from(run.layout.consecutive)),
            ]),
        ),
        ("subgroup_add", Json::object([("checked", Json::from(run.add.checked)), ("wrong", Json::from(run.add.wrong))])),
        ("butterfly", Json::object([("checked", Json::from(run.butterfly.checked)), ("wrong", Json::from(run.butterfly.wrong))])),
        (
            "divergent",
            Json::object([
                ("active_lanes", Json::from(run.divergent.active)),
                ("summed_every_kept_value", Json::from(run.divergent.whole)),
                ("impossible", Json::from(run.divergent.impossible)),
            ]),
        ),
        (
            "neighbours_without_a_barrier",
            Json::array(["same_subgroup", "next_subgroup"].into_iter().zip(&run.neighbours).map(|(name, r)| {
                Json::object([("neighbour", Json::from(name)), ("fresh", Json::from(r.fresh)), ("stale", Json::from(r.stale)), ("impossible", Json::from(r.impossible))])
            })),
        ),
        (
            "compactions",
            Json::array(["ballot", "atomic_add_per_value"].into_iter().zip(&run.compactions).map(|(name, c)| {
                Json::object([
                    ("way", Json::from(name)),
                    ("kept", Json::from(c.kept)),
                    ("atomic_adds", Json::from(c.atomics)),
                    ("same_values_as_cpu", Json::from(c.same_values)),
                    ("gpu_ms_per_dispatch", ms(c.gpu_ns)),
                ])
            })),
        ),
        (
            "reductions",
            Json::array(run.reductions.iter().map(|r| {
                Json::object([
                    ("way", Json::from(r.way.name())),
                    ("kernel", Json::from(r.way.kernel().file_name())),
                    ("workgroups", Json::from(r.workgroups)),
                    ("wrong_workgroups", Json::from(r.wrong)),
                    ("gpu_ms_per_dispatch", ms(r.gpu_ns)),
                ])
            })),
        ),
        ("consistent", Json::from(held.consistent)),
        ("promise_held", Json::from(held.promise_held)),
        ("wall_ms", Json::from(wall_ms)),
    ])
}
