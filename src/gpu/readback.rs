//! Copying a buffer back to the CPU, the same way on the web (where nothing may block) and
//! natively (where someone must poll the device).

use super::GpuError;

/// Copies `source` into a fresh mappable buffer, submits, and returns its bytes.
pub async fn read_buffer(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    encoder: wgpu::CommandEncoder,
    copies: &[(&wgpu::Buffer, u64)],
) -> Result<Vec<Vec<u8>>, GpuError> {
    let mut encoder = encoder;
    let staging: Vec<wgpu::Buffer> = copies
        .iter()
        .map(|&(source, size)| {
            let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("readback"),
                size,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            encoder.copy_buffer_to_buffer(source, 0, &buffer, 0, size);
            buffer
        })
        .collect();
    queue.submit([encoder.finish()]);

    let mut receivers = Vec::with_capacity(staging.len());
    for buffer in &staging {
        let (tx, rx) = futures_channel::oneshot::channel();
        buffer.map_async(wgpu::MapMode::Read, .., move |result| {
            let _ = tx.send(result);
        });
        receivers.push(rx);
    }
    // Natively the map callbacks only run while the device is polled; on the web the
    // browser's event loop runs them and this does nothing.
    #[cfg(not(target_arch = "wasm32"))]
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| GpuError::Run(format!("waiting for the GPU: {e}")))?;

    let mut out = Vec::with_capacity(staging.len());
    for (buffer, rx) in staging.iter().zip(receivers) {
        rx.await
            .map_err(|_| GpuError::DeviceLost("the read-back was abandoned".into()))?
            .map_err(|e| GpuError::Run(format!("mapping a result buffer: {e}")))?;
        let bytes = buffer
            .get_mapped_range(..)
            .map_err(|e| GpuError::Run(format!("reading a result buffer: {e}")))?
            .to_vec();
        buffer.unmap();
        out.push(bytes);
    }
    Ok(out)
}

/// Reads little-endian `u32`s out of raw bytes (what WGSL's `u32` is on every backend).
pub fn u32s(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}
