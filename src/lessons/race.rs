//! The race-condition lesson: `counter++` from many threads, racy or atomic.

use crate::gpu::kernels::Kernel;
use crate::model::{Instr, Line, Machine, Program, Schedule, Session};
use std::ops::RangeInclusive;
use std::sync::Arc;

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "race",
    title: "The lost update",
    summary: "counter++ from many threads: watch an update vanish, then fix it with atomicAdd.",
};

/// The one memory cell of this lesson.
pub const COUNTER: usize = 0;
/// The one register each thread uses.
pub const VALUE: usize = 0;

/// Model threads the lesson can show: a few to follow by eye, up to a whole 64-lane
/// wavefront to see lockstep collapse it to one.
pub const MODEL_THREADS: RangeInclusive<usize> = 2..=64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `atomicLoad`, add, `atomicStore`: three steps with a window between them.
    Racy,
    /// `atomicAdd`: one indivisible step.
    Atomic,
}

impl Variant {
    pub fn name(self) -> &'static str {
        match self {
            Variant::Racy => "racy",
            Variant::Atomic => "atomic",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "racy" => Some(Variant::Racy),
            "atomic" => Some(Variant::Atomic),
            _ => None,
        }
    }

    /// The model program. Its markers name lines of [`Variant::kernel`]'s source.
    pub fn program(self) -> Program {
        let lines = match self {
            Variant::Racy => vec![
                Line { instr: Instr::Load { reg: VALUE, addr: COUNTER }, marker: "load" },
                Line { instr: Instr::AddImm { reg: VALUE, imm: 1 }, marker: "add" },
                Line { instr: Instr::Store { addr: COUNTER, reg: VALUE }, marker: "store" },
            ],
            Variant::Atomic => vec![Line {
                instr: Instr::AtomicAdd { reg: VALUE, addr: COUNTER, imm: 1 },
                marker: "atomic-add",
            }],
        };
        Program { lines, memory_names: vec!["counter"], register_names: vec!["value"] }
    }

    /// A fresh model: `threads` threads, the counter at 0.
    pub fn machine(self, threads: usize) -> Machine {
        Machine::new(Arc::new(self.program()), threads, vec![0])
    }

    /// The kernel the GPU panel dispatches.
    pub fn kernel(self) -> Kernel {
        match self {
            Variant::Racy => Kernel::RaceRacy,
            Variant::Atomic => Kernel::RaceAtomic,
        }
    }

    /// The instrumented kernel that records each access for the replay.
    pub fn replay_kernel(self) -> Kernel {
        match self {
            Variant::Racy => Kernel::RaceReplayRacy,
            Variant::Atomic => Kernel::RaceReplayAtomic,
        }
    }

    /// Final counts the rules allow after `n` increments from 0.
    ///
    /// Racy: every store writes one more than some value already in the counter, so the final
    /// value is at least 1 and at most `n`; any value in between can happen. Atomic: exactly
    /// `n`. The host tests check this against every interleaving of the model.
    pub fn allowed_final_counts(self, n: u32) -> RangeInclusive<u32> {
        match (self, n) {
            (_, 0) => 0..=0,
            (Variant::Racy, n) => 1..=n,
            (Variant::Atomic, n) => n..=n,
        }
    }
}

/// The parameters of one GPU run, as the reader set them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuParams {
    pub invocations: u32,
    pub workgroup_size: u32,
}

impl GpuParams {
    pub const DEFAULT: GpuParams = GpuParams { invocations: 1024, workgroup_size: 64 };

    pub fn workgroups(&self) -> u32 {
        self.invocations.div_ceil(self.workgroup_size)
    }
}

/// Upper bound on invocations, whatever the adapter allows: enough to show the effect, small
/// enough that "run 100×" stays quick on a software rasteriser.
pub const MAX_INVOCATIONS: u32 = 1 << 22;

/// The slice of an adapter's limits that this lesson depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComputeLimits {
    pub max_workgroup_size_x: u32,
    pub max_invocations_per_workgroup: u32,
    pub max_workgroups_per_dimension: u32,
}

/// Checks the reader's sizes against the adapter's limits, with a message that says which
/// limit was hit and what to choose instead.
pub fn check_params(p: GpuParams, limits: &ComputeLimits) -> Result<GpuParams, String> {
    let max_wg = limits.max_workgroup_size_x.min(limits.max_invocations_per_workgroup);
    if p.workgroup_size == 0 || p.workgroup_size > max_wg {
        return Err(format!(
            "workgroup size must be between 1 and {max_wg} on this GPU (got {})",
            p.workgroup_size
        ));
    }
    if p.invocations == 0 || p.invocations > MAX_INVOCATIONS {
        return Err(format!(
            "invocations must be between 1 and {MAX_INVOCATIONS} (got {})",
            p.invocations
        ));
    }
    if p.workgroups() > limits.max_workgroups_per_dimension {
        return Err(format!(
            "{} invocations in workgroups of {} need {} workgroups, but this GPU allows {} in one \
             dimension: use larger workgroups or fewer invocations",
            p.invocations,
            p.workgroup_size,
            p.workgroups(),
            limits.max_workgroups_per_dimension
        ));
    }
    Ok(p)
}

