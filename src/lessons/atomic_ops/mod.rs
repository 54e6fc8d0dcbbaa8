//! `?lesson=atomic-ops`: every WGSL atomic on `u32` and `i32`. The reader picks the op, the
//! cell's initial value and each invocation's operand; the model and the GPU both apply it from
//! every invocation to one cell, and each returned value shows where in the order it ran.

pub mod export;
pub mod gpu;
pub mod inc_dec;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_atomic_ops.rs"));
}
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::gpu::Kernel;
use crate::model::kernel::{self, Show};
use crate::model::{IntType, Machine, RmwOp};
use crate::site::param::quote;
use std::collections::HashSet;
use std::ops::RangeInclusive;

/// This lesson's kernels, each a file under `shaders/atomic-ops/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const ATOMIC_OPS: Kernel = crate::kernel!("atomic-ops", "atomic_ops.wgsl");
    /// CUDA's atomicInc and atomicDec, which wrap at a limit, from a compare-exchange loop.
    pub const INC_DEC: Kernel = crate::kernel!("atomic-ops", "atomic_inc_dec.wgsl");

    /// Every kernel of the lesson that compiles everywhere.
    pub const ALL: &[Kernel] = &[ATOMIC_OPS, INC_DEC];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "atomic-ops",
    title: "The whole family of atomics",
    summary: "Load, store, add, sub, max, min, and, or, xor, exchange and compare-exchange on u32 and i32: pick the operands, see every returned value.",
    chapter: super::Chapter::Atomics,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<AtomicSetup>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::AtomicOpsLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("atomic-ops", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile { file: "h100-atomic-ops.json", text: measured::H100_ATOMIC_OPS, schema: Some(measured::SCHEMA) }],
};

/// Invocations the lesson runs: one per operand.
pub const THREADS: RangeInclusive<usize> = 2..=16;
const MAX_THREADS: usize = *THREADS.end();

/// One of WGSL's atomic built-ins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Load,
    Store,
    Rmw(RmwOp),
    CompareExchangeWeak,
}

impl AtomicOp {
    /// In the order of their names in links and of their codes in the kernel (`params.op`).
    pub const ALL: [AtomicOp; 11] = [
        AtomicOp::Load,
        AtomicOp::Store,
        AtomicOp::Rmw(RmwOp::Add),
        AtomicOp::Rmw(RmwOp::Sub),
        AtomicOp::Rmw(RmwOp::Max),
        AtomicOp::Rmw(RmwOp::Min),
        AtomicOp::Rmw(RmwOp::And),
        AtomicOp::Rmw(RmwOp::Or),
        AtomicOp::Rmw(RmwOp::Xor),
        AtomicOp::Rmw(RmwOp::Exchange),
        AtomicOp::CompareExchangeWeak,
    ];
    pub const NAMES: [&'static str; 11] = ["load", "store", "add", "sub", "max", "min", "and", "or", "xor", "exchange", "compare-exchange-weak"];

    /// The op's code in the kernel's `params.op`.
    pub fn code(self) -> u32 {
        Self::ALL.iter().position(|&o| o == self).unwrap_or(0) as u32
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self.code() as usize]
    }

    /// The WGSL built-in.
    pub fn function(self) -> &'static str {
        match self {
            AtomicOp::Load => "atomicLoad",
            AtomicOp::Store => "atomicStore",
            AtomicOp::Rmw(op) => op.function(),
            AtomicOp::CompareExchangeWeak => "atomicCompareExchangeWeak",
        }
    }

    /// Whether the op reads an operand, and whether it returns the old value.
    pub fn takes_operand(self) -> bool {
        self != AtomicOp::Load
    }

    pub fn returns_old(self) -> bool {
        self != AtomicOp::Store
    }

    /// Ops whose operands are best read as bits.
    pub fn is_bitwise(self) -> bool {
        matches!(self, AtomicOp::Rmw(RmwOp::And | RmwOp::Or | RmwOp::Xor))
    }
}

/// Everything the reader chooses: the op, the cell's type and starting value, the value
/// compare-exchange expects, and one operand per invocation (the first `threads` are used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtomicSetup {
    pub op: AtomicOp,
    pub ty: IntType,
    pub initial: i64,
    pub compare: i64,
    pub operands: [i64; MAX_THREADS],
}

/// Operands 1, 2, 4, 8, …: with add, the value each invocation gets back is the sum of the
/// bits of those that went before it, so it names them.
const fn powers_of_two() -> [i64; MAX_THREADS] {
    let mut a = [0i64; MAX_THREADS];
    let mut i = 0;
    while i < MAX_THREADS {
        a[i] = 1 << i;
        i += 1;
    }
    a
}

