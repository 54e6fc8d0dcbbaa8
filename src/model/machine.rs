//! The state of a few model threads and one step of one of them.

use super::atomics::RmwOp;
use super::program::{mask_text, Addr, Instr, Program};
use std::sync::Arc;

/// Where a thread stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadStatus {
    /// It can take its next instruction.
    Ready,
    /// It arrived at a barrier and waits for the others.
    AtBarrier,
    /// It reached a subgroup operation and waits for the lanes of its subgroup that may still
    /// come to it (see [`SubgroupOp`]).
    InSubgroupOp,
    /// It ran past its last instruction.
    Done,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadState {
    pub pc: usize,
    pub regs: Vec<i64>,
    pub status: ThreadStatus,
    /// Where the thread is done: the program's end, or, for a program whose threads each run
    /// a block of their own (a litmus test's), its block's end.
    pub end: usize,
}

/// What one step did, in terms a narrator can say out loud.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    Loaded {
        addr: Addr,
        value: i64,
    },
    Added {
        from: i64,
        to: i64,
    },
    Stored {
        addr: Addr,
        value: i64,
    },
    AtomicAdded {
        addr: Addr,
        old: i64,
        new: i64,
    },
    ArrivedAtBarrier {
        arrived: usize,
        of: usize,
    },
    /// A branch or jump: `taken` says whether it went to `target`.
    Branched {
        taken: bool,
        target: usize,
    },
    /// A compare-exchange: what the cell held, what was hoped for, and whether it swapped.
    CompareExchanged {
        addr: Addr,
        old: i64,
        expected: i64,
        desired: i64,
        exchanged: bool,
    },
    /// A read-modify-write atomic: the op, the thread's operand, and the cell before and after.
    Rmw {
        addr: Addr,
        op: RmwOp,
        operand: i64,
        old: i64,
        new: i64,
    },
    /// A value computed in the thread's own registers.
    Computed {
        value: i64,
    },
    /// The last arrival: every waiting thread leaves the barrier together.
    BarrierReleased {
        threads: usize,
    },
    /// An access to shared memory the scene does not draw (a kernel's bookkeeping, say: the
    /// tickets a lesson's kernel records for its GPU half): named, not given a cell.
    Offstage {
        var: &'static str,
        word: u32,
        write: bool,
        atomic: bool,
        value: i64,
    },
    /// A lane reached a subgroup operation while lanes of its subgroup may still come to it.
    SubgroupArrived {
        function: &'static str,
        subgroup: usize,
        waiting: usize,
    },
    /// The active lanes of a subgroup took the operation together; `result` is what this
    /// thread received (for the election, 1 if it was elected).
    SubgroupDone {
        function: &'static str,
        subgroup: usize,
        /// The threads that took part, one bit each (thread `t` is bit `t`).
        lanes: u64,
        result: i64,
    },
}

/// One thread's step: which thread, which instruction, what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub thread: usize,
    pub pc: usize,
    pub effect: Effect,
}

/// Why a thread could not step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepError {
    NoSuchThread(usize),
    Finished(usize),
    Waiting(usize),
    /// The program names a memory cell the machine does not have (a program built for
    /// fewer threads than the machine runs).
    NoSuchCell(usize),
    /// A register used as an index held a value no cell can have: `base + index` below zero
    /// or past any address.
    BadIndex {
        base: Addr,
        index: i64,
    },
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepError::NoSuchThread(t) => write!(f, "there is no thread {t}"),
            StepError::Finished(t) => write!(f, "thread {t} has finished"),
            StepError::Waiting(t) => write!(f, "thread {t} is waiting at the barrier"),
            StepError::NoSuchCell(a) => write!(f, "there is no memory cell {a}"),
            StepError::BadIndex { base, index } => write!(f, "cell {base} + {index} does not exist"),
        }
    }
}

