//! Dispatching the compare-exchange maximum and reading back the result and every retry count.

use super::buffers::{params_buffer, per_invocation_bytes, storage_buffer};
use super::readback::{read_buffer, u32s};
use super::{GpuContext, GpuError};
use crate::lessons::cas_max::CasInputs;
use crate::lessons::dispatch::GpuParams;
use wgpu::util::DeviceExt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CasRun {
    /// The bits of the f32 left in `best`.
    pub best_bits: u32,
    /// Failed compare-exchanges of each invocation.
    pub retries: Vec<u32>,
    /// Invocations that stopped at the kernel's bound on tries.
    pub gave_up: u32,
}

pub async fn run_cas_max(ctx: &GpuContext, inputs: CasInputs, params: GpuParams) -> Result<CasRun, GpuError> {
    let bytes = per_invocation_bytes(ctx, params.invocations)?;
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(CasInputs::kernel(), params.workgroup_size).await?;
    let device = &ctx.device;
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let init = |label, contents: &[u8]| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        })
    };
    let best = init("best", &f32::NEG_INFINITY.to_bits().to_le_bytes());
    let values: Vec<u8> = (0..params.invocations).flat_map(|i| inputs.value(i).to_le_bytes()).collect();
    let input = init("input", &values);
    let retries = storage_buffer(device, "retries", bytes);
    let gave_up = storage_buffer(device, "gave_up", 4);
    let uniform = params_buffer(device, params.invocations);
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("cas max"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: best.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 1, resource: input.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 2, resource: retries.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 3, resource: gave_up.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 4, resource: uniform.as_entire_binding() },
        ],
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups(params.workgroups(), 1, 1);
    }
    let read = read_buffer(device, &ctx.queue, encoder, &[(&best, 4), (&retries, bytes), (&gave_up, 4)]).await;
    if let Some(error) = scope.pop().await {
        return Err(GpuError::Run(error.to_string()));
    }
    ctx.check_alive()?;
    let read = read?;
    Ok(CasRun { best_bits: u32s(&read[0])[0], retries: u32s(&read[1]), gave_up: u32s(&read[2])[0] })
}
