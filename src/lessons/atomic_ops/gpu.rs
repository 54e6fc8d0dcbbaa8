//! Dispatching one atomic from every invocation and reading back the cell and what each
//! invocation got.

use crate::gpu::buffers::{storage_buffer, storage_buffer_with, uniform_words};
use crate::gpu::dispatch::dispatch_once;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::atomic_ops::{AtomicRun, AtomicSetup, Placement};
use crate::model::IntType;

/// Runs `setup`'s op once from `threads` invocations, each with its own operand.
pub async fn run_atomic_op(ctx: &GpuContext, setup: AtomicSetup, threads: usize, placement: Placement) -> Result<AtomicRun, GpuError> {
    let Some(operands) = setup.operands.get(..threads).filter(|o| !o.is_empty()) else {
        return Err(GpuError::BadParams(format!("{threads} invocations: the lesson runs 2 to 16")));
    };
    ctx.check_alive()?;
    let (workgroup_size, workgroups) = placement.sizes(threads as u32);
    let pipeline = ctx.pipeline(AtomicSetup::kernel(), workgroup_size).await?;
    let device = &ctx.device;
    // Both cells start with the same bits; the kernel uses the one of the reader's type.
    let start = IntType::bits(setup.initial).to_le_bytes();
    let cells = storage_buffer_with(device, "cells", &[start, start].concat());
    let bits: Vec<u8> = operands.iter().flat_map(|&v| IntType::bits(v).to_le_bytes()).collect();
    let operands = storage_buffer_with(device, "operands", &bits);
    let bytes = 4 * threads as u64;
    let olds = storage_buffer(device, "olds", bytes);
    let exchanged = storage_buffer(device, "exchanged", bytes);
    let is_i32 = u32::from(setup.ty == IntType::I32);
    let uniform = uniform_words(device, &[threads as u32, setup.op.code(), is_i32, IntType::bits(setup.compare)]);
    let read = dispatch_once(
        ctx,
        &pipeline,
        "atomic ops",
        &[&cells, &operands, &olds, &exchanged, &uniform],
        workgroups,
        &[(&cells, 8), (&olds, bytes), (&exchanged, bytes)],
        false,
    )
    .await?;
    let [cells, olds, exchanged] = &read.buffers[..] else {
        return Err(GpuError::Run("the read-back came back short".into()));
    };
    let cells = u32s(cells);
    Ok(AtomicRun { final_bits: cells[usize::from(is_i32 == 1)], olds: u32s(olds), exchanged: u32s(exchanged) })
}