/// How a machine takes its steps: by the hand-written instructions of its program, or by the
/// stepper's run of a kernel (see [`super::kernel`]). Held behind this so that a page carries the
/// code of the one it uses: a page that steps only hand-written programs none of the interpreter,
/// one that steps only kernels none of the hand-written instructions' steps.
pub trait KernelRun: std::fmt::Debug + Send + Sync {
    /// Thread `t` takes its next step, in this run (the machine holds no other copy of it), and
    /// the machine's views are refreshed. A step refused leaves both as they were.
    fn step(&mut self, machine: &mut Machine, t: usize) -> Result<Event, StepError>;
    /// A copy of the run to step on, for a machine whose run another state still shares: a
    /// session's states share it until one steps, so a tick of many threads copies it once.
    fn fork(&self) -> Arc<dyn KernelRun>;
    fn findings(&self) -> &[stepper::run::Finding];
    /// Steps taken: two runs of one kernel from one start are the same state when equal.
    fn steps(&self) -> usize;
    /// The instruction at `pc` of `program`, written the way the kernel writes it.
    fn describe(&self, program: &Program, pc: usize) -> String;
}

/// The steps of a program of hand-written [`Instr`] lines.
#[derive(Debug)]
struct HandWritten;

impl KernelRun for HandWritten {
    fn step(&mut self, machine: &mut Machine, t: usize) -> Result<Event, StepError> {
        machine.step_hand(t)
    }

    fn fork(&self) -> Arc<dyn KernelRun> {
        Arc::new(HandWritten)
    }

    fn findings(&self) -> &[stepper::run::Finding] {
        &[]
    }

    fn steps(&self) -> usize {
        0
    }

    fn describe(&self, program: &Program, pc: usize) -> String {
        program.hand_text(pc)
    }
}

/// Threads, their registers and program counters, shared memory and the barrier.
///
/// Cloning is cheap enough (a few threads, a few cells) that history keeps whole snapshots.
#[derive(Clone, Debug)]
pub struct Machine {
    program: Arc<Program>,
    pub threads: Vec<ThreadState>,
    pub memory: Vec<i64>,
    /// Threads that have arrived at the current barrier and not yet been released.
    pub barrier_arrivals: usize,
    /// Lanes per subgroup: thread `t` is lane `t % subgroup_size` of subgroup
    /// `t / subgroup_size`. Only subgroup operations read it.
    pub subgroup_size: usize,
    /// How it steps: [`HandWritten`] for a program of [`Instr`] lines, the interpreter's run for
    /// a program lowered from a kernel (see [`super::kernel`]); none for a machine that only
    /// draws a state (a replay's).
    pub(super) kernel: Option<Arc<dyn KernelRun>>,
}

// What a view compares: the program, the threads and the memory; two runs of one kernel are the
// same state when, besides, they took as many steps.
impl PartialEq for Machine {
    fn eq(&self, other: &Machine) -> bool {
        self.program == other.program
            && self.threads == other.threads
            && self.memory == other.memory
            && self.barrier_arrivals == other.barrier_arrivals
            && self.subgroup_size == other.subgroup_size
            && self.kernel.as_ref().map(|k| k.steps()) == other.kernel.as_ref().map(|k| k.steps())
    }
}
impl Eq for Machine {}

impl Machine {
    /// A machine of a hand-written program, every thread at its first line.
    pub fn new(program: Arc<Program>, threads: usize, memory: Vec<i64>) -> Self {
        let mut machine = Self::unstepped(program, threads, memory);
        machine.kernel = Some(Arc::new(HandWritten));
        machine
    }

    /// Whether `other` is this state of the same program: the program compared by identity,
    /// not line by line (see `ui::machine_memo`).
    pub fn same_state(&self, other: &Machine) -> bool {
        Arc::ptr_eq(&self.program, &other.program)
            && self.threads == other.threads
            && self.memory == other.memory
            && self.barrier_arrivals == other.barrier_arrivals
            && self.subgroup_size == other.subgroup_size
    }

