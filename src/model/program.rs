//! Programs for the model: a handful of instructions that map one-to-one onto lines of a
//! real WGSL kernel, so that the line the model is on can be highlighted in the shader.

use super::atomics::{IntType, RmwOp};

/// A memory cell of the model (an index into [`crate::model::Machine::memory`]).
pub type Addr = usize;
/// A register of one thread (an index into [`crate::model::ThreadState::regs`]).
pub type Reg = usize;

/// One instruction of a model thread.
///
/// These are the steps a GPU really takes for the lessons' kernels: `counter++` is three of
/// them (load, add, store), an `atomicAdd` is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instr {
    /// `reg = memory[addr]` — a plain (or relaxed atomic) load.
    Load { reg: Reg, addr: Addr },
    /// `reg = reg + imm` — private arithmetic; no other thread can see it.
    AddImm { reg: Reg, imm: i64 },
    /// `reg = atomicAdd(&memory[addr], imm)` — one indivisible read-modify-write that
    /// returns the value it replaced.
    AtomicAdd { reg: Reg, addr: Addr, imm: i64 },
    /// `array[id] = reg` — each thread writes its own cell of an array that starts at
    /// `base`: thread `t` writes `memory[base + t]`. No two threads share a cell.
    StoreOwn { array: &'static str, base: Addr, reg: Reg },
    /// `reg = array[id]` — each thread reads its own cell of an array that starts at `base`.
    LoadOwn { array: &'static str, base: Addr, reg: Reg },
    /// `array[index] = value` — a store to the cell a register names (`base + index`).
    StoreAt { array: &'static str, base: Addr, index: Reg, reg: Reg },
    /// `if !above(a, b) { go to target }` — a loop's exit test on two registers holding an
    /// f32's bits each: [`above`] compares them as floats, as the kernel does after `bitcast`.
    BranchUnlessAbove { a: Reg, b: Reg, target: usize },
    /// `if reg != 0 { go to target }`.
    BranchIfNonZero { reg: Reg, target: usize },
    /// `go to target` — the way back to the top of a loop.
    Jump { target: usize },
    /// `r = atomicCompareExchangeWeak(&memory[addr], expected, desired)`: when the cell holds
    /// `expected` it becomes `desired`; either way `old` receives what the cell held and
    /// `exchanged` 1 or 0. The model never fails spuriously (a GPU's weak exchange may).
    CompareExchange { addr: Addr, expected: Reg, desired: Reg, old: Reg, exchanged: Reg },
    /// `workgroupBarrier()` — nobody leaves until every thread has arrived.
    Barrier,
    /// `old = atomicOp(&memory[addr], operand)` for any of WGSL's read-modify-write atomics on
    /// a cell of type `ty`: one indivisible step that returns the value it replaced.
    AtomicRmw { op: RmwOp, ty: IntType, addr: Addr, operand: Reg, old: Reg },
    /// `if reg < limit { go to target }` — a bounded loop's test.
    BranchIfBelow { reg: Reg, limit: i64, target: usize },
    /// `atomicStore(&memory[addr], value)` with a constant — releasing a lock, say.
    StoreImm { addr: Addr, value: i64 },
    /// `reg = id + add` — a value each thread computes from its own index.
    FromId { reg: Reg, add: i64 },
    /// `reg = array[(id + 1) % n]` — each thread reads its right-hand neighbour's cell of an
    /// array of one cell per thread that starts at `base`.
    LoadNeighbour { array: &'static str, base: Addr, reg: Reg },
    /// `reg = value` — a constant, such as a loop's first stride.
    SetImm { reg: Reg, value: i64 },
    /// `if reg == 0 { break; }` — a loop's exit test.
    BranchIfZero { reg: Reg, target: usize },
    /// `if a != b { break; }` — a wait's exit once a value has moved on.
    BreakIfDiffers { a: Reg, b: Reg, target: usize },
    /// `if reg >= limit { … }`: below the limit the block is skipped, to `end`.
    IfAtLeast { reg: Reg, limit: i64, end: usize },
    /// `reg = from + imm` — a register computed from another, such as the value a
    /// compare-exchange should leave (`want = seen - 1`).
    Offset { reg: Reg, from: Reg, imm: i64 },
    /// `reg = reg + other` — private arithmetic on two registers.
    AddReg { reg: Reg, other: Reg },
    /// `reg = reg / 2` — halving, as a stride does.
    HalveReg { reg: Reg },
    /// `reg = array[index]` — a load from the cell a register names (`base + index`).
    LoadAt { array: &'static str, base: Addr, index: Reg, reg: Reg },
    /// `if reg >= limit { break; }` — a loop's exit test against a constant, such as the
    /// workgroup's width.
    BreakIfAtLeast { reg: Reg, limit: i64, target: usize },
    /// `if id >= reg { … }`: threads below the register's value go to `end`.
    IfIdAtLeastReg { reg: Reg, end: usize },
    /// `reg = array[id - offset]` — the cell `offset` places before the thread's own.
    LoadOwnMinus { array: &'static str, base: Addr, offset: Reg, reg: Reg },
    /// `reg = reg * 2` — doubling, as a scan's offset does.
    DoubleReg { reg: Reg },
    /// `if (id + 1) % (2 * d) == 0 { … }` with `d` in `reg`: only the thread at the end of
    /// each block of `2d` goes on; the others go to `end` (a work-efficient scan's up-sweep).
    IfIdEndsBlock { reg: Reg, end: usize },
    /// `if id >= d && (id + 1) % (2 * d) == d { … }` with `d` in `reg`: only the thread `d`
    /// past the end of a block goes on, the others go to `end` (the down-sweep).
    IfIdMidBlock { reg: Reg, end: usize },
    /// `atomicMax(&array[index], pack(state, value))`: a state and a value posted in one word
    /// (see [`pack`]). The state sits above the value, so the larger word is the later state and
    /// a post never undoes a later one.
    Post { array: &'static str, base: Addr, index: Reg, state: i64, value: Reg },
    /// `if state(flag) == state { go to target }` — a test of a word [`Instr::Post`] wrote.
    BranchIfState { reg: Reg, state: i64, target: usize },
    /// `reg = reg + value(flag)` — the value a posted word carries, added.
    AddPosted { reg: Reg, flag: Reg },
    /// `if is_nan(reg) { go to target }` on a register holding an f32's bits: all exponent bits
    /// set and a fraction, read from the bits as the kernel does.
    BranchIfNan { reg: Reg, target: usize },
    /// `reg = a + b` on two registers holding an f32's bits each, rounded as an f32 addition
    /// is: the kernel adds after `bitcast`.
    AddFloat { reg: Reg, a: Reg, b: Reg },
}

/// The bits under a posted word's state: its value. The single-pass scan packs its tiles'
/// states the same way, 16 bits of value under the state.
pub const STATE_SHIFT: u32 = 16;

/// What [`Instr::Post`] writes: `state` above `value`'s low bits.
pub fn pack(state: i64, value: i64) -> i64 {
    (state << STATE_SHIFT) | (value & ((1 << STATE_SHIFT) - 1))
}

/// A posted word's state and value.
pub fn unpack(word: i64) -> (i64, i64) {
    (word >> STATE_SHIFT, word & ((1 << STATE_SHIFT) - 1))
}

/// The states a posted word moves through, in order (a later one is a larger word), with the
/// names the kernel gives them.
pub const NOT_READY: i64 = 0;
pub const AGGREGATE: i64 = 1;
pub const INCLUSIVE: i64 = 2;
pub const POSTED_STATES: [&str; 3] = ["NOT_READY", "AGGREGATE", "INCLUSIVE"];

/// A posted word as the site writes it: "—" before anything is posted, then the tile's own
/// sum ("sum 14"), then its inclusive prefix ("incl 23").
pub fn posted_text(word: i64) -> String {
    match unpack(word) {
        (NOT_READY, _) => "—".to_owned(),
        (AGGREGATE, v) => format!("sum {v}"),
        (INCLUSIVE, v) => format!("incl {v}"),
        (s, v) => format!("{s}:{v}"),
    }
}

/// Cells of memory the UI draws as a matrix: `rows × cols` of them from `start`, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryGrid {
    pub name: &'static str,
    pub start: Addr,
    pub rows: usize,
    pub cols: usize,
}

/// An instruction together with the marker that finds its line in the kernel source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub instr: Instr,
    /// Text that appears in exactly one line of the kernel (as a `// step: <marker>` comment).
    pub marker: &'static str,
}

/// The program every thread of the model runs (SIMT: one program, many threads), plus the
/// names of the memory cells and registers so the UI and narration can speak of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub lines: Vec<Line>,
    /// One name per memory cell, e.g. `counter` or `tickets[3]`.
    pub memory_names: Vec<String>,
    pub register_names: Vec<&'static str>,
    /// Runs of cells better drawn as matrices than one by one; the rest are drawn as cells.
    pub grids: Vec<MemoryGrid>,
    /// The arrays (or single variables) its kernel declares `var<workgroup>`, by name: shared
    /// by one workgroup's invocations. Every other cell is in a storage buffer.
    pub workgroup: &'static [&'static str],
    /// The registers and arrays (by name) that hold an f32's bits rather than an integer:
    /// written as floats wherever the site shows them, so that −0.0 and +0.0 differ.
    pub floats: &'static [&'static str],
    /// The registers and arrays (by name) that hold a state and a value in one word (see
    /// [`pack`]): written as the state's word and the value.
    pub packed: &'static [&'static str],
    /// Registers that hold one bit per lane (a ballot's mask), written as that many binary
    /// digits, lane 0 first (see [`super::machine::mask_text`]).
    pub masks: &'static [&'static str],
    /// The lanes a mask register shows: the subgroup's size, or fewer when the model has fewer
    /// threads than that.
    pub mask_lanes: usize,
    /// Named runs of lines: a thread standing on one of them is said to be in that state, and
    /// the scene marks its lane so ("inside" a semaphore's critical section, "waiting" in a
    /// hand-built wait).
    pub spans: Vec<Span>,
    /// For a model that steps a kernel's own WGSL, the lowered kernel and how the model shows it
    /// (see [`super::lowered`]); `None` for a hand-written program of [`Line`]s.
    pub lowered: Option<std::sync::Arc<super::lowered::Lowered>>,
}

