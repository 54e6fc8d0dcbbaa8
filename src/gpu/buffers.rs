//! Buffers every kernel binds the same way.

use wgpu::util::DeviceExt;

/// The `Params` uniform of a kernel: the number of invocations that do work (the last
/// workgroup may have more lanes than that).
pub fn params_buffer(device: &wgpu::Device, invocations: u32) -> wgpu::Buffer {
    // A uniform struct of one u32 still occupies 16 bytes.
    let mut bytes = [0u8; 16];
    bytes[..4].copy_from_slice(&invocations.to_le_bytes());
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("params"),
        contents: &bytes,
        usage: wgpu::BufferUsages::UNIFORM,
    })
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
