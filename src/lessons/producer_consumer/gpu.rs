//! Dispatching a producer-consumer kernel (twice for the two-dispatch handoff) and reading back
//! what its consumers counted.

use crate::gpu::buffers::{per_invocation_bytes, storage_buffer, uniform_words};
use crate::gpu::dispatch::{bind_whole, submit_and_read};
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::producer_consumer::{layout_problem, Handoff, HandoffRun, SPIN_LIMIT};

/// `Stats` in the kernels: consumed, stale, gave_up, longest_wait.
const STATS_BYTES: u64 = 16;

pub async fn run_handoff(ctx: &GpuContext, handoff: Handoff, params: GpuParams) -> Result<HandoffRun, GpuError> {
    ctx.check_alive()?;
    if let Some(problem) = layout_problem(handoff, params) {
        return Err(GpuError::BadParams(problem));
    }
    let bytes = per_invocation_bytes(ctx, params.invocations)?;
    let pipeline = ctx.pipeline(handoff.kernel(), params.workgroup_size).await?;
    let device = &ctx.device;
    let data = storage_buffer(device, "data", bytes);
    let flags = storage_buffer(device, "flags", bytes);
    let stats = storage_buffer(device, "stats", STATS_BYTES);
    // One dispatch, or two: producers (phase 0), then consumers (phase 1).
    let phases: &[u32] = if handoff == Handoff::TwoDispatches { &[0, 1] } else { &[0] };
    let groups: Vec<wgpu::BindGroup> = phases
        .iter()
        .map(|&phase| {
            let uniform = uniform_words(device, &[params.workgroups(), SPIN_LIMIT, phase]);
            bind_whole(device, &pipeline, "producer-consumer", &[&data, &flags, &stats, &uniform])
        })
        .collect();
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = device.create_command_encoder(&Default::default());
    for group in &groups {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("producer-consumer"), timestamp_writes: None });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(params.workgroups(), 1, 1);
    }
    let read = submit_and_read(ctx, scope, encoder, &[(&stats, STATS_BYTES)]).await?;
    let s = u32s(&read[0]);
    Ok(HandoffRun { consumed: s[0], stale: s[1], gave_up: s[2], longest_wait: s[3] })
}