impl AtomicSetup {
    pub const DEFAULT: AtomicSetup = AtomicSetup { op: AtomicOp::Rmw(RmwOp::Add), ty: IntType::U32, initial: 0, compare: 0, operands: powers_of_two() };

    /// The same choices on a cell of type `ty`: every value keeps its 32 bits, as a
    /// `bitcast` would.
    pub fn with_type(mut self, ty: IntType) -> Self {
        self.ty = ty;
        self.initial = ty.wrap(self.initial);
        self.compare = ty.wrap(self.compare);
        for v in &mut self.operands {
            *v = ty.wrap(*v);
        }
        self
    }

    pub fn kernel() -> Kernel {
        kernels::ATOMIC_OPS
    }

    pub fn layout(self, threads: usize) -> Layout {
        Layout::new(threads)
    }

    /// The cell this setup's atomics work on: the kernel has one of each type.
    pub fn cell(self) -> usize {
        match self.ty {
            IntType::U32 => CELL,
            IntType::I32 => CELL + 1,
        }
    }

    /// The kernel itself for `threads` invocations in one workgroup: the cell of the chosen
    /// type starting at `initial`, each invocation with its operand; values of an `i32` setup
    /// written signed.
    pub fn machine(self, threads: usize) -> Machine {
        let l = self.layout(threads);
        let mut cells = vec![0u32; 2];
        cells[self.cell() - CELL] = IntType::bits(self.initial);
        let operands = self.operands[..threads.min(MAX_THREADS)].iter().map(|&v| IntType::bits(v)).collect();
        let params = vec![threads as u32, self.op.code(), u32::from(self.ty == IntType::I32), IntType::bits(self.compare)];
        let buffers = vec![((0, 0), cells), ((0, 1), operands), ((0, 2), vec![0; threads]), ((0, 3), vec![0; threads]), ((0, 4), params)];
        let setup = kernel::one_workgroup(threads, buffers);
        let signed: &'static [&'static str] = match self.ty {
            IntType::U32 => &[],
            IntType::I32 => &["cells.as_i32", "operands", "olds", "operand", "expected"],
        };
        let show = Show { memory: &["cells", "operands", "olds", "exchanged"], values: &["operand", "expected"], signed, ..Show::default() };
        debug_assert_eq!(l.size, 2 + 3 * threads);
        kernel::machine_or_empty(&crate::stepped::ATOMIC_OPS, kernels::ATOMIC_OPS.source(), &setup, show)
    }
}

/// Where the GPU runs the invocations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// All in one workgroup: lanes of one group racing on one cell.
    OneWorkgroup,
    /// Each in a workgroup of its own, free to run on different cores.
    WorkgroupEach,
}

impl Placement {
    pub fn name(self) -> &'static str {
        match self {
            Placement::OneWorkgroup => "one-workgroup",
            Placement::WorkgroupEach => "workgroup-each",
        }
    }

    /// The workgroup size and the number of workgroups for `threads` invocations.
    pub fn sizes(self, threads: u32) -> (u32, u32) {
        match self {
            Placement::OneWorkgroup => (64, 1),
            Placement::WorkgroupEach => (1, threads),
        }
    }
}

/// The kernel's two cells, `cells.as_u32` and then `cells.as_i32`: the model draws both, first.
pub const CELL: usize = 0;

/// Where the model draws each array after the two cells, as the kernel declares them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub operands: usize,
    pub olds: usize,
    pub exchanged: usize,
    pub size: usize,
}

impl Layout {
    fn new(threads: usize) -> Self {
        let operands = CELL + 2;
        Layout { operands, olds: operands + threads, exchanged: operands + 2 * threads, size: operands + 3 * threads }
    }
}

/// A 32-bit value as a reader may write it: decimal (with a sign for `i32`) or `0x` hex bits.
pub fn parse_value(name: &str, text: &str, ty: IntType) -> Result<i64, String> {
    let t = text.trim();
    let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) if !hex.is_empty() && hex.len() <= 8 => u32::from_str_radix(hex, 16).ok().map(|b| ty.from_bits(b)),
        Some(_) => None,
        None => t.parse::<i64>().ok().filter(|v| ty.range().contains(v)),
    };
    parsed.ok_or_else(|| {
        format!(
            "{name}={} was ignored: expected a {} from {} to {}, or 0x followed by up to 8 hex digits",
            quote(text),
            ty.name(),
            ty.range().start(),
            ty.range().end()
        )
    })
}

