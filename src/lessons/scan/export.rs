//! The scan GPU panel as JSON: each tile kernel's wrong sums, the large scan, the compaction
//! and `atomicAdd`'s beside it, as read back.

use crate::data::{adapter, Json};
use crate::site::settings::LessonVariant;
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::scan::single_pass::{SinglePass, SinglePassRun};
use crate::lessons::scan::{check, scan_bytes, AppendBeside, ScanRun};

pub fn run(gpu: &AdapterSummary, params: GpuParams, run: &ScanRun, beside: &AppendBeside, single: Option<&SinglePass>, cpu_ms: f64, wall_ms: f64) -> Json {
    let bytes = scan_bytes(params.invocations);
    let way = |r: &SinglePassRun| {
        Json::object([
            ("wrong_sums", Json::from(r.wrong)),
            ("total", Json::from(r.total)),
            ("tiles", Json::from(r.tiles)),
            ("gpu_ms", r.gpu_ns.map_or(Json::Null, |ns| Json::from(ns / 1e6))),
            ("gb_per_s", r.gpu_ns.map_or(Json::Null, |ns| Json::from(bytes / ns))),
            ("fallbacks", Json::from(r.fallbacks)),
            ("give_ups", Json::from(r.give_ups)),
            ("lookback_looks", Json::array(r.depth.iter().copied())),
        ])
    };
    let held = check(run, Some(beside)).promise_held && single.is_none_or(SinglePass::promise_held);
    let single = single.map_or(Json::Null, |s| {
        Json::object([
            ("with_fallback", way(&s.with)),
            ("tickets_with_fallback", way(&s.tickets)),
            ("without_fallback", way(&s.without)),
            ("copy_gb_per_s", s.copy_ns.map_or(Json::Null, |ns| Json::from(bytes / ns))),
        ])
    });
    let tile = |t: &crate::lessons::scan::TileRun| {
        Json::object([
            ("way", Json::from(t.way.name())),
            ("kernel", Json::from(t.way.kernel().file_name())),
            ("wrong_sums", Json::from(t.wrong)),
            ("tiles_with_a_wrong_sum", Json::from(t.wrong_tiles)),
            ("first_wrong_tile", t.first_wrong.as_ref().map_or(Json::Null, |(i, _)| Json::from(*i))),
        ])
    };
    let gpu_ms = run.gpu_ns.map(|ns| ns / 1e6);
    Json::object([
        ("syncscope", Json::from("scan/run")),
        ("adapter", adapter(gpu)),
        ("parameters", Json::object([("values", Json::from(params.invocations)), ("workgroup_size", Json::from(params.workgroup_size)), ("repeats", Json::from(run.repeats))])),
        ("tiles", Json::array(run.tiles.iter().map(tile))),
        (
            "three_dispatches",
            Json::object([
                ("wrong_sums", Json::from(run.large_wrong)),
                ("total", Json::from(run.total)),
                ("gpu_ms", gpu_ms.map_or(Json::Null, Json::from)),
                ("cpu_ms", Json::from(cpu_ms)),
                ("gb_per_s", gpu_ms.map_or(Json::Null, |ms| Json::from(scan_bytes(params.invocations) / (ms * 1e6)))),
            ]),
        ),
        (
            "compaction",
            Json::object([
                ("kept", Json::from(run.kept)),
                ("kept_in_input_order", Json::from(run.kept_in_order)),
                ("atomic_add_kept", Json::from(beside.count)),
                ("atomic_add_same_values", Json::from(beside.same_values)),
                ("atomic_add_slots_out_of_input_order", Json::from(beside.out_of_place)),
            ]),
        ),
        ("single_pass", single),
        ("promise_held", Json::from(held)),
        ("wall_ms", Json::from(wall_ms)),
    ])
}
