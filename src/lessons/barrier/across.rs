//! The storage-buffer demonstration of the barrier lesson: writes, storageBarrier(), reads of
//! another invocation's cell, in one dispatch or split over two.

use crate::gpu::buffers::{per_invocation_bytes, storage_buffer, uniform_words};
use crate::gpu::dispatch::{bind_whole, submit_and_read};
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::barrier::Across;

const WRITE: u32 = 1;
const READ: u32 = 2;

/// What each invocation read, for `how`.
pub async fn run_across(ctx: &GpuContext, how: Across, params: GpuParams) -> Result<Vec<u32>, GpuError> {
    let bytes = per_invocation_bytes(ctx, params.invocations)?;
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(super::kernels::ACROSS_WORKGROUPS, params.workgroup_size).await?;
    let device = &ctx.device;
    let cells = storage_buffer(device, "cells", bytes);
    let got = storage_buffer(device, "got", bytes);
    let phases: &[u32] = match how {
        Across::NextWorkgroupTwoDispatches => &[WRITE, READ],
        _ => &[WRITE | READ],
    };
    let across = u32::from(how.crosses_workgroups());
    let groups: Vec<wgpu::BindGroup> = phases
        .iter()
        .map(|&p| {
            let uniform = uniform_words(device, &[params.invocations, p, across]);
            bind_whole(device, &pipeline, "across", &[&cells, &got, &uniform])
        })
        .collect();
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("across"), timestamp_writes: None });
        pass.set_pipeline(&pipeline);
        // Two dispatches: the second starts only after the first has finished and its writes
        // to `cells` are visible.
        for group in &groups {
            pass.set_bind_group(0, group, &[]);
            pass.dispatch_workgroups(params.workgroups(), 1, 1);
        }
    }
    let read = submit_and_read(ctx, scope, encoder, &[(&got, bytes)]).await?;
    Ok(u32s(read.first().ok_or_else(|| GpuError::Run("nothing came back".into()))?))
}
