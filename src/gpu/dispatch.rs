//! The one shape most kernels run in: buffers bound whole at bindings 0, 1, … of group 0,
//! one dispatch, some buffers read back, errors caught.

pub use super::readback::submit_and_read;
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
    let timer = if timed { PassTimer::shared(ctx) } else { None };
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
