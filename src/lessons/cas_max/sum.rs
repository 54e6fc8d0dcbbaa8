//! A float `atomicAdd` from compare-exchange: the maximum's retry loop with a sum in place of
//! the test. Float addition rounds, so the total depends on the order the additions were
//! served: input 0 is 16,777,216.0 (2^24), every other input 1.0, and a one added after the
//! large value rounds away while ones added before it count.

use crate::gpu::buffers::{params_buffer, per_invocation_bytes, storage_buffer, storage_buffer_with};
use crate::gpu::dispatch::dispatch_once;
use crate::gpu::params::GpuParams;
use crate::gpu::readback::u32s;
use crate::gpu::{GpuContext, GpuError};
use crate::model::{bits_of, Instr, Line, Machine, Program};
use std::sync::Arc;

/// The cell that holds the total (an f32's bits), then the inputs, then each thread's retries.
pub const TOTAL: usize = 0;
pub const INPUT: usize = 1;
/// Registers.
pub const VALUE: usize = 0;
pub const OLD: usize = 1;
pub const SUM: usize = 2;
pub const EXCHANGED: usize = 3;
pub const RETRIES: usize = 4;

/// Most invocations the float sum runs. Every addition must land, one at a time on one word,
/// and each landing fails every other invocation's try: the work grows with the square of the
/// invocations (a million took an H100 minutes).
pub const MAX_INVOCATIONS: u32 = 65_536;

/// The large input: 2^24, where the gap between neighbouring f32s grows to 2.
pub const LARGE: f32 = 16_777_216.0;

/// Input `i`, the same in the model and on the GPU.
pub fn value(i: u32) -> f32 {
    if i == 0 {
        LARGE
    } else {
        1.0
    }
}

pub fn program(threads: usize) -> Program {
    let retries = INPUT + threads;
    let mut memory_names = vec!["total".to_owned()];
    memory_names.extend((0..threads).map(|t| format!("input[{t}]")));
    memory_names.extend((0..threads).map(|t| format!("retries[{t}]")));
    let (add, done) = (2, 7);
    Program {
        lines: vec![
            Line { instr: Instr::LoadOwn { array: "input", base: INPUT, reg: VALUE }, marker: "load-value" },
            Line { instr: Instr::Load { reg: OLD, addr: TOTAL }, marker: "load-old" },
            Line { instr: Instr::AddFloat { reg: SUM, a: OLD, b: VALUE }, marker: "add" },
            Line { instr: Instr::CompareExchange { addr: TOTAL, expected: OLD, desired: SUM, old: OLD, exchanged: EXCHANGED }, marker: "cas" },
            Line { instr: Instr::BranchIfNonZero { reg: EXCHANGED, target: done }, marker: "exchanged" },
            Line { instr: Instr::AddImm { reg: RETRIES, imm: 1 }, marker: "retry" },
            Line { instr: Instr::Jump { target: add }, marker: "continue" },
            Line { instr: Instr::StoreOwn { array: "retries", base: retries, reg: RETRIES }, marker: "record" },
        ],
        memory_names,
        register_names: vec!["value", "old", "sum", "exchanged", "retries"],
        grids: Vec::new(),
        workgroup: &[],
        floats: &["value", "old", "sum", "total", "input"],
        packed: &[],
        masks: &[],
        mask_lanes: 0,
        spans: Vec::new(), lowered: None,
    }
}

pub fn machine(threads: usize) -> Machine {
    let mut memory = vec![0i64; INPUT + 2 * threads];
    memory[TOTAL] = bits_of(0.0);
    for t in 0..threads {
        memory[INPUT + t] = bits_of(value(t as u32));
    }
    Machine::new(Arc::new(program(threads)), threads, memory)
}

/// The total after the large input is added after `ones_before` of the `n - 1` ones (the rest
/// after it), each addition rounded as an f32's: every total a run of `n` inputs can end at.
pub fn total_with(n: u32, ones_before: u32) -> f32 {
    let mut total = 0.0f32;
    for _ in 0..ones_before {
        total += 1.0;
    }
    total += LARGE;
    for _ in ones_before..n.saturating_sub(1) {
        total += 1.0;
    }
    total
}

