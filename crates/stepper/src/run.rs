//! The interpreter: a few workgroups of a few invocations running one [`Program`], one step of
//! one invocation at a time, in whatever order the caller picks.
//!
//! An invocation always rests on its next step (an access to shared memory, a barrier, a subgroup
//! operation): everything private before it has run. Stepping it takes that step and runs on to
//! the next. A barrier holds it until every invocation of its workgroup that has not ended stands at
//! one; a subgroup operation until no lane of its subgroup can still come (the others wait at an
//! operation or a barrier, or have ended), then the lanes waiting at that same line take it together:
//! the *active* lanes.
//!
//! The findings ([`Finding`]) are made as it goes, the way GPU race checkers make them: each access
//! to shared memory is compared with the earlier accesses to its word that no barrier orders before
//! it. No search over schedules is needed to find a race: any order that runs both accesses finds it.

use crate::ir::{Arith, AtomicFn, Builtin, Op, Program, Reg, Scalar, Size, Space, SubgroupFn};
use std::fmt;
use std::sync::Arc;

/// Instructions an invocation may run between two steps: a loop that touches no shared memory
/// and never ends is stopped here.
pub const PRIVATE_BUDGET: u32 = 100_000;
/// Invocations a run may have (workgroups × workgroup size).
pub const MAX_INVOCATIONS: u32 = 4096;
/// Words of memory a run may have in all.
pub const MAX_WORDS: usize = 1 << 22;

/// What a run is given: its sizes, its overrides and the contents of its buffers.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    pub workgroups: u32,
    /// Lanes per subgroup (4, 8, 32, …); each workgroup's invocations in order make its subgroups.
    pub subgroup_size: u32,
    /// Overrides by name, as bits (an `f32`'s `to_bits()`).
    pub overrides: Vec<(String, u32)>,
    /// Buffers by `(group, binding)`: their words. A runtime-sized array's length comes from here.
    pub buffers: Vec<((u32, u32), Vec<u32>)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Resting on its next step.
    Ready,
    /// Waiting at a barrier.
    AtBarrier,
    /// Waiting at a subgroup operation for the lanes that may still come.
    AtSubgroup,
    Done,
    /// Ran its private budget of instructions without a step: stopped (a [`Finding::Spin`]).
    Stopped,
}

#[derive(Clone, Debug)]
pub struct Invocation {
    pub workgroup: u32,
    /// `local_invocation_index`.
    pub local: u32,
    pub pc: u32,
    pub status: Status,
    pub regs: Vec<u32>,
    /// Its private and function variables.
    pub private: Vec<u32>,
}

/// One access to shared memory, as a finding names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Access {
    pub invocation: u32,
    pub pc: u32,
    pub write: bool,
    pub atomic: bool,
}

/// What a run found wrong with the kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// Two accesses to one word from different invocations, at least one a write, not both
    /// atomic, and no barrier between them that orders them (none does across workgroups).
    Race { var: u32, word: u32, first: Access, second: Access },
    /// Invocations wait at the barrier at `pc` while another of their workgroup has ended or
    /// waits at another barrier (`other_pc`, `None` when it ended).
    Divergence { pc: u32, waiting: u32, other: u32, other_pc: Option<u32> },
    /// An index past the end of its array (`len`), at `pc`.
    OutOfBounds { invocation: u32, pc: u32, index: u32, len: u32 },
    /// An invocation ran `instructions` (the run's private budget) at `pc` without touching
    /// shared memory.
    Spin { invocation: u32, pc: u32, instructions: u32 },
}

/// Why a run could not go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Halt {
    /// Asked to step an invocation that is waiting or has ended.
    NotReady(u32),
    /// `max_steps` steps and the kernel has not ended (a spin on memory nobody will change?).
    StepBudget(usize),
}

impl fmt::Display for Halt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Halt::NotReady(i) => write!(f, "invocation {i} is not ready to step"),
            Halt::StepBudget(n) => write!(f, "the kernel has not ended after {n} steps: it may wait for something no invocation will do"),
        }
    }
}

/// The earlier access to a word that a later one is compared with.
#[derive(Clone, Copy, Debug)]
struct Seen {
    access: Access,
    workgroup: u32,
    /// Its workgroup's barrier count in the word's space when it was made.
    epoch: u32,
}

