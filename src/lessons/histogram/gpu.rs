//! The histogram lesson on the GPU: one variant counted `repeats` times into the same bins
//! inside one timed compute pass, and the sweep of every variant over the number of bins hit.

use crate::gpu::buffers::{per_invocation_bytes, storage_buffer, storage_buffer_with, uniform_words};
use crate::gpu::dispatch::{bind_whole, submit_and_read};
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::PassTimer;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::histogram::{value, HistogramVariant, BINS, DISTINCT, PER_INVOCATION};

/// The bins after `repeats` dispatches, and the pass's time where the adapter has timestamps.
#[derive(Clone, Debug, PartialEq)]
pub struct HistogramRun {
    pub bins: Vec<u32>,
    pub repeats: u32,
    /// Nanoseconds per dispatch.
    pub ns_per_dispatch: Option<f64>,
}

/// `params.invocations` is the number of values; each invocation counts PER_INVOCATION of them.
pub async fn run_histogram(ctx: &GpuContext, variant: HistogramVariant, params: GpuParams, distinct: u32, repeats: u32) -> Result<HistogramRun, GpuError> {
    let input = Input::upload(ctx, params, distinct)?;
    input.count(ctx, variant, repeats).await
}

/// The values a run counts, on the GPU: made and uploaded once, then counted by every way
/// (every kernel only reads them). Making a million values and copying them over takes longer
/// than counting them once where the GPU is slow, so a page can upload them before the click.
#[derive(Clone, Debug)]
pub struct Input {
    pub params: GpuParams,
    pub distinct: u32,
    buffer: wgpu::Buffer,
}

impl Input {
    pub fn upload(ctx: &GpuContext, params: GpuParams, distinct: u32) -> Result<Input, GpuError> {
        Ok(Input { params, distinct, buffer: upload(ctx, params, distinct)? })
    }

    /// `variant` counting these values `repeats` times into the same bins.
    pub async fn count(&self, ctx: &GpuContext, variant: HistogramVariant, repeats: u32) -> Result<HistogramRun, GpuError> {
        count(ctx, variant, self.params, &self.buffer, repeats).await
    }
}

/// One point of a sweep: every variant's run at one data size and one number of distinct bins.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPoint {
    pub values: u32,
    pub distinct: u32,
    pub runs: Vec<(HistogramVariant, HistogramRun)>,
}

/// The contention sweep: every number of distinct bins in [`DISTINCT`], at one size.
/// `done(k, of)` is told after each point, for a page to show how far the sweep has come.
pub async fn run_sweep(ctx: &GpuContext, params: GpuParams, repeats: u32, done: &mut dyn FnMut(usize, usize)) -> Result<Vec<SweepPoint>, GpuError> {
    let mut points = Vec::new();
    for distinct in DISTINCT {
        points.push(sweep_point(ctx, params, distinct, repeats).await?);
        done(points.len(), DISTINCT.len());
    }
    Ok(points)
}

/// The size sweep: every data size in `sizes`, at one number of distinct bins.
pub async fn run_size_sweep(
    ctx: &GpuContext,
    workgroup_size: u32,
    distinct: u32,
    sizes: &[u32],
    repeats: u32,
    done: &mut dyn FnMut(usize, usize),
) -> Result<Vec<SweepPoint>, GpuError> {
    let mut points = Vec::new();
    for &values in sizes {
        points.push(sweep_point(ctx, GpuParams { invocations: values, workgroup_size }, distinct, repeats).await?);
        done(points.len(), sizes.len());
    }
    Ok(points)
}

async fn sweep_point(ctx: &GpuContext, params: GpuParams, distinct: u32, repeats: u32) -> Result<SweepPoint, GpuError> {
    let input = upload(ctx, params, distinct)?;
    let mut runs = Vec::new();
    for variant in HistogramVariant::ALL {
        runs.push((variant, count(ctx, variant, params, &input, repeats).await?));
    }
    Ok(SweepPoint { values: params.invocations, distinct, runs })
}

fn upload(ctx: &GpuContext, params: GpuParams, distinct: u32) -> Result<wgpu::Buffer, GpuError> {
    per_invocation_bytes(ctx, params.invocations)?;
    ctx.check_alive()?;
    let values: Vec<u8> = (0..params.invocations).flat_map(|i| value(i, distinct).to_le_bytes()).collect();
    Ok(storage_buffer_with(&ctx.device, "input", &values))
}

async fn count(ctx: &GpuContext, variant: HistogramVariant, params: GpuParams, input: &wgpu::Buffer, repeats: u32) -> Result<HistogramRun, GpuError> {
    let pipeline = ctx.pipeline(variant.kernel(), params.workgroup_size).await?;
    let device = &ctx.device;
    let invocations = params.invocations.div_ceil(PER_INVOCATION);
    let workgroups = invocations.div_ceil(params.workgroup_size);
    let stride = workgroups * params.workgroup_size;
    let bins = storage_buffer(device, "bins", 4 * BINS as u64);
    let uniform = uniform_words(device, &[params.invocations, stride]);
    let group = bind_whole(device, &pipeline, "histogram", &[input, &bins, &uniform]);
    let timer = PassTimer::shared(ctx);
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass =
            encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("histogram"), timestamp_writes: timer.as_ref().map(PassTimer::writes) });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        // Repeats inside one pass: a browser may round timestamps to 100 µs, so one short
        // dispatch alone could read as 0.
        for _ in 0..repeats {
            pass.dispatch_workgroups(workgroups, 1, 1);
        }
    }
    let mut copies = vec![(&bins, 4 * BINS as u64)];
    if let Some(t) = &timer {
        t.resolve(&mut encoder);
        copies.push((t.buffer(), PassTimer::BYTES));
    }
    let read = submit_and_read(ctx, scope, encoder, &copies).await?;
    let ns = read.get(1).and_then(|b| PassTimer::nanoseconds(b, ctx.queue.get_timestamp_period()));
    Ok(HistogramRun { bins: u32s(&read[0]), repeats, ns_per_dispatch: ns.map(|ns| ns / f64::from(repeats.max(1))) })
}
