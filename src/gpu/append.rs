//! Dispatching the append kernel and reading back the count and the output slots.

use super::buffers::{params_buffer, per_invocation_bytes, storage_buffer};
use super::readback::{read_buffer, u32s};
use super::{GpuContext, GpuError};
use crate::lessons::append::{input_value, Append};
use crate::lessons::dispatch::GpuParams;
use wgpu::util::DeviceExt;

/// One run: where `count` ended, and every output slot (the first `count` were written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppendRun {
    pub count: u32,
    pub output: Vec<u32>,
}

pub async fn run_append(ctx: &GpuContext, params: GpuParams) -> Result<AppendRun, GpuError> {
    let bytes = per_invocation_bytes(ctx, params.invocations)?;
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(Append::kernel(), params.workgroup_size).await?;
    let device = &ctx.device;
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let values: Vec<u8> = (0..params.invocations).flat_map(|i| input_value(i).to_le_bytes()).collect();
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("input"),
        contents: &values,
        usage: wgpu::BufferUsages::STORAGE,
    });
    let count = storage_buffer(device, "count", 4);
    let output = storage_buffer(device, "output", bytes);
    let uniform = params_buffer(device, params.invocations);
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("append"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: count.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 1, resource: input.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 2, resource: output.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 3, resource: uniform.as_entire_binding() },
        ],
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups(params.workgroups(), 1, 1);
    }
    let read = read_buffer(device, &ctx.queue, encoder, &[(&count, 4), (&output, bytes)]).await;
    if let Some(error) = scope.pop().await {
        return Err(GpuError::Run(error.to_string()));
    }
    ctx.check_alive()?;
    let read = read?;
    Ok(AppendRun { count: u32s(&read[0])[0], output: u32s(&read[1]) })
}