/// A kernel being run.
#[derive(Clone, Debug)]
pub struct Run {
    pub program: Arc<Program>,
    pub workgroup_size: [u32; 3],
    pub subgroup_size: u32,
    pub workgroups: u32,
    overrides: Vec<u32>,
    pub invocations: Vec<Invocation>,
    /// Storage and uniform variables: one block each; workgroup variables: one per workgroup.
    memory: Vec<Vec<u32>>,
    /// Per variable: its first block of `memory`, or for private and function ones, its first
    /// word of an invocation's `private`.
    base: Vec<usize>,
    /// Per workgroup, the barriers passed that order workgroup memory and storage.
    epochs: Vec<[u32; 2]>,
    /// Per block of `memory`, per word: the accesses later ones are compared with (a block's
    /// words are made at its first access). Indexed, not hashed: a hash map's code and its
    /// hasher are a few KB of every page that steps a kernel.
    seen: Vec<Vec<Vec<Seen>>>,
    pub findings: Vec<Finding>,
    /// Private instructions one step may run before the invocation is stopped as a spin.
    private_budget: u32,
    /// The findings made so far, by kind and place, so that each is reported once (a few: a
    /// list, not a set, whose code a page would carry).
    reported: Vec<(u8, u32, u32)>,
    pub steps: usize,
    /// Per subgroup operation: the instructions it can be reached from.
    reach: Vec<(u32, Vec<bool>)>,
}

/// One step taken: by which invocation, at which instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub invocation: u32,
    pub pc: u32,
}

impl Run {
    /// A run of `program` with `setup`'s sizes and buffers, every invocation resting on its first
    /// step. On a bad size or a missing buffer, what is wrong in words.
    pub fn new(program: Arc<Program>, setup: &Setup) -> Result<Run, String> {
        Run::with_private_budget(program, setup, PRIVATE_BUDGET)
    }

    /// The same, each step's private work cut at `budget` instructions instead of
    /// [`PRIVATE_BUDGET`]: a page reading a reader's many invocations spends less on each one
    /// that spins.
    pub fn with_private_budget(program: Arc<Program>, setup: &Setup, budget: u32) -> Result<Run, String> {
        let mut overrides = Vec::new();
        for o in program.overrides.iter() {
            let set = setup.overrides.iter().find(|(n, _)| *n == o.name).map(|(_, v)| *v);
            match set.or(o.default) {
                Some(v) => overrides.push(v),
                None => return Err(format!("the override `{}` has no value", o.name)),
            }
        }
        let size = program.workgroup_size.map(|s| match s {
            Size::Fixed(n) => n,
            Size::Override(i) => overrides.get(i as usize).copied().unwrap_or(0),
        });
        let local_size = size.iter().try_fold(1u32, |a, &b| a.checked_mul(b)).unwrap_or(0);
        if local_size == 0 || setup.workgroups == 0 {
            return Err("the workgroup size and the number of workgroups must be at least 1".into());
        }
        let total = local_size.checked_mul(setup.workgroups).filter(|&n| n <= MAX_INVOCATIONS);
        let Some(total) = total else {
            return Err(format!("{} workgroups of {local_size} is more than the {MAX_INVOCATIONS} invocations a stepped run may have", setup.workgroups));
        };
        if !setup.subgroup_size.is_power_of_two() || setup.subgroup_size > 128 {
            return Err(format!("a subgroup of {} lanes: it must be a power of two up to 128", setup.subgroup_size));
        }
        let mut memory = Vec::new();
        let mut base = Vec::new();
        let mut private_words = 0usize;
        let mut words_in_all = 0usize;
        for v in program.vars.iter() {
            match v.space {
                Space::Private | Space::Function => {
                    base.push(private_words);
                    private_words += v.words as usize;
                    words_in_all += v.words as usize * total as usize;
                }
                Space::Workgroup => {
                    base.push(memory.len());
                    for _ in 0..setup.workgroups {
                        memory.push(vec![0; v.words as usize]);
                    }
                    words_in_all += v.words as usize * setup.workgroups as usize;
                }
                Space::Storage { .. } | Space::Uniform => {
                    base.push(memory.len());
                    let given = v.binding.and_then(|b| setup.buffers.iter().find(|(at, _)| *at == b)).map(|(_, w)| w.clone());
                    let words = match (given, v.runtime_stride) {
                        (Some(mut w), Some(stride)) => {
                            let elements = w.len().saturating_sub(v.words as usize) / stride.max(1) as usize;
                            w.resize(v.words as usize + elements * stride as usize, 0);
                            w
                        }
                        (Some(mut w), None) => {
                            w.resize(v.words as usize, 0);
                            w
                        }
                        (None, Some(_)) => return Err(format!("`{}` is sized by its buffer, and none was given", v.name)),
                        (None, None) => v.init.as_deref().map_or_else(|| vec![0; v.words as usize], <[u32]>::to_vec),
                    };
                    words_in_all += words.len();
                    memory.push(words);
                }
            }
            if words_in_all > MAX_WORDS {
                return Err(format!("the run's memory would pass {MAX_WORDS} words"));
            }
        }
        let mut private = vec![0; private_words];
        for (v, &at) in program.vars.iter().zip(&base) {
            if let (Space::Private, Some(init)) = (v.space, &v.init) {
                private[at..at + init.len()].copy_from_slice(init);
            }
        }
        let invocations = (0..total)
            .map(|i| Invocation {
                workgroup: i / local_size,
                local: i % local_size,
                pc: 0,
                status: Status::Ready,
                regs: vec![0; program.registers as usize],
                private: private.clone(),
            })
            .collect();
        let mut run = Run {
            program,
            workgroup_size: size,
            subgroup_size: setup.subgroup_size,
            workgroups: setup.workgroups,
            overrides,
            invocations,
            memory,
            base,
            epochs: vec![[0; 2]; setup.workgroups as usize],
            seen: Vec::new(),
            findings: Vec::new(),
            reported: Vec::new(),
            steps: 0,
            reach: Vec::new(),
            private_budget: budget.max(1),
        };
        run.reach = reachability(&run.program);
        for i in 0..total {
            run.settle(i);
        }
        Ok(run)
    }

