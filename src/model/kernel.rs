//! Models that step a kernel's own WGSL: the program lowered from the shader at build time
//! ([`crate::stepped`]) and run by the stepper's interpreter, seen through the same [`Machine`]
//! the scene, the narration and the timeline read.
//!
//! The interpreter keeps the run; after every step the machine's `threads` and `memory` are
//! refreshed from it (each invocation's line, status and named values; every word of storage and
//! workgroup memory, one cell each), so a view needs to know nothing of how the step was taken.
//! A page that steps no kernel never reaches this file's code: the machine holds the run as a
//! [`KernelRun`], made only here.

use super::atomics::RmwOp;
use super::lowered::{Cell, Lowered, Value};
use super::machine::{Effect, Event, KernelRun, Machine, StepError, ThreadStatus};
use super::program::Program;
use std::sync::Arc;
use stepper::ir::{AtomicFn, Op, Space, SubgroupFn};
use stepper::run::{Finding, Run, Setup, Status};

/// The interpreter's run inside a [`Machine`], shared between the states of a session (a step
/// makes a new one).
#[derive(Debug)]
struct Interpreted(Run);

impl KernelRun for Interpreted {
    fn step(&mut self, m: &mut Machine, t: usize) -> Result<Event, StepError> {
        step(m, &mut self.0, t)
    }

    fn fork(&self) -> Arc<dyn KernelRun> {
        Arc::new(Interpreted(self.0.clone()))
    }

    fn findings(&self) -> &[Finding] {
        &self.0.findings
    }

    fn steps(&self) -> usize {
        self.0.steps
    }

    fn describe(&self, program: &Program, pc: usize) -> String {
        let text = program.lowered.as_ref().and_then(|lowered| lowered.line_text(pc));
        text.map_or_else(|| "done".into(), str::to_owned)
    }
}

/// What a lesson shows of its kernel.
#[derive(Clone, Copy, Debug, Default)]
pub struct Show {
    /// The variables of shared memory drawn, in order (empty: every one, in the kernel's order).
    /// An access to one not drawn is still a step, narrated by its name.
    pub memory: &'static [&'static str],
    /// At most this many words of each workgroup variable drawn (0: all): an array sized for the
    /// largest workgroup, drawn for the model's few threads. (A buffer's words are what the
    /// setup gives it.)
    pub workgroup_words: usize,
    /// The values drawn in each lane, by the names the kernel gives them (`let` names and
    /// function variables); empty for every named one.
    pub values: &'static [&'static str],
    /// Registers and arrays holding an f32's bits (see [`Program::floats`]).
    pub floats: &'static [&'static str],
    /// Values and variables holding an i32's bits (see [`Lowered::signed`]).
    pub signed: &'static [&'static str],
}

/// A model of `kernel` run with `setup`: the invocations, resting on their first steps, and the
/// shared memory the setup gives them. A setup the kernel cannot run with (a missing buffer, too
/// many invocations) is said in words.
pub fn machine(kernel: &'static stepper::Program, source: &'static str, setup: &Setup, show: Show) -> Result<Machine, String> {
    machine_of(kernel, source, Run::new(Arc::new(kernel.borrowed()), setup)?, show)
}

