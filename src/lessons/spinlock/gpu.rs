//! Dispatching a spinlock kernel and reading back the counter and what the kernel counted.

use crate::gpu::buffers::{params_buffer, storage_buffer};
use crate::gpu::dispatch::dispatch_once;
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::spinlock::{Lock, LockRun};

pub async fn run_spinlock(ctx: &GpuContext, lock: Lock, params: GpuParams) -> Result<LockRun, GpuError> {
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(lock.kernel(), params.workgroup_size).await?;
    let device = &ctx.device;
    let counter = storage_buffer(device, "counter", 4);
    let lock_cell = storage_buffer(device, "lock", 4);
    let stats = storage_buffer(device, "stats", 16);
    let uniform = params_buffer(device, params.invocations);
    // The lock is the last binding, so the kernel without one binds the same first three.
    let bound: &[&wgpu::Buffer] = if lock == Lock::None { &[&counter, &stats, &uniform] } else { &[&counter, &stats, &uniform, &lock_cell] };
    let read = dispatch_once(ctx, &pipeline, "spinlock", bound, params.workgroups(), &[(&counter, 4), (&stats, 16)], false).await?;
    let [counter, stats] = &read.buffers[..] else {
        return Err(GpuError::Run("the read-back came back short".into()));
    };
    let stats = u32s(stats);
    Ok(LockRun { counter: u32s(counter)[0], entered: stats[0], gave_up: stats[1], overlaps: stats[3] })
}
