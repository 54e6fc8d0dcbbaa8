//! Dispatching the race kernels and reading back what they did.

use crate::gpu::dispatch::{dispatch_once, submit_and_read};
use crate::gpu::readback::u32s;
use crate::gpu::PassTimer;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::race::{GpuParams, Variant, MAX_REPLAY_INVOCATIONS};
use crate::model::AccessRecord;
use crate::gpu::buffers::{params_buffer, storage_buffer};

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
pub async fn run_race(
    ctx: &GpuContext,
    variant: Variant,
    params: GpuParams,
    runs: u32,
) -> Result<RaceBatch, GpuError> {
    if runs == 0 || runs > MAX_RUNS_PER_BATCH {
        return Err(GpuError::BadParams(format!("runs must be between 1 and {MAX_RUNS_PER_BATCH}")));
    }
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(variant.kernel(), params.workgroup_size).await?;
    let device = &ctx.device;
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);

    // Each run's counter sits at its own aligned offset so the runs cannot see one another.
    let stride = u64::from(ctx.adapter.limits.min_storage_buffer_offset_alignment.max(4));
    let counters = storage_buffer(device, "counters", stride * u64::from(runs));
    let uniform = params_buffer(device, params.invocations);
    let layout = pipeline.get_bind_group_layout(0);
    let groups: Vec<wgpu::BindGroup> = (0..u64::from(runs))
        .map(|run| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("race run"),
                layout: &layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: &counters,
                            offset: run * stride,
                            size: wgpu::BufferSize::new(4),
                        }),
                    },
                    wgpu::BindGroupEntry { binding: 1, resource: uniform.as_entire_binding() },
                ],
            })
        })
        .collect();

    let timer = PassTimer::shared(ctx);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("race"),
            timestamp_writes: timer.as_ref().map(PassTimer::writes),
        });
        pass.set_pipeline(&pipeline);
        for group in &groups {
            pass.set_bind_group(0, group, &[]);
            pass.dispatch_workgroups(params.workgroups(), 1, 1);
        }
    }
    if let Some(t) = &timer {
        t.resolve(&mut encoder);
    }
    let mut copies = vec![(&counters, stride * u64::from(runs))];
    if let Some(t) = &timer {
        copies.push((t.buffer(), PassTimer::BYTES));
    }
    let read = submit_and_read(ctx, scope, encoder, &copies).await?;
    let words = u32s(&read[0]);
    let per_run = (stride / 4) as usize;
    let finals = words.iter().step_by(per_run).copied().take(runs as usize).collect();
    let gpu_ns = read.get(1).and_then(|b| PassTimer::nanoseconds(b, ctx.queue.get_timestamp_period()));
    Ok(RaceBatch { finals, gpu_ns })
}

/// What the instrumented kernel recorded, invocation by invocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayRun {
    pub records: Vec<AccessRecord>,
    pub final_count: u32,
}

/// Runs the instrumented kernel with `invocations` invocations in one workgroup.
pub async fn run_replay(
    ctx: &GpuContext,
    variant: Variant,
    invocations: u32,
) -> Result<ReplayRun, GpuError> {
    if invocations == 0 || invocations > MAX_REPLAY_INVOCATIONS {
        return Err(GpuError::BadParams(format!(
            "the replay records between 1 and {MAX_REPLAY_INVOCATIONS} invocations"
        )));
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
    let records = u32s(&read.buffers[1])
        .chunks_exact(4)
        .map(|r| AccessRecord { loaded: r[0], stored: r[1], load_ticket: r[2], store_ticket: r[3] })
        .collect();
    Ok(ReplayRun { records, final_count })
}
