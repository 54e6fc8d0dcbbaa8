//! CUDA's `atomicInc` and `atomicDec`, which wrap around at a limit, built in WGSL from a
//! compare-exchange loop. Every invocation applies the same step, so the old values it returns
//! are, in some order, the first steps of the cell's walk: 0, 1, … limit, 0, 1 … for the
//! increment from 0. The page runs both and checks exactly that.

use crate::gpu::buffers::{storage_buffer, storage_buffer_with, uniform_words};
use crate::gpu::dispatch::dispatch_once;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};

/// CUDA's `atomicInc` step: `old + 1`, or 0 once `old` has reached `limit`.
pub fn increment(old: u32, limit: u32) -> u32 {
    if old >= limit {
        0
    } else {
        old + 1
    }
}

/// CUDA's `atomicDec` step: `old - 1`, or `limit` where `old` is 0 or past it.
pub fn decrement(old: u32, limit: u32) -> u32 {
    if old == 0 || old > limit {
        limit
    } else {
        old - 1
    }
}

/// Which of the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrap {
    Increment,
    Decrement,
}

impl Wrap {
    pub const BOTH: [Wrap; 2] = [Wrap::Increment, Wrap::Decrement];

    pub fn step(self, old: u32, limit: u32) -> u32 {
        match self {
            Wrap::Increment => increment(old, limit),
            Wrap::Decrement => decrement(old, limit),
        }
    }

    /// CUDA's name for it.
    pub fn cuda(self) -> &'static str {
        match self {
            Wrap::Increment => "atomicInc",
            Wrap::Decrement => "atomicDec",
        }
    }
}

/// The page's runs: 1,000 invocations, the cell from 0, wrapping at 9 (ten values).
pub const INVOCATIONS: u32 = 1000;
pub const LIMIT: u32 = 9;

/// The first `n` values of the cell's walk from `start`: what the old values must be, as a
/// multiset, and the walk's next value, where the cell must end.
pub fn walk(way: Wrap, start: u32, limit: u32, n: u32) -> (Vec<u32>, u32) {
    let mut cell = start;
    let olds = (0..n)
        .map(|_| {
            let old = cell;
            cell = way.step(old, limit);
            old
        })
        .collect();
    (olds, cell)
}

/// One run of `way` on the GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrapRun {
    pub way: Wrap,
    pub final_value: u32,
    pub olds: Vec<u32>,
    pub gave_up: u32,
}

impl WrapRun {
    /// Every old value the walk's, each as often, and the cell where the walk ends.
    pub fn promise_held(&self, start: u32, limit: u32) -> bool {
        let (mut want, end) = walk(self.way, start, limit, self.olds.len() as u32);
        let mut got = self.olds.clone();
        want.sort_unstable();
        got.sort_unstable();
        got == want && self.final_value == end && self.gave_up == 0
    }

    /// How many invocations got each value back, from 0 to `limit`.
    pub fn counts(&self, limit: u32) -> Vec<u32> {
        let mut c = vec![0; limit as usize + 1];
        for &o in &self.olds {
            if let Some(slot) = c.get_mut(o as usize) {
                *slot += 1;
            }
        }
        c
    }
}

/// Runs `way` from `invocations` invocations in workgroups of 64, the cell from `start`.
pub async fn run_wrap(ctx: &GpuContext, way: Wrap, invocations: u32, start: u32, limit: u32) -> Result<WrapRun, GpuError> {
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(super::kernels::INC_DEC, 64).await?;
    let device = &ctx.device;
    let cell = storage_buffer_with(device, "cell", &start.to_le_bytes());
    let bytes = 4 * u64::from(invocations.max(1));
    let olds = storage_buffer(device, "olds", bytes);
    let gave_up = storage_buffer(device, "gave_up", 4);
    let uniform = uniform_words(device, &[invocations, u32::from(way == Wrap::Decrement), limit]);
    let read = dispatch_once(ctx, &pipeline, "inc dec", &[&cell, &olds, &gave_up, &uniform], invocations.div_ceil(64), &[(&cell, 4), (&olds, bytes), (&gave_up, 4)], false).await?;
    let [cell, olds, gave_up] = &read.buffers[..] else {
        return Err(GpuError::Run("the read-back came back short".into()));
    };
    Ok(WrapRun { way, final_value: u32s(cell)[0], olds: u32s(olds)[..invocations as usize].to_vec(), gave_up: u32s(gave_up)[0] })
}