    fn local_size(&self) -> u32 {
        self.workgroup_size.iter().product()
    }

    /// The invocations that can take a step now.
    pub fn ready(&self) -> impl Iterator<Item = u32> + '_ {
        self.invocations.iter().enumerate().filter(|(_, v)| v.status == Status::Ready).map(|(i, _)| i as u32)
    }

    pub fn is_finished(&self) -> bool {
        self.invocations.iter().all(|v| matches!(v.status, Status::Done | Status::Stopped))
    }

    /// A variable's words: `workgroup` picks the copy of a workgroup variable, `invocation` that
    /// of a private or function one.
    pub fn words(&self, var: u32, workgroup: u32, invocation: u32) -> &[u32] {
        let at = self.base[var as usize];
        let v = &self.program.vars[var as usize];
        match v.space {
            Space::Private | Space::Function => &self.invocations[invocation as usize].private[at..at + v.words as usize],
            Space::Workgroup => &self.memory[at + workgroup as usize],
            _ => &self.memory[at],
        }
    }

    /// The words of the buffer bound at `(group, binding)`.
    pub fn buffer(&self, group: u32, binding: u32) -> Option<&[u32]> {
        self.program.binding(group, binding).map(|v| self.words(v, 0, 0))
    }

    /// Steps until every invocation has ended, `pick` choosing among the ready ones (it is given
    /// them in order and returns a position in that list). At most `max_steps` steps.
    pub fn run_to_end(&mut self, mut pick: impl FnMut(&[u32]) -> usize, max_steps: usize) -> Result<(), Halt> {
        let mut ready = Vec::new();
        loop {
            ready.clear();
            ready.extend(self.ready());
            if ready.is_empty() {
                return Ok(());
            }
            if self.steps >= max_steps {
                return Err(Halt::StepBudget(max_steps));
            }
            let at = pick(&ready).min(ready.len() - 1);
            self.step(ready[at])?;
        }
    }

    /// Invocation `i` takes its next step.
    pub fn step(&mut self, i: u32) -> Result<Event, Halt> {
        let inv = &self.invocations[i as usize];
        if inv.status != Status::Ready {
            return Err(Halt::NotReady(i));
        }
        let pc = inv.pc;
        let (workgroup, local) = (inv.workgroup, inv.local);
        self.steps += 1;
        match self.program.instrs[pc as usize].op {
            Op::Barrier { .. } => {
                self.invocations[i as usize].status = Status::AtBarrier;
                self.wake(workgroup, local);
            }
            Op::Subgroup { .. } => {
                self.invocations[i as usize].status = Status::AtSubgroup;
                self.wake(workgroup, local);
            }
            _ => {
                self.execute(i);
                self.settle(i);
                // A lane past the last place it could reach a subgroup operation from frees the
                // lanes waiting there.
                self.wake(workgroup, local);
            }
        }
        Ok(Event { invocation: i, pc })
    }

    /// Runs invocation `i`'s private instructions up to its next step, or its end.
    fn settle(&mut self, i: u32) {
        let mut budget = self.private_budget;
        loop {
            let inv = &self.invocations[i as usize];
            let pc = inv.pc;
            let Some(instr) = self.program.instrs.get(pc as usize).copied() else {
                self.end(i, Status::Done);
                return;
            };
            if instr.is_step(&self.program.vars) {
                return;
            }
            if matches!(instr.op, Op::Return) {
                self.end(i, Status::Done);
                return;
            }
            if budget == 0 {
                self.report(Finding::Spin { invocation: i, pc, instructions: self.private_budget }, 3, pc, 0);
                self.end(i, Status::Stopped);
                return;
            }
            budget -= 1;
            self.execute(i);
        }
    }

    fn end(&mut self, i: u32, status: Status) {
        let inv = &mut self.invocations[i as usize];
        inv.status = status;
        let (workgroup, local) = (inv.workgroup, inv.local);
        self.wake(workgroup, local);
    }

    /// After a change in `workgroup` (a step, an arrival, an end): completes the subgroup
    /// operations that can now go ahead in `local`'s subgroup, and releases the barrier that can.
    ///
    /// The lanes waiting at an operation take it once no other lane of the subgroup can still
    /// come to it: each other lane has ended, waits at a barrier, or stands where the operation
    /// cannot be reached from (lanes that skipped the `if` it is in, say). Should every lane wait
    /// and none of the operations be free to go (lanes at two operations of one loop, each able to
    /// reach the other), the earliest in the kernel goes first.
    fn wake(&mut self, workgroup: u32, local: u32) {
        let size = self.subgroup_size;
        let first = workgroup * self.local_size();
        let subgroup = local / size;
        let lanes: Vec<u32> = (first + subgroup * size..(first + (subgroup + 1) * size).min(first + self.local_size())).collect();
        loop {
            let status = |run: &Run, l: u32| (run.invocations[l as usize].status, run.invocations[l as usize].pc);
            // The lines lanes wait at, each once, in order (kept in order as they are found: no sort).
            let mut pcs: Vec<u32> = Vec::new();
            for &l in &lanes {
                let (st, pc) = status(self, l);
                if st == Status::AtSubgroup && !pcs.contains(&pc) {
                    let at = pcs.iter().position(|&p| p > pc).unwrap_or(pcs.len());
                    pcs.insert(at, pc);
                }
            }
            let free = |run: &Run, x: u32| {
                let reach = run.reaches(x);
                lanes.iter().all(|&l| match status(run, l) {
                    (Status::AtSubgroup, pc) if pc == x => true,
                    (Status::Ready | Status::AtSubgroup, pc) => !reach[pc as usize],
                    _ => true,
                })
            };
            let all_parked = lanes.iter().all(|&l| status(self, l).0 != Status::Ready);
            let Some(pc) = pcs.iter().copied().find(|&x| free(self, x)).or_else(|| pcs.first().copied().filter(|_| all_parked)) else { break };
            let active: Vec<u32> = lanes.iter().copied().filter(|&l| status(self, l) == (Status::AtSubgroup, pc)).collect();
            self.subgroup(&active, pc);
            for &l in &active {
                self.invocations[l as usize].pc += 1;
                self.invocations[l as usize].status = Status::Ready;
            }
            for &l in &active {
                self.settle(l);
            }
        }
        self.release(workgroup);
    }

    /// For the subgroup operation at `x`: from which instructions it can be reached.
    fn reaches(&self, x: u32) -> &[bool] {
        self.reach.iter().find(|(at, _)| *at == x).map_or(&[], |(_, r)| r.as_slice())
    }

    fn release(&mut self, workgroup: u32) {
        let first = workgroup * self.local_size();
        let members = first..first + self.local_size();
        let statuses = || members.clone().map(|m| (m, &self.invocations[m as usize]));
        if statuses().any(|(_, v)| matches!(v.status, Status::Ready | Status::AtSubgroup)) {
            return;
        }
        let waiting: Vec<u32> = statuses().filter(|(_, v)| v.status == Status::AtBarrier).map(|(m, _)| m).collect();
        let Some(&first_waiting) = waiting.first() else { return };
        let pc = self.invocations[first_waiting as usize].pc;
        if let Some((other, v)) = statuses().find(|(_, v)| v.status != Status::AtBarrier || v.pc != pc) {
            let other_pc = (v.status == Status::AtBarrier).then_some(v.pc);
            self.report(Finding::Divergence { pc, waiting: first_waiting, other, other_pc }, 1, pc, other_pc.unwrap_or(u32::MAX));
        }
        let mut orders = [false; 2];
        for &w in &waiting {
            if let Op::Barrier { workgroup: wg, storage } = self.program.instrs[self.invocations[w as usize].pc as usize].op {
                orders[0] |= wg;
                orders[1] |= storage;
            }
        }
        for (epoch, o) in self.epochs[workgroup as usize].iter_mut().zip(orders) {
            *epoch += u32::from(o);
        }
        for &w in &waiting {
            self.invocations[w as usize].pc += 1;
            self.invocations[w as usize].status = Status::Ready;
        }
        for &w in &waiting {
            self.settle(w);
        }
    }

    fn report(&mut self, finding: Finding, kind: u8, a: u32, b: u32) {
        if !self.reported.contains(&(kind, a, b)) {
            self.reported.push((kind, a, b));
            self.findings.push(finding);
        }
    }

    fn builtin(&self, i: u32, which: Builtin) -> u32 {
        let inv = &self.invocations[i as usize];
        let [x, y, _] = self.workgroup_size;
        let local = [inv.local % x, inv.local / x % y, inv.local / (x * y)];
        match which {
            Builtin::LocalId(d) => local[d as usize],
            Builtin::LocalIndex => inv.local,
            Builtin::GlobalId(0) => inv.workgroup * x + local[0],
            Builtin::GlobalId(d) => local[d as usize],
            Builtin::WorkgroupId(0) => inv.workgroup,
            Builtin::WorkgroupId(_) => 0,
            Builtin::NumWorkgroups(0) => self.workgroups,
            Builtin::NumWorkgroups(_) => 1,
            Builtin::SubgroupSize => self.subgroup_size,
            Builtin::SubgroupInvocationId => inv.local % self.subgroup_size,
        }
    }

    /// The block of `memory` (or of the invocation's `private`) that `var` means for `i`, and its
    /// length in words.
    fn place(&self, i: u32, var: u32) -> (Space, usize, usize) {
        let v = &self.program.vars[var as usize];
        let at = self.base[var as usize];
        match v.space {
            Space::Private | Space::Function => (v.space, at, v.words as usize),
            Space::Workgroup => {
                let block = at + self.invocations[i as usize].workgroup as usize;
                (v.space, block, self.memory[block].len())
            }
            _ => (v.space, at, self.memory[at].len()),
        }
    }

    fn read(&self, i: u32, var: u32, offset: usize) -> u32 {
        let (space, at, len) = self.place(i, var);
        if offset >= len {
            return 0;
        }
        match space {
            Space::Private | Space::Function => self.invocations[i as usize].private[at + offset],
            _ => self.memory[at][offset],
        }
    }

    fn write(&mut self, i: u32, var: u32, offset: usize, value: u32) {
        let (space, at, len) = self.place(i, var);
        if offset >= len {
            return;
        }
        match space {
            Space::Private | Space::Function => self.invocations[i as usize].private[at + offset] = value,
            _ => self.memory[at][offset] = value,
        }
    }

    /// Compares an access with the earlier ones to its word, then keeps it.
    fn record(&mut self, i: u32, var: u32, offset: usize, write: bool, atomic: bool) {
        let (space, block, len) = self.place(i, var);
        if !space.is_shared() || offset >= len {
            return;
        }
        let inv = &self.invocations[i as usize];
        let workgroup = inv.workgroup;
        let which = usize::from(space != Space::Workgroup);
        let epoch = self.epochs[workgroup as usize][which];
        let access = Access { invocation: i, pc: inv.pc, write, atomic };
        let mut races = Vec::new();
        if self.seen.len() <= block {
            self.seen.resize_with(block + 1, Vec::new);
        }
        let words = &mut self.seen[block];
        if words.len() < len {
            words.resize_with(len, Vec::new);
        }
        let seen = &mut words[offset];
        for s in seen.iter() {
            let ordered = s.workgroup == workgroup && s.epoch < epoch;
            if s.access.invocation != i && (s.access.write || write) && !(s.access.atomic && atomic) && !ordered {
                races.push(s.access);
            }
        }
        match seen.iter_mut().find(|s| s.access.invocation == i && s.access.write == write && s.access.atomic == atomic) {
            Some(s) => *s = Seen { access, workgroup, epoch },
            None => seen.push(Seen { access, workgroup, epoch }),
        }
        for first in races {
            let (a, b) = (first.pc.min(access.pc), first.pc.max(access.pc));
            self.report(Finding::Race { var, word: offset as u32, first, second: access }, 0, a, b);
        }
    }

    /// Runs the instruction invocation `i` rests on, and moves it on.
    fn execute(&mut self, i: u32) {
        let pc = self.invocations[i as usize].pc;
        let op = self.program.instrs[pc as usize].op;
        let mut next = pc + 1;
        let reg = |run: &Run, r: Reg| run.invocations[i as usize].regs[r as usize];
        match op {
            Op::Const { dst, bits } => self.set(i, dst, bits),
            Op::Copy { dst, src, words } => {
                let regs = &mut self.invocations[i as usize].regs;
                regs.copy_within(src as usize..(src + words) as usize, dst as usize);
            }
            Op::Builtin { dst, which } => {
                let v = self.builtin(i, which);
                self.set(i, dst, v);
            }
            Op::Override { dst, index } => {
                let v = self.overrides.get(index as usize).copied().unwrap_or(0);
                self.set(i, dst, v);
            }
            Op::Arith { op, ty, dst, a, b } => {
                let v = arith(op, ty, reg(self, a), reg(self, b));
                self.set(i, dst, v);
            }
            Op::Select { dst, cond, accept, reject, words } => {
                let src = if reg(self, cond) != 0 { accept } else { reject };
                let regs = &mut self.invocations[i as usize].regs;
                regs.copy_within(src as usize..(src + words) as usize, dst as usize);
            }
            Op::Convert { dst, a, from, to } => {
                let v = convert(reg(self, a), from, to);
                self.set(i, dst, v);
            }
            Op::Pick { dst, base, index, count, words } => {
                let mut at = reg(self, index);
                if at >= count {
                    self.report(Finding::OutOfBounds { invocation: i, pc, index: at, len: count }, 2, pc, 0);
                    at = count.saturating_sub(1);
                }
                let src = (base + at * words) as usize;
                let regs = &mut self.invocations[i as usize].regs;
                regs.copy_within(src..src + words as usize, dst as usize);
            }
            Op::Bound { dst, index, len, var } => {
                let len = if len == 0 { self.runtime_length(i, var) } else { len };
                let mut at = reg(self, index);
                if at >= len {
                    self.report(Finding::OutOfBounds { invocation: i, pc, index: at, len }, 2, pc, 0);
                    at = len.saturating_sub(1);
                }
                self.set(i, dst, at);
            }
            Op::Length { dst, var } => {
                let n = self.runtime_length(i, var);
                self.set(i, dst, n);
            }
            Op::Load { dst, var, offset, words, atomic } => {
                let at = reg(self, offset) as usize;
                for w in 0..words as usize {
                    let v = self.read(i, var, at + w);
                    self.record(i, var, at + w, false, atomic);
                    self.set(i, dst + w as u32, v);
                }
            }
            Op::Store { var, offset, src, words, atomic } => {
                let at = reg(self, offset) as usize;
                for w in 0..words as usize {
                    let v = reg(self, src + w as u32);
                    self.record(i, var, at + w, true, atomic);
                    self.write(i, var, at + w, v);
                }
            }
            Op::Atomic { fun, ty, var, offset, value, compare, dst } => {
                let at = reg(self, offset) as usize;
                let old = self.read(i, var, at);
                let operand = reg(self, value);
                let (new, exchanged) = match fun {
                    AtomicFn::Add => (arith(Arith::Add, ty, old, operand), 0),
                    AtomicFn::Sub => (arith(Arith::Sub, ty, old, operand), 0),
                    AtomicFn::And => (old & operand, 0),
                    AtomicFn::Or => (old | operand, 0),
                    AtomicFn::Xor => (old ^ operand, 0),
                    AtomicFn::Min => (arith(Arith::Min, ty, old, operand), 0),
                    AtomicFn::Max => (arith(Arith::Max, ty, old, operand), 0),
                    AtomicFn::Exchange => (operand, 0),
                    AtomicFn::CompareExchange if old == reg(self, compare) => (operand, 1),
                    AtomicFn::CompareExchange => (old, 0),
                };
                self.record(i, var, at, true, true);
                self.write(i, var, at, new);
                self.set(i, dst, old);
                self.set(i, dst + 1, exchanged);
            }
            Op::BranchIfZero { cond, to } if reg(self, cond) == 0 => next = to,
            Op::BranchIfNonZero { cond, to } if reg(self, cond) != 0 => next = to,
            Op::Jump { to } => next = to,
            Op::BranchIfZero { .. } | Op::BranchIfNonZero { .. } | Op::Return | Op::Barrier { .. } | Op::Subgroup { .. } => {}
        }
        self.invocations[i as usize].pc = next;
    }

    fn runtime_length(&self, i: u32, var: u32) -> u32 {
        let v = &self.program.vars[var as usize];
        let (_, _, len) = self.place(i, var);
        v.runtime_stride.map_or(0, |s| ((len - v.words as usize) / s.max(1) as usize) as u32)
    }

    fn set(&mut self, i: u32, r: Reg, value: u32) {
        self.invocations[i as usize].regs[r as usize] = value;
    }

    /// The lanes `active`, all waiting at the subgroup operation at `pc`, take it together.
    fn subgroup(&mut self, active: &[u32], pc: u32) {
        let Op::Subgroup { fun, ty, dst, arg, extra, words } = self.program.instrs[pc as usize].op else { return };
        let size = self.subgroup_size;
        let lane_of = |run: &Run, l: u32| run.invocations[l as usize].local % size;
        let value = |run: &Run, l: u32, w: u32| run.invocations[l as usize].regs[(arg + w) as usize];
        let by_lane = |lane: u32| active.iter().copied().find(|&l| lane_of(self, l) == lane);
        let mut results: Vec<(u32, Vec<u32>)> = Vec::new();
        for (k, &l) in active.iter().enumerate() {
            let lane = lane_of(self, l);
            let fold = |run: &Run, op: Arith, lanes: &[u32], w: u32| lanes.iter().map(|&m| value(run, m, w)).reduce(|a, b| arith(op, ty, a, b));
            let out: Vec<u32> = match fun {
                SubgroupFn::Ballot => {
                    let mut mask = [0u32; 4];
                    for &m in active {
                        if value(self, m, 0) != 0 {
                            let b = lane_of(self, m);
                            mask[(b / 32) as usize] |= 1 << (b % 32);
                        }
                    }
                    mask.to_vec()
                }
                SubgroupFn::Reduce(op) => (0..words).map(|w| fold(self, op, active, w).unwrap_or(0)).collect(),
                SubgroupFn::InclusiveScan(op) => (0..words).map(|w| fold(self, op, &active[..=k], w).unwrap_or(0)).collect(),
                SubgroupFn::ExclusiveScan(op) => (0..words).map(|w| fold(self, op, &active[..k], w).unwrap_or_else(|| identity(op, ty))).collect(),
                SubgroupFn::All => vec![u32::from(active.iter().all(|&m| value(self, m, 0) != 0))],
                SubgroupFn::Any => vec![u32::from(active.iter().any(|&m| value(self, m, 0) != 0))],
                SubgroupFn::BroadcastFirst => (0..words).map(|w| value(self, active[0], w)).collect(),
                SubgroupFn::Elect => vec![u32::from(k == 0)],
                SubgroupFn::Shuffle | SubgroupFn::ShuffleXor | SubgroupFn::ShuffleUp | SubgroupFn::ShuffleDown => {
                    let e = self.invocations[l as usize].regs[extra as usize];
                    let from = match fun {
                        SubgroupFn::Shuffle => e,
                        SubgroupFn::ShuffleXor => lane ^ e,
                        SubgroupFn::ShuffleUp => lane.wrapping_sub(e),
                        _ => lane.wrapping_add(e),
                    };
                    // A lane that is not active gives no defined value: 0 here.
                    (0..words).map(|w| by_lane(from).map_or(0, |m| value(self, m, w))).collect()
                }
            };
            results.push((l, out));
        }
        for (l, out) in results {
            let regs = &mut self.invocations[l as usize].regs;
            regs[dst as usize..dst as usize + out.len()].copy_from_slice(&out);
        }
    }
}

