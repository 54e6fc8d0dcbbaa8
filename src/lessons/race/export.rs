//! The race lesson's GPU panels as JSON: a batch of runs, and a recorded replay.

use crate::data::{adapter, Json};
use crate::gpu::AdapterSummary;
use crate::lessons::race::gpu::{RaceBatch, ReplayRun};
use crate::lessons::race::{GpuParams, Variant};

/// A batch of runs: every final count read back, in run order.
pub fn runs(gpu: &AdapterSummary, variant: Variant, params: GpuParams, batch: &RaceBatch, wall_ms: f64) -> Json {
    let allowed = variant.allowed_final_counts(params.invocations);
    Json::object([
        ("syncscope", Json::from("race/runs")),
        ("adapter", adapter(gpu)),
        ("variant", Json::from(variant.name())),
        ("kernel", Json::from(variant.kernel().file_name())),
        (
            "parameters",
            Json::object([
                ("invocations", Json::from(params.invocations)),
                ("workgroup_size", Json::from(params.workgroup_size)),
                ("workgroups", Json::from(params.workgroups())),
                ("runs", Json::from(batch.finals.len())),
            ]),
        ),
        ("expected", Json::from(params.invocations)),
        ("allowed_final_counts", Json::array([*allowed.start(), *allowed.end()])),
        ("final_counts", Json::array(batch.finals.iter().copied())),
        ("wall_ms", Json::from(wall_ms)),
        ("gpu_ms", Json::from(batch.gpu_ns.map(|ns| ns / 1e6))),
    ])
}

/// A replay: what each recorded invocation loaded and stored, and its tickets.
pub fn replay(gpu: &AdapterSummary, variant: Variant, run: &ReplayRun) -> Json {
    let records = run.records.iter().enumerate().map(|(i, r)| {
        Json::object([
            ("invocation", Json::from(i)),
            ("loaded", Json::from(r.loaded)),
            ("stored", Json::from(r.stored)),
            ("load_ticket", Json::from(r.load_ticket)),
            ("store_ticket", Json::from(r.store_ticket)),
        ])
    });
    Json::object([
        ("syncscope", Json::from("race/replay")),
        ("adapter", adapter(gpu)),
        ("variant", Json::from(variant.name())),
        ("kernel", Json::from(variant.replay_kernel().file_name())),
        ("invocations", Json::from(run.records.len())),
        ("final_count", Json::from(run.final_count)),
        ("records", Json::Array(records.collect())),
    ])
}
