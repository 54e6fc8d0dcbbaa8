//! Dispatching one atomic from every invocation and reading back the cell and what each
//! invocation got.

use crate::gpu::buffers::{storage_buffer, storage_buffer_with, uniform_words};
use crate::gpu::dispatch::{dispatch_runs, run_stride, Binding};
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::atomic_ops::{AtomicRun, AtomicSetup, Placement};
use crate::model::IntType;

/// Runs `setup`'s op once from `threads` invocations, each with its own operand.
pub async fn run_atomic_op(ctx: &GpuContext, setup: AtomicSetup, threads: usize, placement: Placement) -> Result<AtomicRun, GpuError> {
    let mut runs = run_atomic_ops(ctx, setup, threads, placement, 1).await?;
    runs.pop().ok_or_else(|| GpuError::Run("the run came back empty".into()))
}

/// Runs `setup`'s op `runs` times in one submission, each run from `threads` invocations on
/// cells of its own that start as the setup says.
pub async fn run_atomic_ops(ctx: &GpuContext, setup: AtomicSetup, threads: usize, placement: Placement, runs: u32) -> Result<Vec<AtomicRun>, GpuError> {
    let Some(operands) = setup.operands.get(..threads).filter(|o| !o.is_empty()) else {
        return Err(GpuError::BadParams(format!("{threads} invocations: the lesson runs 2 to 16")));
    };
    ctx.check_alive()?;
    let (workgroup_size, workgroups) = placement.sizes(threads as u32);
    let pipeline = ctx.pipeline(AtomicSetup::kernel(), workgroup_size).await?;
    let device = &ctx.device;
    // Both cells start with the same bits; the kernel uses the one of the reader's type.
    let start = IntType::bits(setup.initial).to_le_bytes();
    let cell_stride = run_stride(ctx, 8);
    let mut cells = vec![0u8; (cell_stride * u64::from(runs.max(1))) as usize];
    for run in cells.chunks_mut(cell_stride as usize) {
        run[..8].copy_from_slice(&[start, start].concat());
    }
    let cells = storage_buffer_with(device, "cells", &cells);
    let bits: Vec<u8> = operands.iter().flat_map(|&v| IntType::bits(v).to_le_bytes()).collect();
    let operands = storage_buffer_with(device, "operands", &bits);
    let bytes = 4 * threads as u64;
    let stride = run_stride(ctx, bytes);
    let olds = storage_buffer(device, "olds", stride * u64::from(runs.max(1)));
    let exchanged = storage_buffer(device, "exchanged", stride * u64::from(runs.max(1)));
    let is_i32 = u32::from(setup.ty == IntType::I32);
    let uniform = uniform_words(device, &[threads as u32, setup.op.code(), is_i32, IntType::bits(setup.compare)]);
    let bindings = [
        Binding::PerRun { buffer: &cells, stride: cell_stride, size: 8 },
        Binding::Shared(&operands),
        Binding::PerRun { buffer: &olds, stride, size: bytes },
        Binding::PerRun { buffer: &exchanged, stride, size: bytes },
        Binding::Shared(&uniform),
    ];
    let read = dispatch_runs(ctx, &pipeline, "atomic ops", &bindings, runs, workgroups, &[0, 2, 3], false).await?;
    let [cells, olds, exchanged] = &read.reads[..] else {
        return Err(GpuError::Run("the read-back came back short".into()));
    };
    Ok(cells
        .iter()
        .zip(olds)
        .zip(exchanged)
        .map(|((cells, olds), exchanged)| AtomicRun { final_bits: u32s(cells)[usize::from(is_i32 == 1)], olds: u32s(olds), exchanged: u32s(exchanged) })
        .collect())
}
