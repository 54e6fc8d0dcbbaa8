//! Dispatching the ticket kernel and reading back which ticket each invocation took.

use super::buffers::{params_buffer, per_invocation_bytes, storage_buffer};
use super::readback::{read_buffer, u32s};
use super::timing::PassTimer;
use super::{GpuContext, GpuError};
use crate::lessons::dispatch::GpuParams;
use crate::lessons::tickets::Tickets;

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
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let next = storage_buffer(device, "next", 4);
    let tickets = storage_buffer(device, "tickets", bytes);
    let uniform = params_buffer(device, params.invocations);
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("tickets"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: next.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 1, resource: tickets.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 2, resource: uniform.as_entire_binding() },
        ],
    });
    let timer = PassTimer::new(ctx);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("tickets"),
            timestamp_writes: timer.as_ref().map(PassTimer::writes),
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups(params.workgroups(), 1, 1);
    }
    if let Some(t) = &timer {
        t.resolve(&mut encoder);
    }
    let mut copies = vec![(&next, 4), (&tickets, bytes)];
    if let Some(t) = &timer {
        copies.push((t.buffer(), PassTimer::BYTES));
    }
    let read = read_buffer(device, &ctx.queue, encoder, &copies).await;
    if let Some(error) = scope.pop().await {
        return Err(GpuError::Run(error.to_string()));
    }
    ctx.check_alive()?;
    let read = read?;
    Ok(TicketRun {
        next: u32s(&read[0])[0],
        tickets: u32s(&read[1]),
        gpu_ns: read.get(2).and_then(|b| PassTimer::nanoseconds(b, ctx.queue.get_timestamp_period())),
    })
}