/// What a GPU run of the float sum left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumRun {
    pub total_bits: u32,
    /// The total each invocation's own addition replaced (its bits).
    pub replaced: Vec<u32>,
    pub retries: Vec<u32>,
    pub gave_up: u32,
}

/// A float sum's run against what compare-exchange promises.
#[derive(Clone, Debug, PartialEq)]
pub struct SumCheck {
    pub total: f32,
    /// Every addition replaced a total that some addition left (or the first 0.0), each left
    /// total replaced once, and the last is the total: one chain, in the order served.
    pub one_chain: bool,
    /// Ones the GPU added before the large value: those whose addition replaced a total below it.
    pub ones_before: u32,
    /// The chain's total with that many ones first, as the CPU rounds it: equal to `total`
    /// wherever the chain holds.
    pub replayed: f32,
    /// The totals in input order (large value first) and with every one first.
    pub input_order: f32,
    pub ones_first: f32,
    /// The sum without rounding.
    pub exact: f64,
    pub total_retries: u64,
}

pub fn check(n: u32, run: &SumRun) -> SumCheck {
    // Each addition turns the total it replaced into that plus its value: as multisets, the
    // totals replaced with the final one are the totals left with the first 0.0.
    let mut replaced: Vec<u32> = run.replaced.clone();
    replaced.push(run.total_bits);
    let mut left: Vec<u32> = run.replaced.iter().enumerate().map(|(i, &old)| (f32::from_bits(old) + value(i as u32)).to_bits()).collect();
    left.push(0.0f32.to_bits());
    replaced.sort_unstable();
    left.sort_unstable();
    let ones_before = run.replaced.iter().skip(1).filter(|&&old| f32::from_bits(old) < LARGE).count() as u32;
    SumCheck {
        total: f32::from_bits(run.total_bits),
        one_chain: replaced == left && run.replaced.len() == n as usize,
        ones_before,
        replayed: total_with(n, ones_before),
        input_order: total_with(n, 0),
        ones_first: total_with(n, n.saturating_sub(1)),
        exact: f64::from(LARGE) + f64::from(n.saturating_sub(1)),
        total_retries: run.retries.iter().map(|&r| u64::from(r)).sum(),
    }
}

impl SumCheck {
    /// What compare-exchange promises held: one chain, ending where its order says.
    pub fn promise_held(&self, gave_up: u32) -> bool {
        self.one_chain && self.total.to_bits() == self.replayed.to_bits() && gave_up == 0
    }
}

pub async fn run_sum(ctx: &GpuContext, params: GpuParams) -> Result<SumRun, GpuError> {
    if params.invocations > MAX_INVOCATIONS {
        return Err(GpuError::BadParams(format!(
            "the float sum runs at most {MAX_INVOCATIONS} invocations, not {}: every addition lands one at a time on one word, and each landing makes every other invocation try again",
            params.invocations
        )));
    }
    let bytes = per_invocation_bytes(ctx, params.invocations)?;
    ctx.check_alive()?;
    let pipeline = ctx.pipeline(super::kernels::CAS_ADD, params.workgroup_size).await?;
    let device = &ctx.device;
    let total = storage_buffer_with(device, "total", &0.0f32.to_bits().to_le_bytes());
    let values: Vec<u8> = (0..params.invocations).flat_map(|i| value(i).to_le_bytes()).collect();
    let input = storage_buffer_with(device, "input", &values);
    let retries = storage_buffer(device, "retries", bytes);
    let replaced = storage_buffer(device, "replaced", bytes);
    let gave_up = storage_buffer(device, "gave_up", 4);
    let uniform = params_buffer(device, params.invocations);
    let read = dispatch_once(
        ctx,
        &pipeline,
        "cas add",
        &[&total, &input, &retries, &replaced, &gave_up, &uniform],
        params.workgroups(),
        &[(&total, 4), (&retries, bytes), (&replaced, bytes), (&gave_up, 4)],
        false,
    )
    .await?;
    let [total, retries, replaced, gave_up] = &read.buffers[..] else {
        return Err(GpuError::Run("the read-back came back short".into()));
    };
    Ok(SumRun { total_bits: u32s(total)[0], replaced: u32s(replaced), retries: u32s(retries), gave_up: u32s(gave_up)[0] })
}
