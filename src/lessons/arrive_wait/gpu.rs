//! Dispatching an arrive-wait kernel and reading back what it counted and each arrival ticket.

use crate::gpu::buffers::{params_buffer, per_invocation_bytes, storage_buffer};
use crate::gpu::dispatch::dispatch_once;
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::arrive_wait::{ArriveRun, ArriveWait};

/// `Stats` in the kernels: opened, released, gave_up, stale, longest_wait.
const STATS_BYTES: u64 = 20;

pub async fn run_arrive_wait(ctx: &GpuContext, variant: ArriveWait, params: GpuParams) -> Result<ArriveRun, GpuError> {
    ctx.check_alive()?;
    let bytes = per_invocation_bytes(ctx, params.invocations)?;
    let pipeline = ctx.pipeline(variant.kernel(), params.workgroup_size).await?;
    let device = &ctx.device;
    let stats = storage_buffer(device, "stats", STATS_BYTES);
    let tickets = storage_buffer(device, "tickets", bytes);
    let uniform = params_buffer(device, params.invocations);
    let read = dispatch_once(ctx, &pipeline, "arrive-wait", &[&stats, &tickets, &uniform], params.workgroups(), &[(&stats, STATS_BYTES), (&tickets, bytes)], false).await?;
    let [stats, tickets] = &read.buffers[..] else {
        return Err(GpuError::Run("the read-back came back short".into()));
    };
    let s = u32s(stats);
    Ok(ArriveRun { opened: s[0], released: s[1], gave_up: s[2], stale: s[3], longest_wait: s[4], tickets: u32s(tickets) })
}
