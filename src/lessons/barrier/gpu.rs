//! Dispatching the neighbour exchange, with or without its barrier, and reading back what each
//! invocation read and its arrival and departure tickets.

use crate::gpu::buffers::{params_buffer, per_invocation_bytes, storage_buffer};
use crate::gpu::dispatch::dispatch_once;
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::barrier::{BarrierRun, BarrierVariant};

/// Runs `variant`'s kernel. The barrier-in-a-branch kernel is refused by the browser's
/// compiler, and that refusal is the error this returns there.
pub async fn run_barrier(ctx: &GpuContext, variant: BarrierVariant, params: GpuParams) -> Result<BarrierRun, GpuError> {
    let bytes = per_invocation_bytes(ctx, params.invocations)?;
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(variant.kernel(), params.workgroup_size).await?;
    let device = &ctx.device;
    let got = storage_buffer(device, "got", bytes);
    let tickets = storage_buffer(device, "tickets", 2 * bytes);
    let uniform = params_buffer(device, params.invocations);
    let read =
        dispatch_once(ctx, &pipeline, "barrier", &[&got, &tickets, &uniform], params.workgroups(), &[(&got, bytes), (&tickets, 2 * bytes)], false).await?;
    let [got, tickets] = &read.buffers[..] else {
        return Err(GpuError::Run("the read-back came back short".into()));
    };
    let tickets = u32s(tickets);
    Ok(BarrierRun { got: u32s(got), arrive: tickets.iter().step_by(2).copied().collect(), depart: tickets.iter().skip(1).step_by(2).copied().collect() })
}
