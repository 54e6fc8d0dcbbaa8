//! What the kernel tests share: the device, and its limits as the lessons check them.

use syncscope::gpu::GpuContext;
use syncscope::lessons::dispatch::ComputeLimits;

/// The machine's Vulkan device (lavapipe in CI). A machine without one fails the kernel tests
/// rather than skipping them, so a missing driver cannot pass for a green run;
/// `SYNCSCOPE_SKIP_GPU=1` opts out explicitly.
pub fn gpu() -> Option<GpuContext> {
    if std::env::var_os("SYNCSCOPE_SKIP_GPU").is_some() {
        eprintln!("SYNCSCOPE_SKIP_GPU is set: not running kernels");
        return None;
    }
    match pollster::block_on(GpuContext::acquire()) {
        Ok(ctx) => Some(ctx),
        Err(e) => panic!("no Vulkan device for the kernel tests ({e}); install mesa-vulkan-drivers"),
    }
}

pub fn limits(ctx: &GpuContext) -> ComputeLimits {
    ComputeLimits::from(ctx.adapter.limits)
}
