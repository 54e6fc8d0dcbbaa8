//! Dispatching the grid-barrier kernel, once with the barrier or twice without it, and reading
//! back what its workgroups counted.

use crate::gpu::buffers::{per_invocation_bytes, storage_buffer};
use crate::gpu::dispatch::dispatch_phases;
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::grid_barrier::{kernels, GpuWay, GridRun, SPIN_LIMIT};

/// `Stats` in the kernel: arrived, passed, gave_up, stale, longest_wait.
const STATS_BYTES: u64 = 20;

pub async fn run_grid(ctx: &GpuContext, way: GpuWay, params: GpuParams) -> Result<GridRun, GpuError> {
    ctx.check_alive()?;
    let workgroups = params.workgroups();
    // Whole workgroups: the parts of a last, partial one are still read by its neighbour.
    let bytes = per_invocation_bytes(ctx, workgroups * params.workgroup_size)?;
    let pipeline = ctx.pipeline(kernels::GRID_BARRIER, params.workgroup_size).await?;
    let device = &ctx.device;
    let part = storage_buffer(device, "part", bytes);
    let stats = storage_buffer(device, "stats", STATS_BYTES);
    // One dispatch with the barrier (phase 0), or two without it: write (1), then read (2).
    let words: Vec<[u32; 3]> = match way {
        GpuWay::GridBarrier => vec![[workgroups, SPIN_LIMIT, 0]],
        GpuWay::TwoDispatches => vec![[workgroups, SPIN_LIMIT, 1], [workgroups, SPIN_LIMIT, 2]],
    };
    let phases: Vec<&[u32]> = words.iter().map(|w| &w[..]).collect();
    let read = dispatch_phases(ctx, &pipeline, "grid barrier", &[&part, &stats], &phases, workgroups, &[(&stats, STATS_BYTES)]).await?;
    let s = u32s(&read[0]);
    Ok(GridRun { workgroups, passed: s[1], gave_up: s[2], stale: s[3], longest_wait: s[4] })
}

/// The grid barrier at every size of [`sweep_sizes`](super::sweep_sizes) up to the workgroups
/// of `params`, then two dispatches at the largest: each run as it comes to `each`.
pub async fn sweep(ctx: &GpuContext, params: GpuParams, mut each: impl FnMut(GpuWay, GridRun)) -> Result<(), GpuError> {
    for workgroups in super::sweep_sizes(params.workgroups()) {
        let p = GpuParams { invocations: workgroups * params.workgroup_size, workgroup_size: params.workgroup_size };
        each(GpuWay::GridBarrier, run_grid(ctx, GpuWay::GridBarrier, p).await?);
    }
    let largest = GpuParams { invocations: params.workgroups() * params.workgroup_size, workgroup_size: params.workgroup_size };
    each(GpuWay::TwoDispatches, run_grid(ctx, GpuWay::TwoDispatches, largest).await?);
    Ok(())
}
