//! Dispatching the grid-barrier kernel, once with the barrier or twice without it, and reading
//! back what its workgroups counted.

use crate::gpu::buffers::{per_invocation_bytes, storage_buffer, uniform_words};
use crate::gpu::dispatch::{bind_whole, submit_and_read};
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
    let phases: &[u32] = match way {
        GpuWay::GridBarrier => &[0],
        GpuWay::TwoDispatches => &[1, 2],
    };
    let groups: Vec<wgpu::BindGroup> = phases
        .iter()
        .map(|&phase| {
            let uniform = uniform_words(device, &[workgroups, SPIN_LIMIT, phase]);
            bind_whole(device, &pipeline, "grid barrier", &[&part, &stats, &uniform])
        })
        .collect();
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = device.create_command_encoder(&Default::default());
    for group in &groups {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("grid barrier"), timestamp_writes: None });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(workgroups, 1, 1);
    }
    let read = submit_and_read(ctx, scope, encoder, &[(&stats, STATS_BYTES)]).await?;
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
