//! What a link to a lesson carries: its variant, the model's threads, schedule, step and
//! hand-chosen ticks, and the GPU sizes. Shared by every lesson; each names its variants.

use crate::gpu::params::{GpuParams, MAX_INVOCATIONS};
use crate::model::{Machine, Schedule, Session};
use std::ops::RangeInclusive;

/// A lesson's program choice: its name in links, and the model machine it starts.
pub trait LessonVariant: Copy + PartialEq + std::fmt::Debug + 'static {
    /// The values `variant=` (or the lesson's own [`Self::KEY`]) accepts; empty when the
    /// lesson has one program.
    const NAMES: &'static [&'static str];
    /// The link parameter that names the variant.
    const KEY: &'static str = "variant";
    /// Whether the lesson's GPU panel takes the reader's invocations and workgroup size.
    const GPU_SIZES: bool = true;
    /// The sizes its GPU panel opens with.
    const GPU_DEFAULT: GpuParams = GpuParams::DEFAULT;
    const DEFAULT: Self;
    /// Model threads the lesson can show, and how many it starts with.
    const THREADS: RangeInclusive<usize>;
    const DEFAULT_THREADS: usize;
    fn name(self) -> &'static str;
    fn from_name(name: &str) -> Option<Self>;
    fn machine(self, threads: usize) -> Machine;

    /// One thing to try with this variant in the model, and what to notice: shown in the model
    /// panel, so the reader is taught while stepping rather than before.
    fn try_this(self) -> &'static str {
        ""
    }

    /// Reads the lesson's own link parameters into `self`, with a message for each refused
    /// one. Returns the thread count they imply, if they imply one.
    fn read_extra(&mut self, _get: &dyn Fn(&str) -> Option<String>, _problems: &mut Vec<String>) -> Option<usize> {
        None
    }

    /// The lesson's own link parameters, for a model of `threads` threads.
    fn extra_pairs(&self, _threads: usize) -> Vec<(&'static str, String)> {
        Vec::new()
    }
}

/// Everything a link to a lesson can set. Every field has a default, and every value
/// read from a URL is checked: a bad one falls back to the default with a message saying so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonSettings<V> {
    pub variant: V,
    pub threads: usize,
    pub schedule: Schedule,
    pub step: usize,
    /// Ticks chosen by hand (or under an earlier schedule) before `schedule` takes over.
    pub ticks: Vec<Vec<usize>>,
    pub gpu: GpuParams,
}

impl<V: LessonVariant> Default for LessonSettings<V> {
    fn default() -> Self {
        LessonSettings { variant: V::DEFAULT, threads: V::DEFAULT_THREADS, schedule: Schedule::Lockstep, step: 0, ticks: Vec::new(), gpu: V::GPU_DEFAULT }
    }
}

impl<V: LessonVariant> LessonSettings<V> {
    /// Reads settings through `get` (a URL's query, say); returns them and one message per
    /// value that was refused.
    pub fn parse(get: impl Fn(&str) -> Option<String>) -> (Self, Vec<String>) {
        use super::param::{in_range, one_of};
        let mut s = Self::default();
        let mut problems = Vec::new();
        let seed = match get("seed").map(|v| in_range("seed", &v, 0u64..=u64::MAX)) {
            Some(Err(e)) => {
                problems.push(e);
                1
            }
            Some(Ok(n)) => n,
            None => 1,
        };
        if let Some(v) = get(V::KEY).filter(|_| !V::NAMES.is_empty()) {
            match one_of(V::KEY, &v, V::NAMES) {
                Ok(name) => s.variant = V::from_name(name).unwrap_or(V::DEFAULT),
                Err(e) => problems.push(e),
            }
        }
        let implied = s.variant.read_extra(&get, &mut problems);
        let mut note = |r: Result<(), String>| {
            if let Err(e) = r {
                problems.push(e);
            }
        };
        if let Some(n) = implied {
            s.threads = n;
        }
        if let Some(v) = get("threads") {
            let range = *V::THREADS.start() as u64..=*V::THREADS.end() as u64;
            match (in_range("threads", &v, range), implied) {
                (Ok(n), Some(m)) if n as usize != m => {
                    note(Err(format!("threads={} was ignored: the link lists {m} operands, one per thread", super::param::quote(&v))))
                }
                (r, _) => note(r.map(|n| s.threads = n as usize)),
            }
        }
        if let Some(v) = get("ticks") {
            note(super::permalink::parse_ticks(&v, s.threads).map(|t| s.ticks = t));
        }
        if let Some(v) = get("schedule") {
            note(one_of("schedule", &v, &Schedule::NAMES).map(|name| s.schedule = Schedule::from_name(name, seed).unwrap_or(s.schedule)));
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
    pub fn capture(variant: V, session: &Session, gpu: GpuParams) -> Self {
        LessonSettings {
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
        let mut pairs = Vec::new();
        if !V::NAMES.is_empty() {
            pairs.push((V::KEY, self.variant.name().to_owned()));
        }
        pairs.extend(self.variant.extra_pairs(self.threads));
        pairs.push(("threads", self.threads.to_string()));
        pairs.push(("schedule", self.schedule.name().to_owned()));
        if let Schedule::Random { seed } = self.schedule {
            pairs.push(("seed", seed.to_string()));
        }
        if !self.ticks.is_empty() {
            pairs.push(("ticks", super::permalink::format_ticks(&self.ticks)));
        }
        pairs.push(("step", self.step.to_string()));
        if V::GPU_SIZES {
            pairs.push(("invocations", self.gpu.invocations.to_string()));
            pairs.push(("workgroup", self.gpu.workgroup_size.to_string()));
        }
        pairs
    }

    /// The run the controls name once the program or the thread count changes under `from`:
    /// the new machine under `from`'s schedule, at `from`'s step (or the new run's end, if it is
    /// shorter). Nothing of `from`'s order is kept but the reader's own picks under the manual
    /// schedule, taken again as far as the new machine allows: what a fresh load of the page's
    /// link then gives.
    pub fn after_switch(variant: V, threads: usize, from: &Session) -> Session {
        let manual = from.schedule() == Schedule::Manual;
        let ticks = if manual { from.chosen_ticks() } else { Vec::new() };
        let settings = LessonSettings { variant, threads, schedule: from.schedule(), step: from.cursor(), ticks, gpu: V::GPU_DEFAULT };
        settings.session().0
    }

    /// The model run these settings describe, at their step, and a message for each part of
    /// them that could not be followed. Never inlined: a page opens its link and rebuilds its
    /// run after a switch ([`Self::after_switch`]) with one copy of it.
    #[inline(never)]
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
