//! The message-passing litmus test on the GPU: `dispatches` dispatches of one kernel in one
//! submission, each on freshly zeroed locations, with the outcomes counted by the kernel into
//! four counters that are read back once. Timed by the caller's wall clock, from encoding to
//! the counts in hand: that is what a reader waits for.

use crate::gpu::buffers::{clearable_storage_buffer, storage_buffer_with, uniform_words};
use crate::gpu::dispatch::{bind_whole, submit_and_read};
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::message_passing::{shuffled_workgroups, Layout, MessagePassingVariant, OutcomeCounts, SPIN_LIMIT};

#[derive(Clone, Debug, PartialEq)]
pub struct LitmusRun {
    pub layout: Layout,
    pub dispatches: u32,
    /// Read back from the kernel's counters, indexed by `Outcome::slot`.
    pub counts: OutcomeCounts,
    /// Wall-clock milliseconds from encoding the first dispatch to the counts read back.
    pub wall_ms: f64,
}

impl LitmusRun {
    /// Instances the run set out to test: every invocation of every dispatch writes one.
    pub fn instances(&self) -> u64 {
        u64::from(self.layout.instances()) * u64::from(self.dispatches)
    }

    /// Instances counted per second of wall clock.
    pub fn per_second(&self) -> f64 {
        self.counts.iter().sum::<u64>() as f64 / (self.wall_ms / 1e3).max(1e-9)
    }
}

/// `params.invocations` test instances per dispatch (rounded up to whole workgroups).
pub async fn run_litmus(
    ctx: &GpuContext,
    variant: MessagePassingVariant,
    params: GpuParams,
    dispatches: u32,
    seed: u64,
    now_ms: fn() -> f64,
) -> Result<LitmusRun, GpuError> {
    let layout = Layout::new(variant, params.workgroups(), params.workgroup_size).map_err(GpuError::BadParams)?;
    let instances = layout.instances();
    if u64::from(instances) * u64::from(dispatches) > u64::from(u32::MAX) {
        return Err(GpuError::BadParams(format!("{instances} instances × {dispatches} dispatches overflow the 32-bit outcome counters: run fewer")));
    }
    // Two locations per instance: the largest array bound.
    crate::gpu::buffers::per_invocation_bytes(ctx, 2 * instances)?;
    let pipeline = ctx.pipeline(variant.kernel(), params.workgroup_size).await?;
    let device = &ctx.device;
    let locations = clearable_storage_buffer(device, "locations", 8 * u64::from(instances));
    let arrived = clearable_storage_buffer(device, "arrived", 4 * u64::from(instances));
    let outcomes = clearable_storage_buffer(device, "outcomes", 16);
    let order: Vec<u8> = shuffled_workgroups(layout.workgroups, seed).iter().flat_map(|w| w.to_le_bytes()).collect();
    let shuffle = storage_buffer_with(device, "shuffle", &order);
    let uniform = uniform_words(device, &[layout.workgroups, layout.lane_step, layout.flag_step, SPIN_LIMIT]);
    let group = bind_whole(device, &pipeline, "message passing", &[&locations, &shuffle, &arrived, &outcomes, &uniform]);

    let start = now_ms();
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = device.create_command_encoder(&Default::default());
    for _ in 0..dispatches {
        // Each dispatch tests fresh instances: data, flags and arrivals back to 0.
        encoder.clear_buffer(&locations, 0, None);
        encoder.clear_buffer(&arrived, 0, None);
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("message passing"), timestamp_writes: None });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups(layout.workgroups, 1, 1);
    }
    let read = submit_and_read(ctx, scope, encoder, &[(&outcomes, 16)]).await?;
    let wall_ms = now_ms() - start;
    let words = u32s(&read[0]);
    let mut counts = [0u64; 4];
    for (c, w) in counts.iter_mut().zip(words) {
        *c = u64::from(w);
    }
    Ok(LitmusRun { layout, dispatches, counts, wall_ms })
}

/// The smallest test a dispatch can hold: two invocations, each writing one instance and
/// reading the other's (in two workgroups of one, or one workgroup of two).
pub fn smallest(variant: MessagePassingVariant) -> GpuParams {
    if variant.across_workgroups() {
        GpuParams { invocations: 2, workgroup_size: 1 }
    } else {
        GpuParams { invocations: 2, workgroup_size: 2 }
    }
}

/// The many-instances dispatch against the smallest one repeated, side by side.
#[derive(Clone, Debug, PartialEq)]
pub struct Throughput {
    pub many: LitmusRun,
    pub smallest: LitmusRun,
}

impl Throughput {
    pub fn ratio(&self) -> f64 {
        self.many.per_second() / self.smallest.per_second().max(1e-9)
    }
}

pub async fn compare_throughput(
    ctx: &GpuContext,
    variant: MessagePassingVariant,
    params: GpuParams,
    dispatches: u32,
    smallest_dispatches: u32,
    seed: u64,
    now_ms: fn() -> f64,
) -> Result<Throughput, GpuError> {
    // A warm-up of each first, so neither figure pays for compiling its pipeline.
    run_litmus(ctx, variant, params, 1, seed, now_ms).await?;
    run_litmus(ctx, variant, smallest(variant), 1, seed, now_ms).await?;
    let many = run_litmus(ctx, variant, params, dispatches, seed, now_ms).await?;
    let smallest = run_litmus(ctx, variant, smallest(variant), smallest_dispatches, seed, now_ms).await?;
    Ok(Throughput { many, smallest })
}
