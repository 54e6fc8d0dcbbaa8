//! The reduction lesson's GPU panels as JSON: the traced tree (the workgroup memory after
//! loading and after each stride, as the kernel copied it out), and the large sum by a tree of
//! workgroups against atomicAdd, with both results as read back and both timings.

use crate::data::{adapter, Json};
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::reduction::gpu::Comparison;
use crate::lessons::reduction::{kernels, large_sum, strides, trace, Tree, VALUES};

pub fn trace_run(gpu: &AdapterSummary, threads: usize, rows: &[Vec<u32>], wall_ms: f64) -> Json {
    let values: Vec<u32> = (0..threads).map(|i| VALUES[i % VALUES.len()]).collect();
    let same = rows == trace(&values).as_slice();
    Json::object([
        ("syncscope", Json::from("reduction/trace")),
        ("adapter", adapter(gpu)),
        ("kernel", Json::from(Tree::kernel().file_name())),
        ("parameters", Json::object([("threads", Json::from(threads))])),
        ("input", Json::array(values.iter().copied())),
        ("strides", Json::array(strides(threads))),
        // Row 0 is the memory after loading; row k after the k-th stride.
        ("cells", Json::Array(rows.iter().map(|row| Json::array(row.iter().copied())).collect())),
        ("same_as_model", Json::from(same)),
        ("wall_ms", Json::from(wall_ms)),
    ])
}

pub fn comparison(gpu: &AdapterSummary, params: GpuParams, run: &Comparison, wall_ms: f64) -> Json {
    let want = large_sum(params.invocations);
    let want_atomic = (want * u64::from(run.repeats)) & 0xFFFF_FFFF;
    let ms = |ns: Option<f64>| Json::from(ns.map(|ns| ns / 1e6));
    Json::object([
        ("syncscope", Json::from("reduction/timing")),
        ("adapter", adapter(gpu)),
        (
            "kernels",
            Json::object([
                ("tree", Json::from(kernels::TREE.file_name())),
                ("atomic", Json::from(kernels::ATOMIC.file_name())),
                ("tree_atomic", Json::from(kernels::TREE_ATOMIC.file_name())),
            ]),
        ),
        (
            "parameters",
            Json::object([
                ("invocations", Json::from(params.invocations)),
                ("workgroup_size", Json::from(params.workgroup_size)),
                ("repeats", Json::from(run.repeats)),
            ]),
        ),
        ("expected_sum", Json::from(want)),
        ("tree_sum", Json::from(run.tree_sum)),
        ("tree_dispatches_per_sum", Json::from(run.levels)),
        // The counter after every repeat added the sum again, modulo 2^32.
        ("expected_atomic_total", Json::from(want_atomic)),
        ("atomic_total", Json::from(run.atomic_total)),
        ("tree_atomic_total", Json::from(run.tree_atomic_total)),
        ("tree_right", Json::from(run.tree_sum.map(|sum| u64::from(sum) == want))),
        ("atomic_right", Json::from(u64::from(run.atomic_total) == want_atomic)),
        ("tree_atomic_right", Json::from(run.tree_atomic_total.map(|t| u64::from(t) == want_atomic))),
        ("tree_gpu_ms_per_sum", ms(run.tree_ns)),
        ("atomic_gpu_ms_per_sum", ms(run.atomic_ns)),
        ("tree_atomic_gpu_ms_per_sum", ms(run.tree_atomic_ns)),
        ("wall_ms", Json::from(wall_ms)),
    ])
}