/// The model of `run`, a run of `kernel` just started (with a budget of its own, say).
pub fn machine_of(kernel: &'static stepper::Program, source: &'static str, run: Run, show: Show) -> Result<Machine, String> {
    let mut cells = Vec::new();
    let mut memory_names = Vec::new();
    // In the order the lesson names them (or the kernel's), found rather than sorted: a sort's
    // code is a few KB of every page that steps a kernel.
    let shared = |v: &&stepper::ir::Var| v.space.is_shared();
    let drawn: Vec<(usize, &stepper::ir::Var)> = if show.memory.is_empty() {
        kernel.vars.iter().enumerate().filter(|(_, v)| shared(v)).collect()
    } else {
        show.memory.iter().filter_map(|name| kernel.vars.iter().enumerate().find(|(_, v)| shared(v) && v.name == *name)).collect()
    };
    for (v, var) in drawn {
        let copies = if var.space == Space::Workgroup { run.workgroups } else { 1 };
        for workgroup in 0..copies {
            let mut words = run.words(v as u32, workgroup, 0).len() as u32;
            if show.workgroup_words > 0 && var.space == Space::Workgroup {
                words = words.min(show.workgroup_words as u32);
            }
            let copy = if copies > 1 { format!("{} (workgroup {workgroup})", var.name) } else { var.name.to_string() };
            for word in 0..words {
                cells.push(Cell { var: v as u32, workgroup, word });
                memory_names.push(word_name(var, &copy, word, words));
            }
        }
    }
    let named = kernel.names.iter().map(|(r, n)| (n.as_ref(), Value::Reg(*r)));
    let vars = kernel.vars.iter().enumerate().filter(|(_, v)| v.space == Space::Function && v.words == 1).map(|(i, v)| (v.name.as_ref(), Value::Var(i as u32)));
    let mut every: Vec<(&'static str, Value)> = Vec::new();
    for (name, value) in vars.chain(named) {
        if !every.iter().any(|(n, _)| *n == name) {
            every.push((name, value));
        }
    }
    let shown: Vec<(&'static str, Value)> =
        if show.values.is_empty() { every } else { show.values.iter().filter_map(|w| every.iter().find(|(n, _)| n == w).copied()).collect() };
    let program = Program {
        lines: Vec::new(),
        memory_names,
        register_names: shown.iter().map(|(n, _)| *n).collect(),
        grids: Vec::new(),
        workgroup: &[],
        floats: show.floats,
        packed: &[],
        masks: &[],
        mask_lanes: 0,
        spans: Vec::new(),
        lowered: Some(Arc::new(Lowered { kernel, source, cells, values: shown.iter().map(|(_, v)| *v).collect(), signed: show.signed })),
    };
    let threads = run.invocations.len();
    let mut m = Machine::unstepped(Arc::new(program), threads, Vec::new());
    mirror(&mut m, &run);
    m.kernel = Some(Arc::new(Interpreted(run)));
    Ok(m)
}

/// A finding in words, naming its threads and its kernel lines: what the model panel lists.
/// Called only from the views that list them (never through the engine's table, which every
/// page that steps a kernel loads at once), so its words come with those views' code.
pub fn finding_text(program: &Program, finding: &Finding) -> String {
    let line = |pc: u32| program.source_line(pc as usize, "").map_or_else(|| "?".to_owned(), |l| l.to_string());
    let Some(lowered) = &program.lowered else { return String::new() };
    match *finding {
        Finding::Race { var, word, first, second } => {
            let name = lowered.kernel.vars.get(var as usize).map_or("memory", |v| v.name.as_ref());
            let what = |a: stepper::run::Access| match (a.write, a.atomic) {
                (false, false) => "reads",
                (false, true) => "atomically reads",
                (true, false) => "writes",
                (true, true) => "atomically updates",
            };
            format!(
                "A data race on {name}[{word}]: thread {} {} it at line {}, thread {} {} it at line {}, and no barrier orders the two.",
                first.invocation,
                what(first),
                line(first.pc),
                second.invocation,
                what(second),
                line(second.pc)
            )
        }
        Finding::Divergence { pc, waiting, other, other_pc: None } => {
            format!("A barrier not every thread reaches: thread {waiting} waits at line {} while thread {other} has ended without it.", line(pc))
        }
        Finding::Divergence { pc, waiting, other, other_pc: Some(at) } => {
            format!("A barrier not every thread reaches: thread {waiting} waits at line {} while thread {other} waits at another, line {}.", line(pc), line(at))
        }
        Finding::OutOfBounds { invocation, pc, index, len } => {
            format!("An index out of bounds at line {}: thread {invocation} asked for element {index} of {len}; the model used the last.", line(pc))
        }
        Finding::Spin { invocation, pc, instructions } => {
            format!(
                "Thread {invocation} ran {} instructions at line {} without a step: stopped there.",
                crate::text::grouped(u64::from(instructions)),
                line(pc)
            )
        }
    }
}

/// How the scene names word `word` of `var` (drawn as `copy`, of `words` drawn): `counter`,
/// `tiles[3]`, `stats.gave_up`, `records[2].total`.
fn word_name(var: &stepper::ir::Var, copy: &str, word: u32, words: u32) -> String {
    let member = |at: u32| var.fields.iter().find(|(start, _)| *start == at).map(|(_, name)| name.as_ref());
    match var.runtime_stride {
        // An array of structs: its element, then the member.
        Some(stride) if stride > 1 && !var.fields.is_empty() && word >= var.words => {
            let (element, at) = ((word - var.words) / stride, (word - var.words) % stride);
            match member(at) {
                Some(name) => format!("{copy}[{element}].{name}"),
                None => format!("{copy}[{element}][{at}]"),
            }
        }
        _ => match member(word) {
            Some(name) if var.runtime_stride.is_none() => format!("{copy}.{name}"),
            _ if words == 1 && var.runtime_stride.is_none() => copy.to_owned(),
            _ => format!("{copy}[{word}]"),
        },
    }
}

/// One workgroup of `threads` invocations (the kernel's `workgroup_size` override set to it),
/// subgroups of 32, and `buffers` by `(group, binding)`: the setup most lessons' models run.
pub fn one_workgroup(threads: usize, buffers: Vec<((u32, u32), Vec<u32>)>) -> Setup {
    Setup { workgroups: 1, subgroup_size: 32, overrides: vec![("workgroup_size".into(), threads as u32)], buffers }
}

/// The instructions from the line marked `// step: <first>` through the one marked
/// `// step: <last>` in `source`, named `name`: a run of the kernel's lines the scene names
/// (a lock's holder, a wait).
pub fn span(program: &Program, source: &str, name: &'static str, first: &str, last: &str) -> Option<super::program::Span> {
    let lowered = program.lowered.as_ref()?;
    let line_of = |marker: &str| source.lines().position(|l| l.trim_end().ends_with(&format!("// step: {marker}"))).map(|i| i as u32 + 1);
    let lines = line_of(first)?..=line_of(last)?;
    // Threads rest only on steps, so the span runs from the first step on those lines to the
    // last (constants the lowering computes on entry carry the lines of their literals).
    let kernel = lowered.kernel;
    let pcs: Vec<usize> = kernel.instrs.iter().enumerate().filter(|(_, i)| i.is_step(&kernel.vars) && lines.contains(&i.line)).map(|(pc, _)| pc).collect();
    Some(super::program::Span { name, lines: *pcs.first()?..*pcs.last()? + 1 })
}

/// [`machine`], or when the setup is refused (a lesson's sizes are its own, and tested), a model
/// with no threads whose page says it has nothing to step.
pub fn machine_or_empty(kernel: &'static stepper::Program, source: &'static str, setup: &Setup, show: Show) -> Machine {
    machine(kernel, source, setup, show).unwrap_or_else(|_| empty())
}

/// A model with no kernel and no invocations: what a page shows while it has nothing to step.
pub fn empty() -> Machine {
    Machine::unstepped(Arc::new(Program::default()), 0, Vec::new())
}

/// Refreshes the machine's view of the run: every invocation's line, status and shown values,
/// and every shared word.
fn mirror(m: &mut Machine, run: &Run) {
    let Some(lowered) = m.program().lowered.clone() else { return };
    let end = m.program().len();
    for (i, (thread, inv)) in m.threads.iter_mut().zip(&run.invocations).enumerate() {
        thread.status = match inv.status {
            Status::Ready => ThreadStatus::Ready,
            Status::AtBarrier => ThreadStatus::AtBarrier,
            Status::AtSubgroup => ThreadStatus::InSubgroupOp,
            Status::Done | Status::Stopped => ThreadStatus::Done,
        };
        thread.pc = if thread.status == ThreadStatus::Done { end } else { inv.pc as usize };
        thread.regs.clear();
        thread.regs.extend(
            lowered
                .values
                .iter()
                .map(|v| match *v {
                    Value::Reg(r) => inv.regs.get(r as usize).copied().unwrap_or(0),
                    Value::Var(var) => run.words(var, inv.workgroup, i as u32).first().copied().unwrap_or(0),
                })
                .map(i64::from),
        );
    }
    m.memory.clear();
    m.memory.extend(lowered.cells.iter().map(|c| run.words(c.var, c.workgroup, 0).get(c.word as usize).copied().map_or(0, i64::from)));
    m.barrier_arrivals = run.invocations.iter().filter(|v| v.status == Status::AtBarrier).count();
}

/// One step of invocation `t`: the interpreter takes it; the effect is read from the instruction
/// and the memory around it.
fn step(m: &mut Machine, run: &mut Run, t: usize) -> Result<Event, StepError> {
    let lowered = m.program().lowered.clone().ok_or(StepError::NoSuchThread(t))?;
    let inv = run.invocations.get(t).ok_or(StepError::NoSuchThread(t))?;
    match inv.status {
        Status::Done | Status::Stopped => return Err(StepError::Finished(t)),
        Status::AtBarrier | Status::AtSubgroup => return Err(StepError::Waiting(t)),
        Status::Ready => {}
    }
    let pc = inv.pc;
    let op = lowered.kernel.instrs[pc as usize].op;
    let (workgroup, regs) = (inv.workgroup, inv.regs.clone());
    let reg = |r: u32| regs.get(r as usize).copied().unwrap_or(0);
    let word_of = |var: u32, offset: u32| Cell { var, workgroup: if is_workgroup(lowered.kernel, var) { workgroup } else { 0 }, word: reg(offset) };
    let addr_of = |c: Cell| lowered.cells.iter().position(|x| *x == c);
    let held = |run: &Run, c: Cell| run.words(c.var, c.workgroup, 0).get(c.word as usize).copied().map_or(0, i64::from);
    let before = match op {
        Op::Atomic { var, offset, .. } => held(run, word_of(var, offset)),
        _ => 0,
    };
    let arrived_before = run.invocations.iter().filter(|v| v.status == Status::AtBarrier).count();
    // The lanes of `t`'s subgroup already waiting at this line: with `t`, the active lanes.
    let size = run.subgroup_size.max(1) as usize;
    let first_lane = t / size * size;
    let lanes = first_lane..(first_lane + size).min(run.invocations.len());
    let waiting_here: Vec<usize> = lanes.clone().filter(|&l| run.invocations[l].status == Status::AtSubgroup && run.invocations[l].pc == pc).collect();
    run.step(t as u32).map_err(|_| StepError::Waiting(t))?;
    let run: &Run = run;
    let var_name = |var: u32| lowered.kernel.vars.get(var as usize).map_or("memory", |v| v.name.as_ref());
    let effect = match op {
        Op::Load { dst, var, offset, atomic, .. } => {
            let c = word_of(var, offset);
            let value = i64::from(run.invocations[t].regs.get(dst as usize).copied().unwrap_or(0));
            match addr_of(c) {
                Some(addr) => Effect::Loaded { addr, value },
                None => Effect::Offstage { var: var_name(var), word: c.word, write: false, atomic, value },
            }
        }
        Op::Store { var, offset, src, atomic, .. } => {
            let c = word_of(var, offset);
            let value = i64::from(reg(src));
            match addr_of(c) {
                Some(addr) => Effect::Stored { addr, value },
                None => Effect::Offstage { var: var_name(var), word: c.word, write: true, atomic, value },
            }
        }
        Op::Atomic { fun, var, offset, value, compare, .. } => {
            let c = word_of(var, offset);
            let new = held(run, c);
            match addr_of(c) {
                None => Effect::Offstage { var: var_name(var), word: c.word, write: true, atomic: true, value: new },
                Some(addr) => match fun {
                    AtomicFn::Add => Effect::AtomicAdded { addr, old: before, new },
                    AtomicFn::CompareExchange => Effect::CompareExchanged {
                        addr,
                        old: before,
                        expected: i64::from(reg(compare)),
                        desired: i64::from(reg(value)),
                        exchanged: before == i64::from(reg(compare)),
                    },
                    _ => {
                        let op = match fun {
                            AtomicFn::Sub => RmwOp::Sub,
                            AtomicFn::And => RmwOp::And,
                            AtomicFn::Or => RmwOp::Or,
                            AtomicFn::Xor => RmwOp::Xor,
                            AtomicFn::Min => RmwOp::Min,
                            AtomicFn::Max => RmwOp::Max,
                            _ => RmwOp::Exchange,
                        };
                        Effect::Rmw { addr, op, operand: i64::from(reg(value)), old: before, new }
                    }
                },
            }
        }
        Op::Barrier { .. } => {
            let of = run
                .invocations
                .iter()
                .filter(|v| v.workgroup == workgroup && !matches!(v.status, Status::Done | Status::Stopped))
                .count()
                .max(arrived_before + 1);
            if run.invocations[t].status == Status::AtBarrier {
                Effect::ArrivedAtBarrier { arrived: arrived_before + 1, of }
            } else {
                Effect::BarrierReleased { threads: arrived_before + 1 }
            }
        }
        Op::Subgroup { fun, dst, .. } => {
            let (function, subgroup) = (subgroup_function(fun), t / size);
            if run.invocations[t].status == Status::AtSubgroup {
                Effect::SubgroupArrived { function, subgroup, waiting: waiting_here.len() + 1 }
            } else {
                let lanes = waiting_here.iter().chain([&t]).fold(0u64, |bits, &l| bits | 1 << (l % 64));
                Effect::SubgroupDone { function, subgroup, lanes, result: i64::from(run.invocations[t].regs.get(dst as usize).copied().unwrap_or(0)) }
            }
        }
        _ => Effect::Computed { value: 0 },
    };
    mirror(m, run);
    Ok(Event { thread: t, pc: pc as usize, effect })
}

/// The WGSL function a subgroup operation calls, as narration names it.
fn subgroup_function(fun: SubgroupFn) -> &'static str {
    use stepper::ir::Arith;
    match fun {
        SubgroupFn::Ballot => "subgroupBallot",
        SubgroupFn::Reduce(Arith::Add) => "subgroupAdd",
        SubgroupFn::Reduce(Arith::Mul) => "subgroupMul",
        SubgroupFn::Reduce(Arith::Min) => "subgroupMin",
        SubgroupFn::Reduce(Arith::Max) => "subgroupMax",
        SubgroupFn::Reduce(Arith::And) => "subgroupAnd",
        SubgroupFn::Reduce(Arith::Or) => "subgroupOr",
        SubgroupFn::Reduce(_) => "subgroupXor",
        SubgroupFn::InclusiveScan(Arith::Mul) => "subgroupInclusiveMul",
        SubgroupFn::InclusiveScan(_) => "subgroupInclusiveAdd",
        SubgroupFn::ExclusiveScan(Arith::Mul) => "subgroupExclusiveMul",
        SubgroupFn::ExclusiveScan(_) => "subgroupExclusiveAdd",
        SubgroupFn::All => "subgroupAll",
        SubgroupFn::Any => "subgroupAny",
        SubgroupFn::BroadcastFirst => "subgroupBroadcastFirst",
        SubgroupFn::Elect => "subgroupElect",
        SubgroupFn::Shuffle => "subgroupShuffle",
        SubgroupFn::ShuffleXor => "subgroupShuffleXor",
        SubgroupFn::ShuffleUp => "subgroupShuffleUp",
        SubgroupFn::ShuffleDown => "subgroupShuffleDown",
    }
}

fn is_workgroup(kernel: &stepper::Program, var: u32) -> bool {
    kernel.vars.get(var as usize).is_some_and(|v| v.space == Space::Workgroup)
}