/// For each subgroup operation of `program`, the instructions from which it can be reached.
fn reachability(program: &Program) -> Vec<(u32, Vec<bool>)> {
    let n = program.instrs.len();
    let mut before: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
    for (pc, instr) in program.instrs.iter().enumerate() {
        let next = (pc + 1) as u32;
        let successors: &[u32] = match instr.op {
            Op::Jump { to } => &[to],
            Op::BranchIfZero { to, .. } | Op::BranchIfNonZero { to, .. } => &[next, to],
            Op::Return => &[],
            _ => &[next],
        };
        for &s in successors {
            before[(s as usize).min(n)].push(pc as u32);
        }
    }
    let mut out = Vec::new();
    for (x, instr) in program.instrs.iter().enumerate() {
        if !matches!(instr.op, Op::Subgroup { .. }) {
            continue;
        }
        let mut reach = vec![false; n + 1];
        let mut stack = vec![x as u32];
        reach[x] = true;
        while let Some(pc) = stack.pop() {
            for &p in &before[pc as usize] {
                if !reach[p as usize] {
                    reach[p as usize] = true;
                    stack.push(p);
                }
            }
        }
        out.push((x as u32, reach));
    }
    out
}

fn identity(op: Arith, ty: Scalar) -> u32 {
    match (op, ty) {
        (Arith::Mul, Scalar::F32) => 1f32.to_bits(),
        (Arith::Mul, _) => 1,
        (Arith::And, _) => u32::MAX,
        (Arith::Min, Scalar::U32) => u32::MAX,
        (Arith::Min, Scalar::I32) => i32::MAX as u32,
        (Arith::Max, Scalar::I32) => i32::MIN as u32,
        (Arith::Min, Scalar::F32) => f32::INFINITY.to_bits(),
        (Arith::Max, Scalar::F32) => f32::NEG_INFINITY.to_bits(),
        _ => 0,
    }
}

