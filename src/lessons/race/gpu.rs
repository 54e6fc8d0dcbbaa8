//! Dispatching the race kernels and reading back what they did.

use crate::gpu::buffers::{params_buffer, storage_buffer};
use crate::gpu::dispatch::{dispatch_once, dispatch_runs, run_stride, Binding};
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::race::{GpuParams, Variant, MAX_REPLAY_INVOCATIONS};
use crate::model::AccessRecord;

/// Most runs one batch dispatches (the "run 100×" button and the tests stay well under it).
pub const MAX_RUNS_PER_BATCH: u32 = 1000;

/// The final counter of each run in a batch, read back from the GPU.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceBatch {
    pub finals: Vec<u32>,
    /// Time the GPU spent on the whole batch, from timestamp queries, if the adapter has them.
    pub gpu_ns: Option<f64>,
}

/// Runs the race kernel `runs` times, each on its own zeroed counter, in one submission.
pub async fn run_race(ctx: &GpuContext, variant: Variant, params: GpuParams, runs: u32) -> Result<RaceBatch, GpuError> {
    if runs == 0 || runs > MAX_RUNS_PER_BATCH {
        return Err(GpuError::BadParams(format!("runs must be between 1 and {MAX_RUNS_PER_BATCH}")));
    }
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(variant.kernel(), params.workgroup_size).await?;
    // Each run's counter sits at its own aligned offset so the runs cannot see one another.
    let stride = run_stride(ctx, 4);
    let counters = storage_buffer(&ctx.device, "counters", stride * u64::from(runs));
    let uniform = params_buffer(&ctx.device, params.invocations);
    let bindings = [Binding::PerRun { buffer: &counters, stride, size: 4 }, Binding::Shared(&uniform)];
    let read = dispatch_runs(ctx, &pipeline, "race", &bindings, runs, params.workgroups(), &[0], true).await?;
    let finals = read.reads.first().map(|runs| runs.iter().map(|c| u32s(c)[0]).collect()).unwrap_or_default();
    let gpu_ns = read.gpu_ns;
    Ok(RaceBatch { finals, gpu_ns })
}

/// What the instrumented kernel recorded, invocation by invocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayRun {
    pub records: Vec<AccessRecord>,
    pub final_count: u32,
}

/// Runs the instrumented kernel with `invocations` invocations in one workgroup.
pub async fn run_replay(ctx: &GpuContext, variant: Variant, invocations: u32) -> Result<ReplayRun, GpuError> {
    if invocations == 0 || invocations > MAX_REPLAY_INVOCATIONS {
        return Err(GpuError::BadParams(format!("the replay records between 1 and {MAX_REPLAY_INVOCATIONS} invocations")));
    }
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(variant.replay_kernel(), MAX_REPLAY_INVOCATIONS).await?;
    let device = &ctx.device;
    let storage = |label, size| storage_buffer(device, label, size);
    let counter = storage("counter", 4);
    let clock = storage("clock", 4);
    let records = storage("records", 16 * u64::from(invocations));
    let uniform = params_buffer(device, invocations);
    let read = dispatch_once(
        ctx,
        &pipeline,
        "race replay",
        &[&counter, &uniform, &clock, &records],
        1,
        &[(&counter, 4), (&records, 16 * u64::from(invocations))],
        false,
    )
    .await?;
    let final_count = u32s(&read.buffers[0])[0];
    let records = u32s(&read.buffers[1]).chunks_exact(4).map(|r| AccessRecord { loaded: r[0], stored: r[1], load_ticket: r[2], store_ticket: r[3] }).collect();
    Ok(ReplayRun { records, final_count })
}
