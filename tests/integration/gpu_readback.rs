//! The engine's read-back on a real Vulkan device: several buffers of different sizes come back
//! through one kept buffer, each at its own offset, run after run, larger and smaller.

use syncscope::gpu::buffers::storage_buffer_with;
use syncscope::gpu::dispatch::submit_and_read;

use syncscope::testing::gpu;

#[test]
fn every_copy_comes_back_whole_and_in_place_run_after_run() {
    let Some(ctx) = gpu() else { return };
    for (run, sizes) in [[4usize, 12, 1000, 4], [4096, 4, 8, 20], [4, 4, 4, 4]].into_iter().enumerate() {
        let contents: Vec<Vec<u8>> = sizes.iter().enumerate().map(|(b, &n)| (0..n).map(|i| (i * 7 + b * 31 + run * 13) as u8).collect()).collect();
        let buffers: Vec<wgpu::Buffer> = contents.iter().map(|c| storage_buffer_with(&ctx.device, "source", c)).collect();
        let copies: Vec<(&wgpu::Buffer, u64)> = buffers.iter().zip(&sizes).map(|(b, &n)| (b, n as u64)).collect();
        let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let encoder = ctx.device.create_command_encoder(&Default::default());
        let read = pollster::block_on(submit_and_read(&ctx, scope, encoder, &copies)).unwrap();
        assert_eq!(read, contents, "run {run}: sizes {sizes:?}");
    }
}

#[test]
fn a_copy_the_device_refuses_is_an_error_not_zeros() {
    let Some(ctx) = gpu() else { return };
    let small = storage_buffer_with(&ctx.device, "small", &[1, 2, 3, 4]);
    let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let encoder = ctx.device.create_command_encoder(&Default::default());
    // Eight bytes out of a four-byte buffer.
    let read = pollster::block_on(submit_and_read(&ctx, scope, encoder, &[(&small, 8)]));
    assert!(read.is_err(), "{read:?}");
}
