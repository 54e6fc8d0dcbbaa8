//! What the kernel tests share (native only): the device, one test at a time, and its limits as
//! the lessons check them. Public for the integration tests, which see only the public API.

use crate::gpu::params::ComputeLimits;
use crate::gpu::GpuContext;
use std::ops::Deref;
use std::sync::{Mutex, MutexGuard};

/// Kernel tests take turns. On an NVIDIA H100 (driver 580, Vulkan) several test threads each
/// creating a device and dispatching at once sometimes hung; one at a time they always passed.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// This machine's GPU, held for the length of one test.
pub struct Gpu {
    ctx: GpuContext,
    _turn: MutexGuard<'static, ()>,
}

impl Deref for Gpu {
    type Target = GpuContext;
    fn deref(&self) -> &GpuContext {
        &self.ctx
    }
}

/// The machine's Vulkan device (lavapipe in CI). A machine without one fails the kernel tests
/// rather than skipping them, so a missing driver cannot pass for a green run;
/// `SYNCSCOPE_SKIP_GPU=1` opts out explicitly.
pub fn gpu() -> Option<Gpu> {
    if std::env::var_os("SYNCSCOPE_SKIP_GPU").is_some() {
        eprintln!("SYNCSCOPE_SKIP_GPU is set: not running kernels");
        return None;
    }
    // A test that failed while holding the turn leaves nothing behind that the next one needs.
    let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    match pollster::block_on(GpuContext::acquire()) {
        Ok(ctx) => Some(Gpu { ctx, _turn: turn }),
        Err(e) => panic!("no Vulkan device for the kernel tests ({e}); install mesa-vulkan-drivers"),
    }
}

pub fn limits(ctx: &GpuContext) -> ComputeLimits {
    ComputeLimits::from(ctx.adapter.limits)
}
