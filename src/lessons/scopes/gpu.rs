//! Dispatching a scopes kernel and reading back how many neighbour reads were fresh or stale.

use crate::gpu::buffers::{per_invocation_bytes, storage_buffer, uniform_words};
use crate::gpu::dispatch::dispatch_once;
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::scopes::{layout_problem, BarrierReach, ReachRun};

/// `Stats` in the kernels: fresh, stale, impossible.
const STATS_BYTES: u64 = 12;

pub async fn run_reach(ctx: &GpuContext, reach: BarrierReach, params: GpuParams) -> Result<ReachRun, GpuError> {
    ctx.check_alive()?;
    if let Some(problem) = layout_problem(reach, params) {
        return Err(GpuError::BadParams(problem));
    }
    let bytes = per_invocation_bytes(ctx, params.invocations)?;
    let pipeline = ctx.pipeline(reach.kernel(), params.workgroup_size).await?;
    let device = &ctx.device;
    let cells = storage_buffer(device, "cells", bytes);
    let stats = storage_buffer(device, "stats", STATS_BYTES);
    let uniform = uniform_words(device, &[params.workgroups(), u32::from(reach.across_workgroups())]);
    let read = dispatch_once(ctx, &pipeline, "scopes", &[&cells, &stats, &uniform], params.workgroups(), &[(&stats, STATS_BYTES)], false).await?;
    let s = u32s(&read.buffers[0]);
    Ok(ReachRun { fresh: s[0], stale: s[1], impossible: s[2] })
}