/// `operands=` as a comma-separated list of 2 to 16 values.
pub fn parse_operands(text: &str, ty: IntType) -> Result<Vec<i64>, String> {
    let parts: Vec<&str> = text.split(',').collect();
    if !THREADS.contains(&parts.len()) {
        return Err(format!("operands={} was ignored: expected {} to {} values separated by commas", quote(text), THREADS.start(), THREADS.end()));
    }
    parts
        .iter()
        .map(|p| {
            parse_value("operands", p, ty)
                .map_err(|_| format!("operands={} was ignored: {} is not a {} (decimal, or 0x and hex digits)", quote(text), quote(p), ty.name()))
        })
        .collect()
}

impl crate::site::settings::LessonVariant for AtomicSetup {
    fn try_this(self) -> &'static str {
        words::TRY
    }

    const NAMES: &'static [&'static str] = &AtomicOp::NAMES;
    const KEY: &'static str = "op";
    const DEFAULT: AtomicSetup = AtomicSetup::DEFAULT;
    const THREADS: RangeInclusive<usize> = THREADS;
    const DEFAULT_THREADS: usize = 4;
    const GPU_SIZES: bool = false;

    fn name(self) -> &'static str {
        self.op.name()
    }

    fn from_name(name: &str) -> Option<Self> {
        let i = AtomicOp::NAMES.iter().position(|n| *n == name)?;
        Some(AtomicSetup { op: AtomicOp::ALL[i], ..AtomicSetup::DEFAULT })
    }

    fn machine(self, threads: usize) -> Machine {
        AtomicSetup::machine(self, threads)
    }

    fn read_extra(&mut self, get: &dyn Fn(&str) -> Option<String>, problems: &mut Vec<String>) -> Option<usize> {
        if let Some(v) = get("type") {
            match crate::site::param::one_of("type", &v, &["u32", "i32"]) {
                Ok("i32") => *self = self.with_type(IntType::I32),
                Ok(_) => {}
                Err(e) => problems.push(e),
            }
        }
        for (key, field) in [("initial", &mut self.initial), ("compare", &mut self.compare)] {
            if let Some(v) = get(key) {
                match parse_value(key, &v, self.ty) {
                    Ok(n) => *field = n,
                    Err(e) => problems.push(e),
                }
            }
        }
        let operands = match parse_operands(&get("operands")?, self.ty) {
            Ok(o) => o,
            Err(e) => {
                problems.push(e);
                return None;
            }
        };
        self.operands[..operands.len()].copy_from_slice(&operands);
        Some(operands.len())
    }

    fn extra_pairs(&self, threads: usize) -> Vec<(&'static str, String)> {
        let operands = self.operands[..threads.min(MAX_THREADS)].iter().map(i64::to_string).collect::<Vec<_>>();
        let mut pairs = vec![("type", self.ty.name().to_owned()), ("initial", self.initial.to_string())];
        if self.op == AtomicOp::CompareExchangeWeak {
            pairs.push(("compare", self.compare.to_string()));
        }
        pairs.push(("operands", operands.join(",")));
        pairs
    }
}

pub type AtomicSettings = crate::site::settings::LessonSettings<AtomicSetup>;

/// What one dispatch left: the cell's final bits, and what each invocation got back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtomicRun {
    pub final_bits: u32,
    pub olds: Vec<u32>,
    pub exchanged: Vec<u32>,
}

/// A GPU run held against the rules: one order of the invocations, one at a time, that gives
/// exactly what the GPU returned, if there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explained {
    pub final_value: i64,
    /// Invocations in an order that explains every returned value and the final value.
    pub order: Option<Vec<usize>>,
    /// compareExchangeWeak calls that found the expected value and still did not swap.
    pub spurious: usize,
}

