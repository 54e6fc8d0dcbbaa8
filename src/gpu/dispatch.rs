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
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some(label), timestamp_writes: timer.as_ref().map(PassTimer::writes) });
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

/// One dispatch of `workgroups` workgroups of `pipeline` per phase, in one submission: each
/// binds `buffers`, then a uniform of that phase's words after them, and sees everything the
/// phases before it wrote (the end of a dispatch orders memory for the next). Then reads back
/// `reads`; validation errors and a device lost meanwhile come back as errors.
pub async fn dispatch_phases(
    ctx: &GpuContext,
    pipeline: &wgpu::ComputePipeline,
    label: &'static str,
    buffers: &[&wgpu::Buffer],
    phases: &[&[u32]],
    workgroups: u32,
    reads: &[(&wgpu::Buffer, u64)],
) -> Result<Vec<Vec<u8>>, GpuError> {
    let device = &ctx.device;
    let groups: Vec<wgpu::BindGroup> = phases
        .iter()
        .map(|words| {
            let uniform = super::buffers::uniform_words(device, words);
            let bound: Vec<&wgpu::Buffer> = buffers.iter().copied().chain([&uniform]).collect();
            bind_whole(device, pipeline, label, &bound)
        })
        .collect();
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = device.create_command_encoder(&Default::default());
    for group in &groups {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some(label), timestamp_writes: None });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(workgroups, 1, 1);
    }
    submit_and_read(ctx, scope, encoder, reads).await
}

/// A bind group of `buffers`, each bound whole at bindings 0, 1, … of group 0.
pub fn bind_whole(device: &wgpu::Device, pipeline: &wgpu::ComputePipeline, label: &'static str, buffers: &[&wgpu::Buffer]) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry> =
        buffers.iter().enumerate().map(|(i, b)| wgpu::BindGroupEntry { binding: i as u32, resource: b.as_entire_binding() }).collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(label), layout: &pipeline.get_bind_group_layout(0), entries: &entries })
}

/// A buffer a batch of runs binds: the same for every run, or a slice of its own for each.
#[derive(Clone, Copy)]
pub enum Binding<'a> {
    Shared(&'a wgpu::Buffer),
    /// Run `i` binds the `size` bytes at `i × stride` (see [`run_stride`]).
    PerRun {
        buffer: &'a wgpu::Buffer,
        stride: u64,
        size: u64,
    },
}

/// Where consecutive runs' slices of a per-run buffer start: `size` rounded up to the offsets
/// this device can bind.
pub fn run_stride(ctx: &GpuContext, size: u64) -> u64 {
    size.next_multiple_of(u64::from(ctx.adapter.limits.min_storage_buffer_offset_alignment.max(4)))
}

/// What a batch gave back: for each per-run buffer read, each run's bytes; and the whole pass's
/// GPU time when it was timed and the adapter has timestamp queries.
pub struct RunsReadback {
    pub reads: Vec<Vec<Vec<u8>>>,
    pub gpu_ns: Option<f64>,
}

/// Runs `pipeline` `runs` times in one submission, each run a dispatch of `workgroups`
/// workgroups with its own slice of every per-run buffer, and reads back the per-run buffers
/// `reads` names (indices into `bindings`) after a single map. Validation errors and a device
/// lost come back as errors.
#[allow(clippy::too_many_arguments)]
pub async fn dispatch_runs(
    ctx: &GpuContext,
    pipeline: &wgpu::ComputePipeline,
    label: &'static str,
    bindings: &[Binding<'_>],
    runs: u32,
    workgroups: u32,
    reads: &[usize],
    timed: bool,
) -> Result<RunsReadback, GpuError> {
    if runs == 0 {
        return Err(GpuError::BadParams("a batch has at least one run".into()));
    }
    let device = &ctx.device;
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let layout = pipeline.get_bind_group_layout(0);
    let groups: Vec<wgpu::BindGroup> = (0..u64::from(runs))
        .map(|run| {
            let entries: Vec<wgpu::BindGroupEntry> = bindings
                .iter()
                .enumerate()
                .map(|(i, b)| wgpu::BindGroupEntry {
                    binding: i as u32,
                    resource: match *b {
                        Binding::Shared(buffer) => buffer.as_entire_binding(),
                        Binding::PerRun { buffer, stride, size } => {
                            wgpu::BindingResource::Buffer(wgpu::BufferBinding { buffer, offset: run * stride, size: wgpu::BufferSize::new(size) })
                        }
                    },
                })
                .collect();
            device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(label), layout: &layout, entries: &entries })
        })
        .collect();
    let timer = if timed { PassTimer::shared(ctx) } else { None };
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some(label), timestamp_writes: timer.as_ref().map(PassTimer::writes) });
        pass.set_pipeline(pipeline);
        for group in &groups {
            pass.set_bind_group(0, group, &[]);
            pass.dispatch_workgroups(workgroups, 1, 1);
        }
    }
    let mut copies = Vec::with_capacity(reads.len() + 1);
    let mut slices = Vec::with_capacity(reads.len());
    for &i in reads {
        let Some(&Binding::PerRun { buffer, stride, size }) = bindings.get(i) else {
            return Err(GpuError::BadParams(format!("binding {i} is not a per-run buffer to read back")));
        };
        copies.push((buffer, stride * u64::from(runs)));
        slices.push((stride as usize, size as usize));
    }
    if let Some(t) = &timer {
        t.resolve(&mut encoder);
        copies.push((t.buffer(), PassTimer::BYTES));
    }
    let mut read = submit_and_read(ctx, scope, encoder, &copies).await?;
    let gpu_ns = match timer {
        Some(_) => read.pop().and_then(|b| PassTimer::nanoseconds(&b, ctx.queue.get_timestamp_period())),
        None => None,
    };
    let reads = read
        .iter()
        .zip(slices)
        .map(|(bytes, (stride, size))| (0..runs as usize).map(|run| bytes[run * stride..run * stride + size].to_vec()).collect())
        .collect();
    Ok(RunsReadback { reads, gpu_ns })
}
