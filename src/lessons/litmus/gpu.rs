//! A litmus test on the GPU: its two generated kernels compiled by the device's own compiler,
//! then `dispatches` rounds of test and count in one submission, each on fresh locations, and
//! the outcome counters read back once.

use super::generate::{Buffer, Kernels};
use crate::gpu::buffers::{clearable_storage_buffer, storage_buffer_with, uniform_words};
use crate::gpu::dispatch::submit_and_read;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::model::litmus::{LitmusTest, Placement, LOCATIONS};

/// The workgroup size the lab runs its tests with.
pub const WORKGROUP_SIZE: u32 = 256;
/// Instances per dispatch, at least: what finds weak outcomes on real GPUs.
pub const INSTANCES: u32 = 65_536;
/// Loads of the partners' start flags before an invocation stops waiting and runs anyway.
pub const SPIN_LIMIT: u32 = 256;
/// The same on a CPU adapter (SwiftShader, lavapipe). It runs a few workgroups at a time, each
/// lane group to its end, so a partner elsewhere has seldom started: a long wait there finds
/// no one and only costs time.
pub const CPU_SPIN_LIMIT: u32 = 32;

/// How long an invocation waits for its partners on this adapter.
pub fn spin_limit(adapter: &crate::gpu::AdapterSummary) -> u32 {
    if adapter.is_cpu {
        CPU_SPIN_LIMIT
    } else {
        SPIN_LIMIT
    }
}
const COUNT_WORKGROUP: u32 = 64;

/// The test's kernels, compiled: made once per test, used by every run of it.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub kernels: Kernels,
    test: wgpu::ComputePipeline,
    count: wgpu::ComputePipeline,
}

pub async fn compile(ctx: &GpuContext, kernels: Kernels) -> Result<Compiled, GpuError> {
    let test = ctx.compile("litmus_test.wgsl", &kernels.test.source, WORKGROUP_SIZE).await?;
    let count = ctx.compile("litmus_count.wgsl", &kernels.count.source, COUNT_WORKGROUP).await?;
    ctx.prime(&test, &kernels.test.source);
    ctx.prime(&count, &kernels.count.source);
    Ok(Compiled { kernels, test, count })
}

/// How the instances are laid out over workgroups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub workgroups: u32,
    /// Groups of workgroups thread `k` is played `k` ahead in (across); the workgroups (same).
    pub groups: u32,
    pub instances: u32,
}

impl Shape {
    /// Every invocation plays each thread of a different instance, so a workgroup carries
    /// `WORKGROUP_SIZE` instances; `across` needs a group of workgroups per thread at least.
    pub fn of(test: &LitmusTest, at_least: u32) -> Shape {
        let mut groups = at_least.div_ceil(WORKGROUP_SIZE);
        // Each workgroup of the test a group of workgroups of its own: thread k is played as
        // many groups ahead as its workgroup's number.
        if test.placement != Placement::Same {
            groups = groups.max(test.groups.iter().max().map_or(1, |g| *g as u32 + 1));
        }
        Shape { workgroups: groups, groups, instances: groups * WORKGROUP_SIZE }
    }
}

/// What a batch counted.
#[derive(Clone, Debug, PartialEq)]
pub struct LitmusCounts {
    pub shape: Shape,
    pub dispatches: u32,
    /// One count per outcome, in the order [`LitmusTest::outcomes`] lists them.
    pub counts: Vec<u64>,
    /// Instances whose registers or final values no outcome lists: always 0 unless the GPU,
    /// its driver or its compiler is broken.
    pub unlisted: u64,
    /// Wall-clock milliseconds from encoding to the counts in hand.
    pub wall_ms: f64,
    /// Loads an invocation waited for its partners, at most.
    pub spin_limit: u32,
}

impl LitmusCounts {
    pub fn instances(&self) -> u64 {
        u64::from(self.shape.instances) * u64::from(self.dispatches)
    }

    pub fn per_second(&self) -> f64 {
        self.instances() as f64 / (self.wall_ms / 1e3).max(1e-9)
    }
}

/// The smallest odd number from about 0.6 × `n` up that shares no factor with `n`: a step that
/// scatters `0..n` over itself.
fn scatter_step(n: u32) -> u32 {
    let gcd = |mut a: u32, mut b: u32| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let mut step = (u64::from(n) * 5 / 8) as u32 | 1;
    while gcd(step, n) != 1 {
        step += 2;
    }
    step
}

