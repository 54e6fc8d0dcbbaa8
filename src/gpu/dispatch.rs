//! The one shape most kernels run in: buffers bound whole at bindings 0, 1, … of group 0,
//! one dispatch, some buffers read back, errors caught.

use super::readback::read_buffer;
use super::timing::PassTimer;
use super::{GpuContext, GpuError};

/// What a dispatch gave back: each requested buffer's bytes, and the pass's GPU time when it
/// was timed and the adapter has timestamp queries.
pub struct Readback {
    pub buffers: Vec<Vec<u8>>,
    pub gpu_ns: Option<f64>,
}

/// Binds `buffers` in order, dispatches `workgroups` workgroups of `pipeline` once, and reads
/// back `reads`. Validation errors on the way and a device lost meanwhile come back as errors.
pub async fn dispatch_once(
    ctx: &GpuContext,
    pipeline: &wgpu::ComputePipeline,
    label: &'static str,
    buffers: &[&wgpu::Buffer],
    workgroups: u32,
    reads: &[(&wgpu::Buffer, u64)],
    timed: bool,
) -> Result<Readback, GpuError> {
    let device = &ctx.device;
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let group = bind_whole(device, pipeline, label, buffers);
    let timer = if timed { PassTimer::new(ctx) } else { None };
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(label),
            timestamp_writes: timer.as_ref().map(PassTimer::writes),
        });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups(workgroups, 1, 1);
    }
    let mut copies = reads.to_vec();
    if let Some(t) = &timer {
        t.resolve(&mut encoder);
        copies.push((t.buffer(), PassTimer::BYTES));
    }
    let mut buffers = submit_and_read(ctx, scope, encoder, &copies).await?;
    let gpu_ns = match timer {
        Some(_) => buffers.pop().and_then(|b| PassTimer::nanoseconds(&b, ctx.queue.get_timestamp_period())),
        None => None,
    };
    Ok(Readback { buffers, gpu_ns })
}

/// A bind group of `buffers`, each bound whole at bindings 0, 1, … of group 0.
pub fn bind_whole(
    device: &wgpu::Device,
    pipeline: &wgpu::ComputePipeline,
    label: &'static str,
    buffers: &[&wgpu::Buffer],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry> = buffers
        .iter()
        .enumerate()
        .map(|(i, b)| wgpu::BindGroupEntry { binding: i as u32, resource: b.as_entire_binding() })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &entries,
    })
}

/// Submits `encoder` with its copies out of `copies`, and returns their bytes; a validation
/// error caught by `scope` or a device lost meanwhile comes back as an error instead.
pub async fn submit_and_read(
    ctx: &GpuContext,
    scope: wgpu::ErrorScopeGuard,
    encoder: wgpu::CommandEncoder,
    copies: &[(&wgpu::Buffer, u64)],
) -> Result<Vec<Vec<u8>>, GpuError> {
    let read = read_buffer(&ctx.device, &ctx.queue, encoder, copies).await;
    if let Some(error) = scope.pop().await {
        return Err(GpuError::Run(error.to_string()));
    }
    ctx.check_alive()?;
    read
}
