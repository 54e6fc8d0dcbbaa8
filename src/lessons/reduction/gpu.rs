//! The reduction lesson on the GPU: the traced tree of one workgroup, and a large array summed
//! by a tree of workgroups against atomicAdd into one counter, each timed over many repeats.

use crate::gpu::buffers::{params_buffer, per_invocation_bytes, storage_buffer, storage_buffer_with};
use crate::gpu::dispatch::{bind_whole, dispatch_once, submit_and_read};
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::PassTimer;
use crate::gpu::{GpuContext, GpuError};
use crate::lessons::reduction::{large_value, strides, Tree, VALUES};

/// The workgroup memory after loading and after each stride, as the kernel copied it out.
pub async fn run_trace(ctx: &GpuContext, threads: usize) -> Result<Vec<Vec<u32>>, GpuError> {
    if !(1..=256).contains(&threads) {
        return Err(GpuError::BadParams(format!("a traced workgroup has 1 to 256 invocations, not {threads}")));
    }
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(Tree::kernel(), threads as u32).await?;
    let device = &ctx.device;
    let values: Vec<u8> = (0..threads).flat_map(|i| VALUES[i % VALUES.len()].to_le_bytes()).collect();
    let input = storage_buffer_with(device, "input", &values);
    let rows = 1 + strides(threads).len();
    let bytes = (4 * threads * rows) as u64;
    let snapshots = storage_buffer(device, "snapshots", bytes);
    let read = dispatch_once(ctx, &pipeline, "reduction trace", &[&input, &snapshots], 1, &[(&snapshots, bytes)], false).await?;
    let cells = u32s(read.buffers.first().ok_or_else(|| GpuError::Run("nothing came back".into()))?);
    Ok(cells.chunks(threads).map(<[u32]>::to_vec).collect())
}

/// Which ways a run sums the array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ways {
    /// The tree of dispatches, atomicAdd per value, and the tree in workgroup memory with one
    /// atomicAdd per workgroup.
    All,
    /// atomicAdd alone: a first look, since where barriers are slow (a software adapter takes
    /// ~90 ms for one tree over 65,536 values) one atomic pass takes about a millisecond.
    AtomicOnly,
}

/// A large sum three ways (or atomicAdd alone), each repeated `repeats` times inside one timed
/// compute pass.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// What the tree's last level left: the sum; `None` when the tree did not run.
    pub tree_sum: Option<u32>,
    /// The counter after `repeats` dispatches of atomicAdd: `repeats` times the sum.
    pub atomic_total: u32,
    /// The counter after `repeats` dispatches of the tree with one atomicAdd per workgroup:
    /// `repeats` times the sum; `None` when it did not run.
    pub tree_atomic_total: Option<u32>,
    pub repeats: u32,
    /// Dispatches per tree sum: one per level.
    pub levels: u32,
    /// Nanoseconds per repeat, where the adapter has timestamp queries.
    pub tree_ns: Option<f64>,
    pub atomic_ns: Option<f64>,
    pub tree_atomic_ns: Option<f64>,
}

pub async fn run_comparison(ctx: &GpuContext, params: GpuParams, repeats: u32, ways: Ways) -> Result<Comparison, GpuError> {
    let n = params.invocations;
    let w = params.workgroup_size;
    if w < 2 || !w.is_power_of_two() {
        return Err(GpuError::BadParams(format!("the tree needs a workgroup size that is a power of two from 2 up, not {w}")));
    }
    // Refuses an input larger than this GPU binds.
    per_invocation_bytes(ctx, n)?;
    ctx.check_alive()?;
    let tree = ctx.pipeline(super::kernels::TREE, w).await?;
    let atomic = ctx.pipeline(super::kernels::ATOMIC, w).await?;
    let all = ways == Ways::All;
    let tree_atomic = if all { Some(ctx.pipeline(super::kernels::TREE_ATOMIC, w).await?) } else { None };
    let device = &ctx.device;
    let values: Vec<u8> = (0..n).flat_map(|i| large_value(i).to_le_bytes()).collect();
    let input = storage_buffer_with(device, "input", &values);
    // Level after level until one value is left: n, ⌈n/w⌉, ⌈n/w²⌉, … 1.
    let mut levels = Vec::new();
    let mut count = n;
    let mut source = input.clone();
    loop {
        let groups = count.div_ceil(w);
        let out = storage_buffer(device, "partials", 4 * u64::from(groups));
        let uniform = params_buffer(device, count);
        let group = bind_whole(device, &tree, "tree level", &[&source, &out, &uniform]);
        levels.push((group, groups));
        source = out;
        count = groups;
        if count == 1 {
            break;
        }
    }
    let uniform = params_buffer(device, n);
    let total = storage_buffer(device, "total", 4);
    let atomic_group = bind_whole(device, &atomic, "atomic sum", &[&input, &total, &uniform]);
    let tree_atomic_total = storage_buffer(device, "tree-atomic total", 4);
    let tree_atomic_group = tree_atomic.as_ref().map(|p| bind_whole(device, p, "tree, then atomicAdd", &[&input, &tree_atomic_total, &uniform]));
    let timer = |on: bool| if on { PassTimer::new(ctx) } else { None };
    let timers = [timer(all), timer(true), timer(all)];
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder = device.create_command_encoder(&Default::default());
    if all {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("tree"), timestamp_writes: timers[0].as_ref().map(PassTimer::writes) });
        pass.set_pipeline(&tree);
        for _ in 0..repeats {
            for (group, groups) in &levels {
                pass.set_bind_group(0, group, &[]);
                pass.dispatch_workgroups(*groups, 1, 1);
            }
        }
    }
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("atomic"), timestamp_writes: timers[1].as_ref().map(PassTimer::writes) });
        pass.set_pipeline(&atomic);
        pass.set_bind_group(0, &atomic_group, &[]);
        for _ in 0..repeats {
            pass.dispatch_workgroups(n.div_ceil(w), 1, 1);
        }
    }
    if let (Some(pipeline), Some(group)) = (&tree_atomic, &tree_atomic_group) {
        let mut pass =
            encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("tree, then atomicAdd"), timestamp_writes: timers[2].as_ref().map(PassTimer::writes) });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, group, &[]);
        for _ in 0..repeats {
            pass.dispatch_workgroups(n.div_ceil(w), 1, 1);
        }
    }
    // Read back in this order: the tree's last level, both totals, then each timer that ran.
    let mut copies = vec![(&source, 4), (&total, 4), (&tree_atomic_total, 4)];
    for t in timers.iter().flatten() {
        t.resolve(&mut encoder);
        copies.push((t.buffer(), PassTimer::BYTES));
    }
    let read = submit_and_read(ctx, scope, encoder, &copies).await?;
    let period = ctx.queue.get_timestamp_period();
    // Timer `k`'s buffer follows the three totals and the timers before it that ran.
    let timed = |k: usize| {
        timers[k].as_ref()?;
        let at = 3 + timers[..k].iter().flatten().count();
        read.get(at).and_then(|b| PassTimer::nanoseconds(b, period)).map(|ns| ns / f64::from(repeats.max(1)))
    };
    Ok(Comparison {
        tree_sum: all.then(|| u32s(&read[0])[0]),
        atomic_total: u32s(&read[1])[0],
        tree_atomic_total: all.then(|| u32s(&read[2])[0]),
        repeats,
        levels: levels.len() as u32,
        tree_ns: timed(0),
        atomic_ns: timed(1),
        tree_atomic_ns: timed(2),
    })
}
