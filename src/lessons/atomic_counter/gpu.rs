//! Dispatching the ticket kernel and reading back which ticket each invocation took.

use crate::gpu::buffers::{params_buffer, per_invocation_bytes, storage_buffer};
use crate::gpu::dispatch::dispatch_once;
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::atomic_counter::Tickets;

/// One run: `tickets[i]` is the ticket invocation `i` took; `next` is where the counter ended.
#[derive(Clone, Debug, PartialEq)]
pub struct TicketRun {
    pub tickets: Vec<u32>,
    pub next: u32,
    /// GPU time of the dispatch from timestamp queries, if the adapter has them.
    pub gpu_ns: Option<f64>,
}

pub async fn run_tickets(ctx: &GpuContext, params: GpuParams) -> Result<TicketRun, GpuError> {
    let bytes = per_invocation_bytes(ctx, params.invocations)?;
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(Tickets::kernel(), params.workgroup_size).await?;
    let device = &ctx.device;
    let next = storage_buffer(device, "next", 4);
    let tickets = storage_buffer(device, "tickets", bytes);
    let uniform = params_buffer(device, params.invocations);
    let read = dispatch_once(ctx, &pipeline, "tickets", &[&next, &tickets, &uniform], params.workgroups(), &[(&next, 4), (&tickets, bytes)], true).await?;
    Ok(TicketRun { next: u32s(&read.buffers[0])[0], tickets: u32s(&read.buffers[1]), gpu_ns: read.gpu_ns })
}