/// A named run of a program's lines (see [`Program::spans`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub name: &'static str,
    pub lines: std::ops::Range<usize>,
}

impl Span {
    /// The lines from the one marked `first` through the one marked `last`, named `name`.
    pub fn between(lines: &[Line], name: &'static str, first: &str, last: &str) -> Option<Span> {
        let at = |marker: &str| lines.iter().position(|l| l.marker == marker);
        Some(Span { name, lines: at(first)?..at(last)? + 1 })
    }

    /// Each run of consecutive lines marked `marker`, named `name`: a step the kernel takes in
    /// one line and the model in several, wherever the program takes it.
    pub fn runs(lines: &[Line], name: &'static str, marker: &str) -> Vec<Span> {
        let mut out: Vec<Span> = Vec::new();
        for (i, _) in lines.iter().enumerate().filter(|(_, l)| l.marker == marker) {
            match out.last_mut() {
                Some(span) if span.lines.end == i => span.lines.end = i + 1,
                _ => out.push(Span { name, lines: i..i + 1 }),
            }
        }
        out
    }
}

/// `a` above `b`: greater in value, or +0.0 over −0.0 (IEEE calls them equal; a maximum should
/// still pick +0.0, so that its answer's bits do not depend on the order of arrival).
pub fn above(a: f32, b: f32) -> bool {
    a > b || (a == b && a.to_bits() == 0 && b.to_bits() == 0x8000_0000)
}

