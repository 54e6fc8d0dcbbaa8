//! The atomic-family panel as JSON: the setup, and what every invocation got back in each run.

use crate::data::{adapter, Json};
use crate::gpu::AdapterSummary;
use crate::lessons::atomic_ops::{explain, AtomicRun, AtomicSetup, Placement};

pub fn runs(gpu: &AdapterSummary, setup: AtomicSetup, placement: Placement, runs: &[AtomicRun], wall_ms: f64) -> Json {
    let ty = setup.ty;
    let threads = runs.first().map_or(0, |r| r.olds.len());
    let each = runs.iter().map(|run| {
        let e = explain(setup, run);
        Json::object([
            ("final", Json::from(e.final_value)),
            ("returned", Json::array(run.olds.iter().map(|&b| ty.from_bits(b)))),
            ("exchanged", Json::array(run.exchanged.iter().map(|&x| x != 0))),
            ("serial_order", e.order.map_or(Json::Null, Json::array)),
            ("spurious_failures", Json::from(e.spurious)),
        ])
    });
    Json::object([
        ("syncscope", Json::from("atomic-ops/runs")),
        ("adapter", adapter(gpu)),
        ("kernel", Json::from(AtomicSetup::kernel().file_name())),
        (
            "setup",
            Json::object([
                ("op", Json::from(setup.op.function())),
                ("type", Json::from(ty.name())),
                ("initial", Json::from(setup.initial)),
                ("expected", Json::from(setup.compare)),
                ("operands", Json::array(setup.operands[..threads].iter().copied())),
                ("layout", Json::from(placement.name())),
            ]),
        ),
        ("runs", Json::Array(each.collect())),
        ("wall_ms", Json::from(wall_ms)),
    ])
}
