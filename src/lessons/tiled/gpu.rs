//! The tiled matrix multiply on the GPU: both inputs uploaded once, the kernel dispatched one
//! or more times in one submission, and each run's product read back whole.

use crate::gpu::buffers::{per_invocation_bytes, storage_buffer, storage_buffer_with, uniform_words};
use crate::gpu::dispatch::{dispatch_runs, run_stride, Binding};
use crate::gpu::params::ComputeLimits;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::tiled::{matrix, Matrix, TiledSize, TiledVariant};

/// Every run's product `c`, `n × n` row by row, as the GPU wrote it.
pub async fn run_tiled(ctx: &GpuContext, variant: TiledVariant, size: TiledSize, runs: u32) -> Result<Vec<Vec<u32>>, GpuError> {
    let size = size.check(&ComputeLimits::from(ctx.adapter.limits)).map_err(GpuError::BadParams)?;
    let bytes = per_invocation_bytes(ctx, size.n * size.n)?;
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(variant.kernel(), size.lanes()).await?;
    let device = &ctx.device;
    let upload = |m| -> Vec<u8> { matrix(m, size.n).iter().flat_map(|v| v.to_le_bytes()).collect() };
    let a = storage_buffer_with(device, "a", &upload(Matrix::A));
    let b = storage_buffer_with(device, "b", &upload(Matrix::B));
    let uniform = uniform_words(device, &[size.n, size.tile]);
    // Each run its own zeroed product: a cell the kernel failed to write reads 0, not what
    // another run left there.
    let stride = run_stride(ctx, bytes);
    let c = storage_buffer(device, "c", stride * u64::from(runs.max(1)));
    let bindings = [Binding::Shared(&a), Binding::Shared(&b), Binding::PerRun { buffer: &c, stride, size: bytes }, Binding::Shared(&uniform)];
    let read = dispatch_runs(ctx, &pipeline, "tiled", &bindings, runs, size.workgroups(), &[2], false).await?;
    let products: Vec<Vec<u32>> = read.reads.into_iter().next().unwrap_or_default().iter().map(|c| u32s(c)).collect();
    Ok(products)
}
