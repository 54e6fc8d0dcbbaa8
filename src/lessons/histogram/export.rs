//! The histogram lesson's GPU panels as JSON: all three ways' 256 bins as read back, with their
//! timings, for the run at the reader's sizes and for each point of the two sweeps.

use crate::data::{adapter, Json};
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::histogram::gpu::{HistogramRun, SweepPoint};
use crate::lessons::histogram::{check, cpu_histogram, HistogramVariant, BINS, DISTINCT, PER_INVOCATION, SIZES};
use crate::site::settings::LessonVariant;

/// One way's run over `values` values hitting `distinct` bins.
fn way(variant: HistogramVariant, values: u32, distinct: u32, run: &HistogramRun) -> Json {
    let c = check(values, distinct, run.repeats, &run.bins);
    Json::object([
        ("variant", Json::from(variant.name())),
        ("kernel", Json::from(variant.kernel().file_name())),
        ("sum", Json::from(c.sum)),
        ("expected_sum", Json::from(c.expected_sum)),
        ("lost", Json::from(c.lost())),
        ("equals_cpu", Json::from(c.exact)),
        ("possible", Json::from(c.possible)),
        ("gpu_ms_per_dispatch", Json::from(run.ns_per_dispatch.map(|ns| ns / 1e6))),
        ("bins", Json::array(run.bins.iter().copied())),
    ])
}

pub fn run(gpu: &AdapterSummary, params: GpuParams, distinct: u32, repeats: u32, runs: &[(HistogramVariant, HistogramRun)], wall_ms: f64) -> Json {
    let n = params.invocations;
    Json::object([
        ("syncscope", Json::from("histogram/run")),
        ("adapter", adapter(gpu)),
        (
            "parameters",
            Json::object([
                ("values", Json::from(n)),
                ("workgroup_size", Json::from(params.workgroup_size)),
                ("bins_hit", Json::from(distinct)),
                ("repeats", Json::from(repeats)),
                ("values_per_invocation", Json::from(PER_INVOCATION)),
                ("bins", Json::from(BINS)),
            ]),
        ),
        // One dispatch's histogram counted on the CPU; a run's exact bins are `repeats` times it.
        ("cpu_histogram", Json::array(cpu_histogram(n, distinct))),
        ("ways", Json::Array(runs.iter().map(|(v, r)| way(*v, n, distinct, r)).collect())),
        ("wall_ms", Json::from(wall_ms)),
    ])
}

/// A sweep: over the bins hit at the reader's sizes (`by_size` false), or over the data sizes at
/// the bins chosen (`by_size` true).
pub fn sweep(gpu: &AdapterSummary, params: GpuParams, points: &[SweepPoint], by_size: bool, repeats: u32, wall_ms: f64) -> Json {
    let parameters = if by_size {
        Json::object([
            ("values", Json::array(SIZES)),
            ("workgroup_size", Json::from(params.workgroup_size)),
            ("bins_hit", Json::from(points.first().map(|p| p.distinct))),
            ("repeats", Json::from(repeats)),
            ("values_per_invocation", Json::from(PER_INVOCATION)),
        ])
    } else {
        Json::object([
            ("values", Json::from(params.invocations)),
            ("workgroup_size", Json::from(params.workgroup_size)),
            ("bins_hit", Json::array(DISTINCT)),
            ("repeats", Json::from(repeats)),
            ("values_per_invocation", Json::from(PER_INVOCATION)),
        ])
    };
    let each = points.iter().map(|p| {
        Json::object([
            ("values", Json::from(p.values)),
            ("bins_hit", Json::from(p.distinct)),
            ("ways", Json::Array(p.runs.iter().map(|(v, r)| way(*v, p.values, p.distinct, r)).collect())),
        ])
    });
    Json::object([
        ("syncscope", Json::from(if by_size { "histogram/size-sweep" } else { "histogram/sweep" })),
        ("adapter", adapter(gpu)),
        ("parameters", parameters),
        ("points", Json::Array(each.collect())),
        ("wall_ms", Json::from(wall_ms)),
    ])
}