/// Runs `dispatches` rounds of at least `at_least` instances each, in one submission.
pub async fn run(
    ctx: &GpuContext,
    test: &LitmusTest,
    compiled: &Compiled,
    at_least: u32,
    dispatches: u32,
    seed: u64,
    now_ms: fn() -> f64,
) -> Result<LitmusCounts, GpuError> {
    let kernels = &compiled.kernels;
    let shape = Shape::of(test, at_least.max(1));
    if u64::from(shape.instances) * u64::from(dispatches.max(1)) > u64::from(u32::MAX) {
        return Err(GpuError::BadParams(format!("{} instances × {dispatches} dispatches overflow the 32-bit counters: run fewer", shape.instances)));
    }
    let threads = test.threads.len() as u32;
    let registers = test.registers.len() as u32;
    let finals = test.overwritten().len() as u32;
    // The largest array bound: the three locations of every instance.
    let largest = (LOCATIONS.len() as u32).max(registers).max(threads).max(finals) * shape.instances;
    crate::gpu::buffers::per_invocation_bytes(ctx, largest)?;
    let device = &ctx.device;
    let words = |n: u32| 4 * u64::from(n.max(1));
    let locations = clearable_storage_buffer(device, "locations", words(LOCATIONS.len() as u32 * shape.instances));
    let regs = clearable_storage_buffer(device, "registers", words(registers * shape.instances));
    let arrived = clearable_storage_buffer(device, "arrived", words(threads * shape.instances));
    let finals_buffer = clearable_storage_buffer(device, "finals", words(finals * shape.instances));
    let counters = kernels.outcomes as u32 + 1;
    let counts = clearable_storage_buffer(device, "counts", words(counters));
    let order: Vec<u8> = crate::lessons::message_passing::shuffled_workgroups(shape.workgroups, seed).iter().flat_map(|w| w.to_le_bytes()).collect();
    let shuffle = storage_buffer_with(device, "shuffle", &order);
    let spin_limit = spin_limit(&ctx.adapter);
    let params = uniform_words(device, &[shape.instances, shape.groups, 37, scatter_step(shape.instances), spin_limit]);
    let buffer = |b: Buffer| match b {
        Buffer::Locations => &locations,
        Buffer::Registers => &regs,
        Buffer::Arrived => &arrived,
        Buffer::Shuffle => &shuffle,
        Buffer::Finals => &finals_buffer,
        Buffer::Counts => &counts,
        Buffer::Params => &params,
    };
    let bind = |pipeline: &wgpu::ComputePipeline, label: &'static str, list: &[Buffer]| {
        let entries: Vec<wgpu::BindGroupEntry> =
            list.iter().enumerate().map(|(i, &b)| wgpu::BindGroupEntry { binding: i as u32, resource: buffer(b).as_entire_binding() }).collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(label), layout: &pipeline.get_bind_group_layout(0), entries: &entries })
    };

    let start = now_ms();
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let test_group = bind(&compiled.test, "litmus test", &kernels.test.bindings);
    let count_group = bind(&compiled.count, "litmus count", &kernels.count.bindings);
    let mut encoder = device.create_command_encoder(&Default::default());
    for _ in 0..dispatches {
        // Each round tests fresh instances: locations and start flags back to 0.
        encoder.clear_buffer(&locations, 0, None);
        encoder.clear_buffer(&arrived, 0, None);
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("litmus"), timestamp_writes: None });
        pass.set_pipeline(&compiled.test);
        pass.set_bind_group(0, &test_group, &[]);
        pass.dispatch_workgroups(shape.workgroups, 1, 1);
        pass.set_pipeline(&compiled.count);
        pass.set_bind_group(0, &count_group, &[]);
        pass.dispatch_workgroups(shape.instances.div_ceil(COUNT_WORKGROUP), 1, 1);
    }
    let read = submit_and_read(ctx, scope, encoder, &[(&counts, words(counters))]).await?;
    let wall_ms = now_ms() - start;
    let mut all: Vec<u64> = u32s(&read[0]).into_iter().map(u64::from).collect();
    let unlisted = all.pop().unwrap_or(0);
    Ok(LitmusCounts { shape, dispatches, counts: all, unlisted, wall_ms, spin_limit })
}