/// One scalar operation as WGSL defines it: integers wrap; an integer divided by zero is the
/// dividend and its remainder 0; shifts take the low five bits of the count.
pub fn arith(op: Arith, ty: Scalar, a: u32, b: u32) -> u32 {
    let bool = |x: bool| u32::from(x);
    match ty {
        Scalar::F32 => {
            let (x, y) = (f32::from_bits(a), f32::from_bits(b));
            let f = |v: f32| v.to_bits();
            match op {
                Arith::Add => f(x + y),
                Arith::Sub => f(x - y),
                Arith::Mul => f(x * y),
                Arith::Div => f(x / y),
                Arith::Rem => f(x - y * (x / y).trunc()),
                Arith::Eq => bool(x == y),
                Arith::Ne => bool(x != y),
                Arith::Lt => bool(x < y),
                Arith::Le => bool(x <= y),
                Arith::Gt => bool(x > y),
                Arith::Ge => bool(x >= y),
                Arith::Min => f(x.min(y)),
                Arith::Max => f(x.max(y)),
                Arith::Neg => f(-x),
                Arith::Abs => f(x.abs()),
                Arith::IsNan => bool(x.is_nan()),
                Arith::IsInf => bool(x.is_infinite()),
                Arith::Sqrt => f(x.sqrt()),
                Arith::Floor => f(x.floor()),
                Arith::Ceil => f(x.ceil()),
                Arith::Log2 => f(x.log2()),
                Arith::Exp2 => f(x.exp2()),
                _ => arith(op, Scalar::U32, a, b),
            }
        }
        Scalar::I32 => {
            let (x, y) = (a as i32, b as i32);
            match op {
                Arith::Div if y == 0 => a,
                Arith::Div => x.wrapping_div(y) as u32,
                Arith::Rem if y == 0 => 0,
                Arith::Rem => x.wrapping_rem(y) as u32,
                Arith::Shr => (x >> (b & 31)) as u32,
                Arith::Lt => bool(x < y),
                Arith::Le => bool(x <= y),
                Arith::Gt => bool(x > y),
                Arith::Ge => bool(x >= y),
                Arith::Min => x.min(y) as u32,
                Arith::Max => x.max(y) as u32,
                Arith::Abs => x.wrapping_abs() as u32,
                Arith::FirstLeadingBit if x == 0 || x == -1 => u32::MAX,
                Arith::FirstLeadingBit if x < 0 => 31 - a.leading_ones(),
                _ => arith(op, Scalar::U32, a, b),
            }
        }
        Scalar::U32 | Scalar::Bool => match op {
            Arith::Add => a.wrapping_add(b),
            Arith::Sub => a.wrapping_sub(b),
            Arith::Mul => a.wrapping_mul(b),
            Arith::Div => a.checked_div(b).unwrap_or(a),
            Arith::Rem => a.checked_rem(b).unwrap_or(0),
            Arith::And => a & b,
            Arith::Or => a | b,
            Arith::Xor => a ^ b,
            Arith::Shl => a << (b & 31),
            Arith::Shr => a >> (b & 31),
            Arith::Eq => bool(a == b),
            Arith::Ne => bool(a != b),
            Arith::Lt => bool(a < b),
            Arith::Le => bool(a <= b),
            Arith::Gt => bool(a > b),
            Arith::Ge => bool(a >= b),
            Arith::Min => a.min(b),
            Arith::Max => a.max(b),
            Arith::Neg => a.wrapping_neg(),
            Arith::Not if ty == Scalar::Bool => bool(a == 0),
            Arith::Not => !a,
            Arith::Abs => a,
            Arith::CountOneBits => a.count_ones(),
            Arith::ReverseBits => a.reverse_bits(),
            Arith::FirstLeadingBit if a == 0 => u32::MAX,
            Arith::FirstLeadingBit => 31 - a.leading_zeros(),
            Arith::FirstTrailingBit if a == 0 => u32::MAX,
            Arith::FirstTrailingBit => a.trailing_zeros(),
            Arith::CountLeadingZeros => a.leading_zeros(),
            Arith::CountTrailingZeros => a.trailing_zeros(),
            Arith::IsNan | Arith::IsInf => 0,
            Arith::Sqrt | Arith::Floor | Arith::Ceil | Arith::Log2 | Arith::Exp2 => a,
        },
    }
}

/// A value conversion: floats to integers saturate (NaN to 0), as WGSL's do.
pub fn convert(a: u32, from: Scalar, to: Scalar) -> u32 {
    match (from, to) {
        (_, Scalar::Bool) if from == Scalar::F32 => u32::from(f32::from_bits(a) != 0.0),
        (_, Scalar::Bool) => u32::from(a != 0),
        (Scalar::F32, Scalar::U32) => f32::from_bits(a) as u32,
        (Scalar::F32, Scalar::I32) => f32::from_bits(a) as i32 as u32,
        (Scalar::U32, Scalar::F32) => (a as f32).to_bits(),
        (Scalar::I32, Scalar::F32) => (a as i32 as f32).to_bits(),
        (Scalar::Bool, Scalar::F32) => {
            if a != 0 {
                1f32.to_bits()
            } else {
                0
            }
        }
        _ => a,
    }
}