/// The f32 whose bits a model value holds (the low 32 bits).
pub fn f32_of(value: i64) -> f32 {
    f32::from_bits(value as u32)
}

/// A model value holding `x`'s bits.
pub fn bits_of(x: f32) -> i64 {
    i64::from(x.to_bits())
}

/// An f32 as the site writes it: `-0.0` keeps its sign, whole numbers keep a `.0`, infinities
/// are `∞`, `−∞`; the fraction in full up to nine digits (the model's values are sixteenths),
/// then cut.
///
/// By hand rather than with `{:?}`: Rust's float formatting would add several KB to every
/// page's wasm for the one lesson whose model holds floats.
pub fn float_text(x: f32) -> String {
    if x.is_nan() {
        return "NaN".to_owned();
    }
    if x.is_infinite() {
        return if x > 0.0 { "∞".to_owned() } else { "−∞".to_owned() };
    }
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    let x = f64::from(x.abs());
    let whole = x.trunc();
    out.push_str(&(whole as u64).to_string());
    out.push('.');
    // Every f32 is a sum of powers of two, so its fraction times ten, digit by digit, stays
    // exact in an f64 for as many digits as are shown here.
    let mut fraction = x - whole;
    let mut digits = 0;
    loop {
        fraction *= 10.0;
        let digit = fraction.trunc();
        out.push(char::from(b'0' + digit as u8));
        fraction -= digit;
        digits += 1;
        if fraction == 0.0 || digits == 9 {
            break;
        }
    }
    out
}