    /// The same machine with subgroups of `size` lanes (at least 1).
    pub fn with_subgroup_size(mut self, size: usize) -> Self {
        self.subgroup_size = size.max(1);
        self
    }

    /// The subgroup thread `t` belongs to, and its lane in it.
    pub fn subgroup_of(&self, t: usize) -> (usize, usize) {
        (t / self.subgroup_size, t % self.subgroup_size)
    }

    /// A machine whose thread `t` runs only `blocks[t]`, the lines from its start up to its end:
    /// threads that run different code, with no line spent choosing it (a litmus test's threads,
    /// each its own statements).
    pub fn with_blocks(program: Arc<Program>, blocks: &[std::ops::Range<usize>], memory: Vec<i64>) -> Self {
        let regs = program.register_names.len();
        let threads = blocks
            .iter()
            .map(|b| {
                let (status, pc) = if b.is_empty() { (ThreadStatus::Done, program.len()) } else { (ThreadStatus::Ready, b.start) };
                ThreadState { pc, regs: vec![0; regs], status, end: b.end.min(program.len()) }
            })
            .collect();
        let subgroup_size = blocks.len().max(1);
        Machine { threads, memory, barrier_arrivals: 0, subgroup_size, program, kernel: Some(Arc::new(HandWritten)) }
    }

    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// What the interpreter has found wrong with the kernel so far (races, barriers not all
    /// reach, indices out of bounds, spins), for a program lowered from a kernel; none for a
    /// hand-written one.
    pub fn findings(&self) -> &[stepper::run::Finding] {
        self.kernel.as_ref().map_or(&[], |k| k.findings())
    }

    /// The same machine with its program's tables changed by `f`: grids, spans or the values
    /// shown as floats, added to a program lowered from a kernel.
    pub fn with_program(mut self, f: impl FnOnce(&mut Program)) -> Self {
        f(Arc::make_mut(&mut self.program));
        self
    }

    pub fn is_finished(&self) -> bool {
        self.threads.iter().all(|t| t.status == ThreadStatus::Done)
    }

