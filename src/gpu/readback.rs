//! Copying results back to the CPU, the same way on the web (where nothing may block) and
//! natively (where someone must poll the device).

use super::{GpuContext, GpuError};

/// Where each copy starts in the one read-back buffer, and the bytes it needs in all: each
/// copy at a multiple of 8 (what mapping asks of a range; copies ask for 4).
fn layout(copies: &[(&wgpu::Buffer, u64)]) -> (Vec<u64>, u64) {
    let mut offsets = Vec::with_capacity(copies.len());
    let mut total = 0;
    for &(_, size) in copies {
        offsets.push(total);
        total += size.next_multiple_of(8);
    }
    (offsets, total.max(8))
}

/// Copies each of `copies` into one read-back buffer kept between runs, submits, and returns
/// their bytes after a single map: one trip to the GPU and back. The errors `scope` catches
/// are asked for as soon as the work is submitted, so they arrive with the results rather than
/// a trip later; a validation error or a lost device comes back as an error.
pub async fn submit_and_read(
    ctx: &GpuContext,
    scope: wgpu::ErrorScopeGuard,
    mut encoder: wgpu::CommandEncoder,
    copies: &[(&wgpu::Buffer, u64)],
) -> Result<Vec<Vec<u8>>, GpuError> {
    let (offsets, total) = layout(copies);
    let staging = ctx.take_staging(total);
    for (&(source, size), &offset) in copies.iter().zip(&offsets) {
        encoder.copy_buffer_to_buffer(source, 0, &staging, offset, size);
    }
    ctx.queue.submit([encoder.finish()]);
    let errors = scope.pop();
    let (tx, rx) = futures_channel::oneshot::channel();
    staging.map_async(wgpu::MapMode::Read, ..total, move |result| {
        let _ = tx.send(result);
    });
    // Natively the map callback only runs while the device is polled; on the web the
    // browser's event loop runs it and this does nothing.
    #[cfg(not(target_arch = "wasm32"))]
    ctx.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| GpuError::Run(format!("waiting for the GPU: {e}")))?;
    let mapped = rx.await;
    if let Some(error) = errors.await {
        return Err(GpuError::Run(error.to_string()));
    }
    ctx.check_alive()?;
    mapped.map_err(|_| GpuError::DeviceLost("the read-back was abandoned".into()))?.map_err(|e| GpuError::Run(format!("mapping the results: {e}")))?;
    let out = {
        let view = staging.get_mapped_range(..total).map_err(|e| GpuError::Run(format!("reading the results: {e}")))?;
        copies.iter().zip(&offsets).map(|(&(_, size), &offset)| view[offset as usize..(offset + size) as usize].to_vec()).collect()
    };
    staging.unmap();
    ctx.give_back_staging(staging);
    Ok(out)
}

/// Reads little-endian `u32`s out of raw bytes (what WGSL's `u32` is on every backend).
pub fn u32s(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}
