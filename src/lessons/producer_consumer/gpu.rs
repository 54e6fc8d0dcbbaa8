//! Dispatching a producer-consumer kernel (twice for the two-dispatch handoff) and reading back
//! what its consumers counted.

use crate::gpu::buffers::{per_invocation_bytes, storage_buffer};
use crate::gpu::dispatch::dispatch_phases;
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
    let (workgroups, phases) = (params.workgroups(), if handoff == Handoff::TwoDispatches { vec![0, 1] } else { vec![0] });
    let words: Vec<[u32; 3]> = phases.iter().map(|&phase| [workgroups, SPIN_LIMIT, phase]).collect();
    let phases: Vec<&[u32]> = words.iter().map(|w| &w[..]).collect();
    let read = dispatch_phases(ctx, &pipeline, "producer-consumer", &[&data, &flags, &stats], &phases, workgroups, &[(&stats, STATS_BYTES)]).await?;
    let s = u32s(&read[0]);
    Ok(HandoffRun { consumed: s[0], stale: s[1], gave_up: s[2], longest_wait: s[3] })
}