/// Looks for a one-at-a-time order of the `run`'s invocations that returns exactly what they
/// got and leaves exactly the final value. Atomics promise that one exists.
pub fn explain(setup: AtomicSetup, run: &AtomicRun) -> Explained {
    let ty = setup.ty;
    let k = run.olds.len().min(MAX_THREADS);
    let old = |i: usize| ty.from_bits(run.olds[i]);
    let swapped = |i: usize| run.exchanged.get(i).is_some_and(|&e| e != 0);
    let final_value = ty.from_bits(run.final_bits);
    // The value after invocation `i` runs on `value`, or None if `i` could not have seen it.
    let next = |i: usize, value: i64| -> Option<i64> {
        let operand = setup.operands[i];
        match setup.op {
            AtomicOp::Load => (old(i) == value).then_some(value),
            AtomicOp::Store => Some(operand),
            AtomicOp::Rmw(op) => (old(i) == value).then(|| op.apply(ty, value, operand)),
            AtomicOp::CompareExchangeWeak if old(i) != value => None,
            AtomicOp::CompareExchangeWeak if swapped(i) => (value == setup.compare).then_some(operand),
            // A weak exchange may fail even when it finds what it expects: the cell is unchanged.
            AtomicOp::CompareExchangeWeak => Some(value),
        }
    };
    let mut dead_ends = HashSet::new();
    let mut order = Vec::with_capacity(k);
    let found = search(k, 0, setup.initial, final_value, &next, &mut order, &mut dead_ends);
    let spurious = match setup.op {
        AtomicOp::CompareExchangeWeak => (0..k).filter(|&i| !swapped(i) && old(i) == setup.compare).count(),
        _ => 0,
    };
    Explained { final_value, order: found.then_some(order), spurious }
}

/// Depth-first over orders, remembering (who has run, cell value) states that lead nowhere,
/// so even 16 invocations take at most 2¹⁶ states per value.
fn search(
    k: usize,
    done: u32,
    value: i64,
    final_value: i64,
    next: &dyn Fn(usize, i64) -> Option<i64>,
    order: &mut Vec<usize>,
    dead_ends: &mut HashSet<u64>,
) -> bool {
    if order.len() == k {
        return value == final_value;
    }
    // Values are 32-bit: who has run and the value's bits fit one key.
    let state = u64::from(done) << 32 | u64::from(IntType::bits(value));
    if dead_ends.contains(&state) {
        return false;
    }
    for i in (0..k).filter(|i| done & (1 << i) == 0) {
        if let Some(v) = next(i, value) {
            order.push(i);
            if search(k, done | (1 << i), v, final_value, next, order, dead_ends) {
                return true;
            }
            order.pop();
        }
    }
    dead_ends.insert(state);
    false
}

/// The same invocations applied one at a time in `order` on the CPU: the run a GPU would give
/// had it served them in that order (no spurious failures).
pub fn serial_run(setup: AtomicSetup, threads: usize, order: &[usize]) -> AtomicRun {
    let ty = setup.ty;
    let mut value = setup.initial;
    let mut olds = vec![0u32; threads];
    let mut exchanged = vec![0u32; threads];
    for &i in order {
        let operand = setup.operands[i];
        if setup.op.returns_old() {
            olds[i] = IntType::bits(value);
        }
        value = match setup.op {
            AtomicOp::Load => value,
            AtomicOp::Store => operand,
            AtomicOp::Rmw(op) => op.apply(ty, value, operand),
            AtomicOp::CompareExchangeWeak if value == setup.compare => {
                exchanged[i] = 1;
                operand
            }
            AtomicOp::CompareExchangeWeak => value,
        };
    }
    AtomicRun { final_bits: IntType::bits(value), olds, exchanged }
}

/// Many runs of the same setup summed up: where the cell ended and how often, how many
/// different sets of returned values, and how many runs no serial order explains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    /// `(final value, runs that ended there)`, most frequent first.
    pub finals: Vec<(i64, u32)>,
    pub distinct_returns: usize,
    pub unexplained: usize,
    pub spurious: usize,
}

pub fn tally(setup: AtomicSetup, runs: &[AtomicRun]) -> Tally {
    let mut finals = std::collections::BTreeMap::new();
    let mut returns = HashSet::new();
    let (mut unexplained, mut spurious) = (0, 0);
    for run in runs {
        let e = explain(setup, run);
        *finals.entry(e.final_value).or_insert(0u32) += 1;
        returns.insert([&run.olds[..], &run.exchanged[..]].concat());
        unexplained += usize::from(e.order.is_none());
        spurious += e.spurious;
    }
    let mut finals: Vec<(i64, u32)> = finals.into_iter().collect();
    finals.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    Tally { finals, distinct_returns: returns.len(), unexplained, spurious }
}

/// A value as the page shows it: decimal, with the bits in hex where the op works on bits.
pub fn show(setup: AtomicSetup, value: i64) -> String {
    if setup.op.is_bitwise() {
        format!("{value} ({:#010x})", IntType::bits(value))
    } else {
        value.to_string()
    }
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(crate::model::Program, Kernel)> {
    vec![(AtomicSetup::DEFAULT.machine(3).program().as_ref().clone(), AtomicSetup::kernel())]
}