    /// Threads that may take a step now, in thread order.
    pub fn ready_threads(&self) -> impl Iterator<Item = usize> + '_ {
        self.threads.iter().enumerate().filter(|(_, t)| t.status == ThreadStatus::Ready).map(|(i, _)| i)
    }

    /// Runs one instruction of thread `t`.
    pub fn step(&mut self, t: usize) -> Result<Event, StepError> {
        let Some(mut run) = self.kernel.take() else { return Err(StepError::NoSuchThread(t)) };
        if Arc::get_mut(&mut run).is_none() {
            run = run.fork();
        }
        let result = match Arc::get_mut(&mut run) {
            Some(unique) => unique.step(self, t),
            None => Err(StepError::NoSuchThread(t)),
        };
        self.kernel = Some(run);
        result
    }

    /// The instruction at `pc` written the way the kernel writes it ("done" past the end),
    /// in the words of the engine that steps it (see [`KernelRun::describe`]).
    pub fn describe(&self, pc: usize) -> String {
        match &self.kernel {
            Some(engine) => engine.describe(&self.program, pc),
            None => "done".into(),
        }
    }

    /// A machine of `program`, its threads at their first lines, that takes no step until its
    /// maker gives it a [`KernelRun`]: what a model of a kernel starts from, before its run
    /// refreshes it.
    ///
    /// It names no way of stepping, so that no function is handed both a hand-written engine and
    /// none: the optimiser then filled a missing engine's table with the hand-written one's, and
    /// every page that steps kernels carried the hand-written instructions' steps.
    pub(super) fn unstepped(program: Arc<Program>, threads: usize, memory: Vec<i64>) -> Self {
        let regs = program.register_names.len();
        let end = program.len();
        let status = if program.is_empty() { ThreadStatus::Done } else { ThreadStatus::Ready };
        Machine {
            threads: vec![ThreadState { pc: 0, regs: vec![0; regs], status, end }; threads],
            memory,
            barrier_arrivals: 0,
            subgroup_size: threads.max(1),
            program,
            kernel: None,
        }
    }

    /// One instruction of a hand-written program, by thread `t`.
    fn step_hand(&mut self, t: usize) -> Result<Event, StepError> {
        let thread = self.threads.get(t).ok_or(StepError::NoSuchThread(t))?;
        match thread.status {
            ThreadStatus::Done => return Err(StepError::Finished(t)),
            ThreadStatus::AtBarrier => return Err(StepError::Waiting(t)),
            ThreadStatus::InSubgroupOp => return Err(StepError::Waiting(t)),
            ThreadStatus::Ready => {}
        }
        let pc = thread.pc;
        let instr = self.program.lines[pc].instr;
        let effect = match instr {
            Instr::Load { reg, addr } => {
                let value = self.read(addr)?;
                self.threads[t].regs[reg] = value;
                Effect::Loaded { addr, value }
            }
            Instr::AddImm { reg, imm } => {
                let from = self.threads[t].regs[reg];
                let to = from + imm;
                self.threads[t].regs[reg] = to;
                Effect::Added { from, to }
            }
            Instr::AtomicAdd { reg, addr, imm } => {
                let old = self.read(addr)?;
                let new = old + imm;
                self.write(addr, new)?;
                self.threads[t].regs[reg] = old;
                Effect::AtomicAdded { addr, old, new }
            }
            Instr::StoreOwn { base, reg, .. } => {
                let addr = base + t;
                let value = self.threads[t].regs[reg];
                self.write(addr, value)?;
                Effect::Stored { addr, value }
            }
            Instr::LoadOwn { base, reg, .. } => {
                let addr = base + t;
                let value = self.read(addr)?;
                self.threads[t].regs[reg] = value;
                Effect::Loaded { addr, value }
            }
            Instr::StoreAt { base, index, reg, .. } => {
                let addr = self.indexed(t, base, index)?;
                let value = self.threads[t].regs[reg];
                self.write(addr, value)?;
                Effect::Stored { addr, value }
            }
            Instr::BranchUnlessAbove { a, b, target } => {
                let regs = &self.threads[t].regs;
                let taken = !super::program::above(super::program::f32_of(regs[a]), super::program::f32_of(regs[b]));
                return Ok(self.branch(t, pc, taken, target));
            }
            Instr::BranchIfNonZero { reg, target } => {
                let taken = self.threads[t].regs[reg] != 0;
                return Ok(self.branch(t, pc, taken, target));
            }
            Instr::Jump { target } => return Ok(self.branch(t, pc, true, target)),
            Instr::CompareExchange { addr, expected, desired, old, exchanged } => {
                let (want, new) = (self.threads[t].regs[expected], self.threads[t].regs[desired]);
                let held = self.read(addr)?;
                let swapped = held == want;
                if swapped {
                    self.write(addr, new)?;
                }
                let regs = &mut self.threads[t].regs;
                regs[old] = held;
                regs[exchanged] = i64::from(swapped);
                Effect::CompareExchanged { addr, old: held, expected: want, desired: new, exchanged: swapped }
            }
            Instr::Barrier => return Ok(self.arrive(t, pc)),
            Instr::AtomicRmw { op, ty, addr, operand, old } => {
                let value = self.threads[t].regs[operand];
                let held = self.read(addr)?;
                let new = op.apply(ty, held, value);
                self.write(addr, new)?;
                self.threads[t].regs[old] = held;
                Effect::Rmw { addr, op, operand: value, old: held, new }
            }
            Instr::BranchIfBelow { reg, limit, target } => {
                let taken = self.threads[t].regs[reg] < limit;
                return Ok(self.branch(t, pc, taken, target));
            }
            Instr::SetImm { reg, value } => {
                self.threads[t].regs[reg] = value;
                Effect::Computed { value }
            }
            Instr::BranchIfZero { reg, target } => {
                let taken = self.threads[t].regs[reg] == 0;
                return Ok(self.branch(t, pc, taken, target));
            }
            Instr::AddReg { reg, other } => {
                let regs = &mut self.threads[t].regs;
                let from = regs[reg];
                regs[reg] = from + regs[other];
                Effect::Added { from, to: regs[reg] }
            }
            Instr::BreakIfDiffers { a, b, target } => {
                let regs = &self.threads[t].regs;
                let taken = regs[a] != regs[b];
                return Ok(self.branch(t, pc, taken, target));
            }
            Instr::IfAtLeast { reg, limit, end } => {
                let skipped = self.threads[t].regs[reg] < limit;
                return Ok(self.branch(t, pc, skipped, end));
            }
            Instr::Offset { reg, from, imm } => {
                let regs = &mut self.threads[t].regs;
                regs[reg] = regs[from] + imm;
                Effect::Computed { value: regs[reg] }
            }
            Instr::HalveReg { reg } => {
                let regs = &mut self.threads[t].regs;
                regs[reg] /= 2;
                Effect::Computed { value: regs[reg] }
            }
            Instr::FromId { reg, add } => {
                let value = t as i64 + add;
                self.threads[t].regs[reg] = value;
                Effect::Computed { value }
            }
            Instr::LoadNeighbour { base, reg, .. } => {
                let addr = base + (t + 1) % self.threads.len();
                let value = self.read(addr)?;
                self.threads[t].regs[reg] = value;
                Effect::Loaded { addr, value }
            }
            Instr::StoreImm { addr, value } => {
                self.write(addr, value)?;
                Effect::Stored { addr, value }
            }
            Instr::LoadAt { base, index, reg, .. } => {
                let addr = self.indexed(t, base, index)?;
                let value = self.read(addr)?;
                self.threads[t].regs[reg] = value;
                Effect::Loaded { addr, value }
            }
            Instr::Post { base, index, state, value, .. } => {
                let addr = self.indexed(t, base, index)?;
                let (held, word) = (self.read(addr)?, super::program::pack(state, self.threads[t].regs[value]));
                let new = held.max(word);
                self.write(addr, new)?;
                Effect::Rmw { addr, op: RmwOp::Max, operand: word, old: held, new }
            }
            Instr::BranchIfState { reg, state, target } => {
                let taken = super::program::unpack(self.threads[t].regs[reg]).0 == state;
                return Ok(self.branch(t, pc, taken, target));
            }
            Instr::BranchIfNan { reg, target } => {
                // From the bits, as the kernel tests them: Rust's is_nan assumes nothing.
                let taken = super::program::f32_of(self.threads[t].regs[reg]).is_nan();
                return Ok(self.branch(t, pc, taken, target));
            }
            Instr::AddFloat { reg, a, b } => {
                let regs = &mut self.threads[t].regs;
                let sum = super::program::f32_of(regs[a]) + super::program::f32_of(regs[b]);
                regs[reg] = super::program::bits_of(sum);
                Effect::Computed { value: regs[reg] }
            }
            Instr::AddPosted { reg, flag } => {
                let regs = &mut self.threads[t].regs;
                let from = regs[reg];
                regs[reg] = from + super::program::unpack(regs[flag]).1;
                Effect::Added { from, to: regs[reg] }
            }
            Instr::BreakIfAtLeast { reg, limit, target } => {
                let taken = self.threads[t].regs[reg] >= limit;
                return Ok(self.branch(t, pc, taken, target));
            }
            Instr::IfIdAtLeastReg { reg, end } => {
                let skipped = (t as i64) < self.threads[t].regs[reg];
                return Ok(self.branch(t, pc, skipped, end));
            }
            Instr::LoadOwnMinus { base, offset, reg, .. } => {
                let addr = offset_of(base, t as i64 - self.threads[t].regs[offset])?;
                let value = self.read(addr)?;
                self.threads[t].regs[reg] = value;
                Effect::Loaded { addr, value }
            }
            Instr::DoubleReg { reg } => {
                let regs = &mut self.threads[t].regs;
                regs[reg] *= 2;
                Effect::Computed { value: regs[reg] }
            }
            Instr::IfIdEndsBlock { reg, end } => {
                let d = self.threads[t].regs[reg];
                let on = d > 0 && (t as i64 + 1) % (2 * d) == 0;
                return Ok(self.branch(t, pc, !on, end));
            }
            Instr::IfIdMidBlock { reg, end } => {
                let d = self.threads[t].regs[reg];
                let on = d > 0 && t as i64 >= d && (t as i64 + 1) % (2 * d) == d;
                return Ok(self.branch(t, pc, !on, end));
            }
        };
        self.advance(t);
        Ok(Event { thread: t, pc, effect })
    }

    /// The cell `base + regs[index]` of thread `t`.
    fn indexed(&self, t: usize, base: Addr, index: usize) -> Result<Addr, StepError> {
        offset_of(base, self.threads[t].regs[index])
    }

    // Every instruction reaches memory through `read` and `write` and nothing else, so an
    // address a program computes wrongly becomes a `StepError` the page can show, never a
    // panic.

    fn read(&self, addr: Addr) -> Result<i64, StepError> {
        self.memory.get(addr).copied().ok_or(StepError::NoSuchCell(addr))
    }

    fn write(&mut self, addr: Addr, value: i64) -> Result<(), StepError> {
        *self.memory.get_mut(addr).ok_or(StepError::NoSuchCell(addr))? = value;
        Ok(())
    }

    /// Goes to `target` when `taken`, else to the next instruction.
    fn branch(&mut self, t: usize, pc: usize, taken: bool, target: usize) -> Event {
        if taken {
            let thread = &mut self.threads[t];
            thread.pc = target;
            thread.status = if target >= thread.end { ThreadStatus::Done } else { ThreadStatus::Ready };
            Self::past_the_end(thread, self.program.len());
        } else {
            self.advance(t);
        }
        Event { thread: t, pc, effect: Effect::Branched { taken, target } }
    }

    fn advance(&mut self, t: usize) {
        let thread = &mut self.threads[t];
        thread.pc += 1;
        thread.status = if thread.pc >= thread.end { ThreadStatus::Done } else { ThreadStatus::Ready };
        Self::past_the_end(thread, self.program.len());
    }

    /// A finished thread stands past the program's last line, wherever its block ended: what
    /// reads its line (the scene, the marked kernel) then finds none and says it is done.
    fn past_the_end(thread: &mut ThreadState, len: usize) {
        if thread.status == ThreadStatus::Done {
            thread.pc = len;
        }
    }

    /// A thread reaches a barrier. The barrier counts every thread of the workgroup that has
    /// not finished; the last one to arrive releases them all.
    fn arrive(&mut self, t: usize, pc: usize) -> Event {
        self.threads[t].status = ThreadStatus::AtBarrier;
        self.barrier_arrivals += 1;
        let expected = self.threads.iter().filter(|th| th.status != ThreadStatus::Done).count();
        if self.barrier_arrivals < expected {
            return Event { thread: t, pc, effect: Effect::ArrivedAtBarrier { arrived: self.barrier_arrivals, of: expected } };
        }
        let waiting: Vec<usize> = self.threads.iter().enumerate().filter(|(_, th)| th.status == ThreadStatus::AtBarrier).map(|(i, _)| i).collect();
        for &w in &waiting {
            self.advance(w);
        }
        self.barrier_arrivals = 0;
        Event { thread: t, pc, effect: Effect::BarrierReleased { threads: waiting.len() } }
    }

    /// A sentence for screen readers and the step log, e.g. "thread 2 loads 5 from counter".
    pub fn narrate(&self, event: &Event) -> String {
        let cell = |a: Addr| self.program.memory_names.get(a).map_or("memory", String::as_str);
        // A value as its cell's type writes it: an f32's bits as the float.
        let v = |a: Addr, value: i64| self.program.cell_text(a, value);
        let t = event.thread;
        match &event.effect {
            Effect::Loaded { addr, value } => format!("thread {t} loads {} from {}", v(*addr, *value), cell(*addr)),
            Effect::Added { from, to } => format!("thread {t} adds in its register: {from} → {to}"),
            Effect::Stored { addr, value } => format!("thread {t} stores {} to {}", v(*addr, *value), cell(*addr)),
            Effect::AtomicAdded { addr, old, new } => format!("thread {t} atomically adds to {}: it was {old}, now {new}", cell(*addr)),
            Effect::ArrivedAtBarrier { arrived, of } => {
                format!("thread {t} arrives at the barrier ({arrived} of {of})")
            }
            Effect::Branched { taken: true, target } if *target >= self.program.len() => format!("thread {t} is done"),
            Effect::Branched { taken: true, target } => {
                format!("thread {t} goes to `{}`", self.describe(*target))
            }
            Effect::Branched { taken: false, .. } => format!("thread {t} goes on"),
            Effect::CompareExchanged { addr, old, desired, exchanged: true, .. } => {
                format!("thread {t} swaps {}: it held {} as expected, now {}", cell(*addr), v(*addr, *old), v(*addr, *desired))
            }
            Effect::CompareExchanged { addr, old, expected, exchanged: false, .. } => {
                format!("thread {t} fails to swap {}: expected {}, it holds {}", cell(*addr), v(*addr, *expected), v(*addr, *old))
            }
            Effect::Rmw { addr, op, operand, old, new } => {
                format!(
                    "thread {t}: {}(&{}, {}) returns {}; {} is now {}",
                    op.function(),
                    cell(*addr),
                    v(*addr, *operand),
                    v(*addr, *old),
                    cell(*addr),
                    v(*addr, *new)
                )
            }
            Effect::Computed { value } => match self.program.lines.get(event.pc).map(|l| l.instr) {
                // A float's bits, said as the float.
                Some(Instr::AddFloat { reg, .. }) => format!("thread {t} computes {}", self.program.register_text(reg, *value)),
                _ => format!("thread {t} computes {value}"),
            },
            Effect::BarrierReleased { threads } => {
                format!("thread {t} arrives last: the barrier releases all {threads} threads")
            }
            Effect::Offstage { var, word, write, atomic, value } => {
                let verb = match (write, atomic) {
                    (false, _) => "loads",
                    (true, false) => "stores",
                    (true, true) => "atomically updates",
                };
                let prep = if *write && !*atomic {
                    "to"
                } else if *write {
                    ""
                } else {
                    "from"
                };
                format!("thread {t} {verb} {value} {prep} {var}[{word}] (not drawn)").replace("  ", " ")
            }
            Effect::SubgroupArrived { function, subgroup, waiting } => {
                format!("thread {t} reaches {function} and waits for subgroup {subgroup}'s other lanes ({waiting} there)")
            }
            Effect::SubgroupDone { function, subgroup, lanes, result } => {
                let what = match *function {
                    "subgroupBallot" => format!("the mask is {} (lane 0 first)", mask_text(*result, self.program.mask_lanes)),
                    _ => format!("thread {t} gets {result}"),
                };
                format!("subgroup {subgroup}'s {} active lane(s) take {function} together: {what}", lanes.count_ones())
            }
        }
    }
}

/// `base + index` for an index read from a register: a negative or overflowing one is an error
/// naming the register's value, not a cell that wraps around.
fn offset_of(base: Addr, index: i64) -> Result<Addr, StepError> {
    usize::try_from(index).ok().and_then(|i| base.checked_add(i)).ok_or(StepError::BadIndex { base, index })
}