/// Most invocations the replay records: enough to see a pattern, few enough to read.
pub const MAX_REPLAY_INVOCATIONS: u32 = 16;

/// Everything a link to this lesson can set. Every field has a default, and every value
/// read from a URL is checked: a bad one falls back to the default with a message saying so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceSettings {
    pub variant: Variant,
    pub threads: usize,
    pub schedule: Schedule,
    pub step: usize,
    /// Ticks chosen by hand (or under an earlier schedule) before `schedule` takes over.
    pub ticks: Vec<Vec<usize>>,
    pub gpu: GpuParams,
}

impl Default for RaceSettings {
    fn default() -> Self {
        RaceSettings {
            variant: Variant::Racy,
            threads: 4,
            schedule: Schedule::Lockstep,
            step: 0,
            ticks: Vec::new(),
            gpu: GpuParams::DEFAULT,
        }
    }
}

impl RaceSettings {
    /// Reads settings through `get` (a URL's query, say); returns them and one message per
    /// value that was refused.
    pub fn parse(get: impl Fn(&str) -> Option<String>) -> (RaceSettings, Vec<String>) {
        use super::param::{in_range, one_of};
        let mut s = RaceSettings::default();
        let mut problems = Vec::new();
        let seed = match get("seed").map(|v| in_range("seed", &v, 0u64..=u64::MAX)) {
            Some(Err(e)) => {
                problems.push(e);
                1
            }
            Some(Ok(n)) => n,
            None => 1,
        };
        let mut note = |r: Result<(), String>| {
            if let Err(e) = r {
                problems.push(e);
            }
        };
        if let Some(v) = get("variant") {
            note(one_of("variant", &v, &["racy", "atomic"]).map(|v| s.variant = Variant::from_name(v).unwrap_or(Variant::Racy)));
        }
        if let Some(v) = get("threads") {
            let range = *MODEL_THREADS.start() as u64..=*MODEL_THREADS.end() as u64;
            note(in_range("threads", &v, range).map(|n| s.threads = n as usize));
        }
        if let Some(v) = get("ticks") {
            note(super::permalink::parse_ticks(&v, s.threads).map(|t| s.ticks = t));
        }
        if let Some(v) = get("schedule") {
            note(one_of("schedule", &v, &Schedule::NAMES).map(|name| {
                s.schedule = Schedule::from_name(name, seed).unwrap_or(s.schedule)
            }));
        }
        if let Some(v) = get("step") {
            note(in_range("step", &v, 0u64..=crate::model::MAX_TICKS as u64).map(|n| s.step = n as usize));
        }
        if let Some(v) = get("invocations") {
            note(in_range("invocations", &v, 1u64..=u64::from(MAX_INVOCATIONS)).map(|n| s.gpu.invocations = n as u32));
        }
        if let Some(v) = get("workgroup") {
            note(in_range("workgroup", &v, 1u64..=1024).map(|n| s.gpu.workgroup_size = n as u32));
        }
        (s, problems)
    }

    /// The settings that reopen `session` where it stands, with the GPU sizes the reader chose.
    pub fn capture(variant: Variant, session: &Session, gpu: GpuParams) -> RaceSettings {
        RaceSettings {
            variant,
            threads: session.start().threads.len(),
            schedule: session.schedule(),
            step: session.cursor(),
            ticks: session.chosen_ticks(),
            gpu,
        }
    }

    /// The query pairs of a link to these settings; `seed` and `ticks` only where they matter.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![
            ("variant", self.variant.name().to_owned()),
            ("threads", self.threads.to_string()),
            ("schedule", self.schedule.name().to_owned()),
        ];
        if let Schedule::Random { seed } = self.schedule {
            pairs.push(("seed", seed.to_string()));
        }
        if !self.ticks.is_empty() {
            pairs.push(("ticks", super::permalink::format_ticks(&self.ticks)));
        }
        pairs.push(("step", self.step.to_string()));
        pairs.push(("invocations", self.gpu.invocations.to_string()));
        pairs.push(("workgroup", self.gpu.workgroup_size.to_string()));
        pairs
    }

    /// The model run these settings describe, at their step, and a message for each part of
    /// them that could not be followed.
    pub fn session(&self) -> (Session, Vec<String>) {
        let mut problems = Vec::new();
        let mut session = Session::new(self.variant.machine(self.threads), self.schedule);
        for (i, tick) in self.ticks.iter().enumerate() {
            if let Err(e) = session.take_tick(tick) {
                problems.push(format!("ticks: tick {} could not be taken ({e}); the link's history stops there", i + 1));
                break;
            }
        }
        session.run_to_end();
        let reached = session.seek(self.step);
        if reached < self.step {
            problems.push(format!("step={} is past the end of this run; showing its last step, {reached}", self.step));
        }
        (session, problems)
    }
}
