//! Buffers every kernel binds the same way.

use wgpu::util::DeviceExt;

/// The `Params` uniform of a kernel: the number of invocations that do work (the last
/// workgroup may have more lanes than that).
pub fn params_buffer(device: &wgpu::Device, invocations: u32) -> wgpu::Buffer {
    uniform_words(device, &[invocations])
}

/// A `Params` uniform of `u32` fields, in order.
pub fn uniform_words(device: &wgpu::Device, words: &[u32]) -> wgpu::Buffer {
    // A uniform struct occupies a multiple of 16 bytes, however few fields it has.
    let mut bytes = vec![0u8; (4 * words.len()).div_ceil(16).max(1) * 16];
    for (chunk, w) in bytes.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some("params"), contents: &bytes, usage: wgpu::BufferUsages::UNIFORM })
}

/// A zeroed storage buffer that can be read back.
pub fn storage_buffer(device: &wgpu::Device, label: &'static str, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    })
}

/// A storage buffer that starts with `contents` and can be read back.
pub fn storage_buffer_with(device: &wgpu::Device, label: &'static str, contents: &[u8]) -> wgpu::Buffer {
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    })
}

/// Refuses sizes whose per-invocation arrays (4 bytes each) the adapter cannot bind, with a
/// message saying so, and returns the array size in bytes.
pub fn per_invocation_bytes(ctx: &super::GpuContext, invocations: u32) -> Result<u64, super::GpuError> {
    let bytes = 4 * u64::from(invocations);
    let limit = ctx.adapter.limits.max_storage_buffer_binding_size;
    if bytes > limit {
        return Err(super::GpuError::BadParams(format!("{invocations} invocations need {bytes}-byte buffers; this GPU binds at most {limit} bytes")));
    }
    Ok(bytes)
}

/// A zeroed storage buffer that can be cleared again between dispatches (and read back).
pub fn clearable_storage_buffer(device: &wgpu::Device, label: &'static str, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}