/// A ballot's mask as the site writes it everywhere (a lane's register, the narration, the
/// subgroups picture): one digit per lane, lane 0 first, so the digits read in the order the
/// lanes are drawn (lanes 0, 1 and 3 of four: `1101`). A GPU's integer holds lane 0 in its
/// lowest bit, so the same mask printed as a number reads the other way round. By hand rather
/// than with `{:b}`, whose formatting code every page would carry.
pub fn mask_text(value: i64, lanes: usize) -> String {
    (0..lanes).map(|lane| if lane < 63 && value & (1i64 << lane) != 0 { '1' } else { '0' }).collect()
}

/// Where a cell lives, as the kernel declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Space {
    /// A storage buffer: every invocation of the dispatch sees it, and it is read back.
    Storage,
    /// Workgroup memory: one copy per workgroup, gone when the workgroup ends.
    Workgroup,
}

impl Space {
    pub fn caption(self) -> &'static str {
        match self {
            Space::Storage => "storage buffer",
            Space::Workgroup => "workgroup memory",
        }
    }
}

impl Program {
    /// Instructions in all: a thread at this index or past it is done.
    pub fn len(&self) -> usize {
        self.lowered.as_ref().map_or(self.lines.len(), |l| l.kernel.instrs.len())
    }

    /// The array (or variable) cell `a` belongs to: its name up to the first `[`.
    pub fn array_of(&self, a: Addr) -> &str {
        self.memory_names.get(a).map_or("", |n| n.split('[').next().unwrap_or(n))
    }

