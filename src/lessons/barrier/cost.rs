//! What a barrier costs: the same rounds of a neighbour exchange through workgroup memory timed
//! with two `workgroupBarrier()`s a round and without any; the difference over the barriers
//! taken is the cost of one. The run with barriers is checked against the CPU's values.

use crate::gpu::buffers::{storage_buffer, uniform_words};
use crate::gpu::dispatch::dispatch_once;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};

/// The workgroup the cost is measured on: 256 invocations, eight warps of 32 or four waves of 64.
pub const WIDTH: u32 = 256;

/// Rounds the page runs: 2,048 rounds, 4,096 barriers a workgroup, enough that the difference
/// stands well above a browser's coarsened timestamps on a real GPU, and quick on a software one.
pub const PAGE_ROUNDS: u32 = 2048;

/// Workgroups the page times: one alone (a barrier's wait with nothing to hide it), then
/// sixteen at once (more would keep a software adapter busy for many seconds: 64 took it 20).
pub const PAGE_WORKGROUPS: [u32; 2] = [1, 16];

/// Timed passes of each kind; the median is kept.
pub const TIMINGS: usize = 3;

/// One size's timings: `with_ns` and `without_ns` are medians of [`TIMINGS`] passes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BarrierCost {
    pub workgroups: u32,
    pub rounds: u32,
    /// Whether every value the run with barriers left is the CPU's.
    pub exact: bool,
    pub with_ns: Option<f64>,
    pub without_ns: Option<f64>,
}

impl BarrierCost {
    /// Barriers each workgroup passes in the timed run.
    pub fn barriers(&self) -> u32 {
        2 * self.rounds
    }

    /// Nanoseconds one barrier adds, from the two medians; `None` without timestamps.
    pub fn ns_per_barrier(&self) -> Option<f64> {
        Some((self.with_ns? - self.without_ns?) / f64::from(self.barriers()))
    }
}

/// What each invocation of a workgroup of `width` holds after `rounds` rounds with the barriers.
pub fn expected(width: u32, rounds: u32) -> Vec<u32> {
    let mut x: Vec<u32> = (0..width).collect();
    for _ in 0..rounds {
        x = (0..width as usize).map(|i| x[i].wrapping_add(x[(i + 1) % width as usize])).collect();
    }
    x
}

/// Times `workgroups` workgroups of [`WIDTH`] over `rounds` rounds, with and without the
/// barriers, and checks the run with them.
pub async fn run_cost(ctx: &GpuContext, workgroups: u32, rounds: u32) -> Result<BarrierCost, GpuError> {
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(super::kernels::BARRIER_COST, WIDTH).await?;
    let device = &ctx.device;
    let bytes = 4 * u64::from(workgroups) * u64::from(WIDTH);
    let out = storage_buffer(device, "out", bytes);
    let want = expected(WIDTH, rounds);
    let mut exact = true;
    let (mut with, mut without) = (Vec::new(), Vec::new());
    for _ in 0..TIMINGS {
        for barriers in [1, 0] {
            let uniform = uniform_words(device, &[rounds, barriers]);
            let read = dispatch_once(ctx, &pipeline, "barrier cost", &[&out, &uniform], workgroups, &[(&out, bytes)], true).await?;
            if barriers == 1 {
                let got = u32s(read.buffers.first().ok_or_else(|| GpuError::Run("nothing came back".into()))?);
                exact &= got.chunks(WIDTH as usize).all(|group| group == want.as_slice()) && got.len() == (workgroups * WIDTH) as usize;
                with.extend(read.gpu_ns);
            } else {
                without.extend(read.gpu_ns);
            }
        }
    }
    Ok(BarrierCost { workgroups, rounds, exact, with_ns: median(&mut with), without_ns: median(&mut without) })
}

/// The middle of `values` (the upper one of an even count), sorting them; `None` when empty.
pub fn median(values: &mut [f64]) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied()
}
