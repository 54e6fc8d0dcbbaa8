//! Dispatching a semaphore kernel and reading back the count and what the kernel counted.

use crate::gpu::buffers::{storage_buffer, storage_buffer_with, uniform_words};
use crate::gpu::dispatch::dispatch_once;
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::semaphore::{Semaphore, SemaphoreRun};

/// `Stats` in the kernels: entered, gave_up, inside, peak, over.
const STATS_BYTES: u64 = 20;

pub async fn run_semaphore(ctx: &GpuContext, semaphore: Semaphore, params: GpuParams) -> Result<SemaphoreRun, GpuError> {
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(semaphore.kernel(), params.workgroup_size).await?;
    let device = &ctx.device;
    let limit = semaphore.limit();
    // The count starts with every slot free.
    let count = storage_buffer_with(device, "count", &limit.to_le_bytes());
    let stats = storage_buffer(device, "stats", STATS_BYTES);
    let uniform = uniform_words(device, &[params.invocations, limit]);
    let read = dispatch_once(ctx, &pipeline, "semaphore", &[&count, &stats, &uniform], params.workgroups(), &[(&count, 4), (&stats, STATS_BYTES)], false).await?;
    let [count, stats] = &read.buffers[..] else {
        return Err(GpuError::Run("the read-back came back short".into()));
    };
    let stats = u32s(stats);
    // `count`, `inside` and `peak` are i32 in the kernels: the same bits, read as signed.
    let signed = |w: u32| w as i32;
    Ok(SemaphoreRun {
        count: signed(u32s(count)[0]),
        entered: stats[0],
        gave_up: stats[1],
        inside: signed(stats[2]),
        peak: signed(stats[3]),
        over: stats[4],
    })
}