    pub fn space(&self, a: Addr) -> Space {
        if let Some(lowered) = &self.lowered {
            return match lowered.cells.get(a).and_then(|c| lowered.kernel.vars.get(c.var as usize)) {
                Some(v) if v.space == stepper::ir::Space::Workgroup => Space::Workgroup,
                _ => Space::Storage,
            };
        }
        if self.workgroup.contains(&self.array_of(a)) {
            Space::Workgroup
        } else {
            Space::Storage
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Register `r`'s value as the site writes it.
    pub fn register_text(&self, r: Reg, value: i64) -> String {
        let name = self.register_names.get(r);
        if name.is_some_and(|n| self.is_signed(n)) {
            return (value as u32 as i32).to_string();
        }
        if name.is_some_and(|n| self.floats.contains(n)) {
            float_text(f32_of(value))
        } else if name.is_some_and(|n| self.packed.contains(n)) {
            posted_text(value)
        } else if name.is_some_and(|n| self.masks.contains(n)) {
            mask_text(value, self.mask_lanes)
        } else {
            value.to_string()
        }
    }

    /// Cell `a`'s value as the site writes it.
    pub fn cell_text(&self, a: Addr, value: i64) -> String {
        if self.is_signed(self.array_of(a)) {
            return (value as u32 as i32).to_string();
        }
        if self.floats.contains(&self.array_of(a)) {
            float_text(f32_of(value))
        } else if self.packed.contains(&self.array_of(a)) {
            posted_text(value)
        } else {
            value.to_string()
        }
    }

    /// Whether the value or variable `name` holds an i32's bits in a model that keeps words (a
    /// kernel's own program; a hand-written one keeps signed values as they are).
    fn is_signed(&self, name: &str) -> bool {
        self.lowered.as_ref().is_some_and(|l| l.signed.contains(&name))
    }

    /// For a cell holding a posted word, its state as a class name ("posted-aggregate",
    /// "posted-inclusive"); `None` for every other cell and for a word not yet posted.
    pub fn cell_tone(&self, a: Addr, value: i64) -> Option<&'static str> {
        if !self.packed.contains(&self.array_of(a)) {
            return None;
        }
        match unpack(value).0 {
            AGGREGATE => Some("posted-aggregate"),
            INCLUSIVE => Some("posted-inclusive"),
            _ => None,
        }
    }

    /// The hand-written instruction at `pc` written the way the kernel writes it (see
    /// [`super::Machine::describe`], which asks the machine's engine).
    pub(super) fn hand_text(&self, pc: usize) -> String {
        let Some(line) = self.lines.get(pc) else { return "done".into() };
        let cell = |a: Addr| self.memory_names.get(a).map_or("memory", String::as_str);
        let reg = |r: Reg| self.register_names.get(r).copied().unwrap_or("r");
        match line.instr {
            Instr::Load { reg: r, addr } => format!("{} = atomicLoad(&{})", reg(r), cell(addr)),
            Instr::AddImm { reg: r, imm } => format!("{0} = {0} + {imm}", reg(r)),
            Instr::AtomicAdd { reg: r, addr, imm } => {
                format!("{} = atomicAdd(&{}, {imm})", reg(r), cell(addr))
            }
            Instr::StoreOwn { array, reg: r, .. } => format!("{array}[id] = {}", reg(r)),
            Instr::LoadOwn { array, reg: r, .. } => format!("{} = {array}[id]", reg(r)),
            Instr::StoreAt { array, index, reg: r, .. } => format!("{array}[{}] = {}", reg(index), reg(r)),
            Instr::BranchUnlessAbove { a, b, .. } => format!("if !above({}, {}) {{ break; }}", reg(a), reg(b)),
            Instr::BranchIfNonZero { reg: r, .. } => format!("if {} {{ break; }}", reg(r)),
            // A jump past the last line leaves the kernel; any other goes back up a loop.
            Instr::Jump { target } if target >= self.lines.len() => "return".into(),
            Instr::Jump { .. } => "continue".into(),
            Instr::CompareExchange { addr, expected, desired, old, exchanged } => {
                format!("({}, {}) = atomicCompareExchangeWeak(&{}, {}, {})", reg(old), reg(exchanged), cell(addr), reg(expected), reg(desired))
            }
            Instr::Barrier => "workgroupBarrier()".into(),
            Instr::AtomicRmw { op, addr, operand, old, .. } => {
                format!("{} = {}(&{}, {})", reg(old), op.function(), cell(addr), reg(operand))
            }
            Instr::BranchIfBelow { reg: r, limit, .. } => format!("if {} < {limit} {{ continue; }}", reg(r)),
            Instr::StoreImm { addr, value } => format!("atomicStore(&{}, {value})", cell(addr)),
            Instr::SetImm { reg: r, value } => format!("{} = {value}", reg(r)),
            Instr::BreakIfDiffers { a, b, .. } => format!("if {} != {} {{ break; }}", reg(a), reg(b)),
            Instr::IfAtLeast { reg: r, limit, .. } => format!("if {} >= {limit} {{", reg(r)),
            Instr::Offset { reg: r, from, imm } if imm < 0 => format!("{} = {} - {}", reg(r), reg(from), imm.unsigned_abs()),
            Instr::Offset { reg: r, from, imm } => format!("{} = {} + {imm}", reg(r), reg(from)),
            Instr::BranchIfZero { reg: r, .. } => format!("if {} == 0 {{ break; }}", reg(r)),
            Instr::AddReg { reg: r, other } => format!("{0} = {0} + {1}", reg(r), reg(other)),
            Instr::HalveReg { reg: r } => format!("{0} = {0} / 2", reg(r)),
            Instr::LoadAt { array, index, reg: r, .. } => format!("{} = {array}[{}]", reg(r), reg(index)),
            Instr::FromId { reg: r, add: 0 } => format!("{} = id", reg(r)),
            Instr::FromId { reg: r, add } => format!("{} = id + {add}", reg(r)),
            Instr::BreakIfAtLeast { reg: r, limit, .. } => format!("if {} >= {limit} {{ break; }}", reg(r)),
            Instr::IfIdAtLeastReg { reg: r, .. } => format!("if id >= {} {{", reg(r)),
            Instr::LoadOwnMinus { array, offset, reg: r, .. } => format!("{} = {array}[id - {}]", reg(r), reg(offset)),
            Instr::DoubleReg { reg: r } => format!("{0} = {0} * 2", reg(r)),
            Instr::IfIdEndsBlock { reg: r, .. } => format!("if (id + 1) % (2 * {}) == 0 {{", reg(r)),
            Instr::IfIdMidBlock { reg: r, .. } => format!("if id >= {0} && (id + 1) % (2 * {0}) == {0} {{", reg(r)),
            Instr::LoadNeighbour { array, reg: r, .. } => format!("{} = {array}[(id + 1) % n]", reg(r)),
            Instr::Post { array, index, state, value, .. } => {
                let state = POSTED_STATES.get(state as usize).copied().unwrap_or("?");
                format!("atomicMax(&{array}[{}], pack({state}, {}))", reg(index), reg(value))
            }
            Instr::BranchIfState { reg: r, state, .. } => {
                format!("if state({}) == {} {{ break; }}", reg(r), POSTED_STATES.get(state as usize).copied().unwrap_or("?"))
            }
            Instr::AddPosted { reg: r, flag } => format!("{0} = {0} + value({1})", reg(r), reg(flag)),
            Instr::AddFloat { reg: r, a, b } => format!("{} = {} + {}", reg(r), reg(a), reg(b)),
            Instr::BranchIfNan { reg: r, .. } => format!("if is_nan({}) {{ return; }}", reg(r)),
        }
    }

    /// The next step a thread at `pc` takes when it runs straight on: the next instruction of a
    /// hand-written program; the next access, barrier or subgroup operation of a lowered kernel
    /// (or the end).
    pub fn next_step(&self, pc: usize) -> usize {
        match &self.lowered {
            Some(l) => (pc + 1..self.len()).find(|&i| l.kernel.instrs[i].is_step(&l.kernel.vars)).unwrap_or(self.len()),
            None => (pc + 1).min(self.len()),
        }
    }

    /// Whether the program has a barrier anywhere (the scene then draws a gate).
    pub fn has_barrier(&self) -> bool {
        match &self.lowered {
            Some(l) => l.kernel.instrs.iter().any(|i| matches!(i.op, stepper::ir::Op::Barrier { .. })),
            None => self.lines.iter().any(|l| matches!(l.instr, Instr::Barrier)),
        }
    }

    /// Whether the instruction at `pc` is a subgroup operation (of a lowered kernel).
    pub fn is_subgroup_op(&self, pc: usize) -> bool {
        self.lowered.as_ref().and_then(|l| l.kernel.instrs.get(pc)).is_some_and(|i| matches!(i.op, stepper::ir::Op::Subgroup { .. }))
    }

    /// The name of the span a thread at `pc` stands in, if any.
    pub fn span_at(&self, pc: usize) -> Option<&'static str> {
        self.spans.iter().find(|s| s.lines.contains(&pc)).map(|s| s.name)
    }

    /// The 1-based line of `source` that carries the marker of instruction `pc`, if any.
    pub fn source_line(&self, pc: usize, source: &str) -> Option<usize> {
        if let Some(lowered) = &self.lowered {
            return lowered.kernel.instrs.get(pc).map(|i| i.line as usize).filter(|&l| l > 0);
        }
        let marker = self.lines.get(pc)?.marker;
        let needle = format!("// step: {marker}");
        source.lines().position(|line| line.trim_end().ends_with(&needle)).map(|i| i + 1)
    }
}
