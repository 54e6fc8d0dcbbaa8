//! The tiled matrix multiply on the GPU: both inputs uploaded once, the kernel dispatched one
//! or more times, and each run's product read back whole.

use crate::gpu::buffers::{per_invocation_bytes, storage_buffer, storage_buffer_with, uniform_words};
use crate::gpu::dispatch::dispatch_once;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::gpu::params::ComputeLimits;
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
    let mut products = Vec::with_capacity(runs as usize);
    for _ in 0..runs {
        // A fresh, zeroed product each run: a cell the kernel failed to write reads 0, not
        // what the previous run left there.
        let c = storage_buffer(device, "c", bytes);
        let read = dispatch_once(ctx, &pipeline, "tiled", &[&a, &b, &c, &uniform], size.workgroups(), &[(&c, bytes)], false).await?;
        let c = read.buffers.first().ok_or_else(|| GpuError::Run("nothing came back".into()))?;
        products.push(u32s(c));
    }
    Ok(products)
}
