//! `?lesson=playground`: the reader's own kernel. The page lowers whatever WGSL the reader
//! writes (naga's front end and validator run in the page: this page alone carries them), runs
//! it once to its end to find its races, then steps it with the lessons' scene.
//!
//! This file is the part without a browser: reading the reader's text and sizes, the buffers a
//! kernel's bindings ask for and how each is filled, and the run that finds what is wrong.

pub mod gpu;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_playground.rs"));
}
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::model::kernel::{self, Show};
use crate::model::Machine;
use std::sync::Arc;
use stepper::ir::Space;
use stepper::run::{Finding, Run, Setup};

pub mod kernels {
    use crate::gpu::Kernel;

    /// The kernel the page opens with: a racy sum to change.
    pub const STARTER: Kernel = crate::kernel!("playground", "starter.wgsl");
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "playground",
    title: "Your own kernel",
    summary: "Write a compute kernel, step it invocation by invocation, and see every race it has named with both its lines.",
    chapter: super::Chapter::Playground,
    kernels: &[kernels::STARTER],
    #[cfg(not(target_arch = "wasm32"))]
    models: Vec::new,
    preview: None,
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::Playground()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[],
};

/// The longest kernel the page takes, in bytes: ten times the longest the site ships.
pub const MAX_SOURCE_BYTES: usize = 64 * 1024;
/// Most workgroups a stepped run may have.
pub const MAX_WORKGROUPS: u32 = 8;
/// Most invocations a stepped run may have, all workgroups together: enough for a scene, few
/// enough that a run to the end stays quick.
pub const MAX_INVOCATIONS: u32 = 256;
/// Most elements the reader may give a runtime-sized array.
pub const MAX_ELEMENTS: u32 = 4096;
/// Steps the run that finds what is wrong may take before it says the kernel does not end.
pub const STEP_BUDGET: usize = 20_000;

/// How a buffer's words start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fill {
    Zeros,
    /// Word `i` holds `i`.
    Index,
    /// Words from a small generator seeded with this number: the same seed, the same words.
    Random(u32),
    /// These words first, zeros after.
    List(Vec<u32>),
}

impl Fill {
    /// `zeros`, `index`, `random`, `random:7` or a list of numbers (`64` or `3,1,2`).
    pub fn parse(text: &str) -> Result<Fill, String> {
        let text = text.trim();
        match text {
            "" | "zeros" => return Ok(Fill::Zeros),
            "index" => return Ok(Fill::Index),
            "random" => return Ok(Fill::Random(1)),
            _ => {}
        }
        if let Some(seed) = text.strip_prefix("random:") {
            return seed.trim().parse().map(Fill::Random).map_err(|_| format!("\"{seed}\" is no seed: write random:7, say"));
        }
        let words: Result<Vec<u32>, String> = text
            .split(',')
            .map(|w| {
                let w = w.trim();
                w.parse::<u32>().or_else(|_| w.parse::<i32>().map(|i| i as u32)).map_err(|_| format!("\"{w}\" is not a 32-bit number"))
            })
            .collect();
        let words = words.map_err(|e| format!("{e}: a buffer starts as zeros, index, random, random:<seed> or a list such as 3,1,2"))?;
        if words.len() > MAX_ELEMENTS as usize {
            return Err(format!("a list of {} words: at most {MAX_ELEMENTS}", words.len()));
        }
        Ok(Fill::List(words))
    }

    /// The text [`Fill::parse`] reads back as this fill.
    pub fn text(&self) -> String {
        match self {
            Fill::Zeros => "zeros".into(),
            Fill::Index => "index".into(),
            Fill::Random(seed) => format!("random:{seed}"),
            Fill::List(words) => words.iter().map(u32::to_string).collect::<Vec<_>>().join(","),
        }
    }

    /// `n` words filled this way.
    pub fn words(&self, n: usize) -> Vec<u32> {
        match self {
            Fill::Zeros => vec![0; n],
            Fill::Index => (0..n as u32).collect(),
            Fill::Random(seed) => {
                // xorshift32: small, and the same words in every browser.
                let mut x = seed.wrapping_mul(2_654_435_761).max(1);
                (0..n)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 17;
                        x ^= x << 5;
                        x % 100
                    })
                    .collect()
            }
            Fill::List(words) => {
                let mut w = words.clone();
                w.resize(n, 0);
                w
            }
        }
    }
}

/// A buffer the kernel binds, as the page shows and fills it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    pub name: String,
    pub binding: (u32, u32),
    pub uniform: bool,
    /// `var<storage, read>`: the kernel only reads it.
    pub read_only: bool,
    /// Its words (for a runtime-sized array, with the elements the run gives it).
    pub words: u32,
    /// The element's words, where the buffer ends in a runtime-sized array.
    pub runtime_stride: Option<u32>,
    pub fill: Fill,
}

/// What the reader chose beside the kernel's text. Whatever is left unchosen comes from the
/// kernel's own `// playground:` line (see [`Asks`]), else the defaults: one workgroup, one
/// element per invocation, zeros.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choices {
    pub workgroups: Option<u32>,
    /// Elements of every runtime-sized array.
    pub elements: Option<u32>,
    /// Each buffer's fill, by the variable's name.
    pub fills: Vec<(String, Fill)>,
    pub subgroup_size: u32,
}

impl Default for Choices {
    fn default() -> Self {
        Choices { workgroups: None, elements: None, fills: Vec::new(), subgroup_size: 32 }
    }
}

/// How a kernel asks to be opened, in a comment line of its own text:
///
/// ```text
/// // playground: workgroups=4 workgroup_size=4 params=4,2 a=index
/// ```
///
/// Each word is `name=value`: `workgroups`, `elements`, an override's name and its value, or a
/// buffer's name and its fill ([`Fill::parse`]). The site's kernels carry one, so that a link
/// with the kernel alone opens it doing its lesson's work; a reader's copy keeps it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Asks {
    pub workgroups: Option<u32>,
    pub elements: Option<u32>,
    pub overrides: Vec<(String, u32)>,
    pub fills: Vec<(String, Fill)>,
}

/// The comment that opens a kernel's [`Asks`].
pub const ASKS: &str = "// playground:";

impl Asks {
    /// The asks of `source`'s `// playground:` lines, checked against what `program` declares.
    fn read(source: &str, program: &stepper::Program) -> Result<Asks, Refusal> {
        let mut asks = Asks::default();
        for (n, line) in source.lines().enumerate() {
            let Some(words) = line.trim_start().strip_prefix(ASKS) else { continue };
            let refuse = |reason: String| Refusal { line: n as u32 + 1, column: 1, reason: format!("{ASKS} {reason}") };
            for word in words.split_whitespace() {
                let Some((name, value)) = word.split_once('=') else {
                    return Err(refuse(format!("\"{word}\" is not name=value")));
                };
                let number = |what: &str, most: u32| match value.parse::<u32>() {
                    Ok(v) if (1..=most).contains(&v) => Ok(v),
                    _ => Err(refuse(format!("{what} \"{value}\": a number from 1 to {most}"))),
                };
                match name {
                    "workgroups" => asks.workgroups = Some(number("workgroups", MAX_WORKGROUPS)?),
                    "elements" => asks.elements = Some(number("elements", MAX_ELEMENTS)?),
                    _ if program.overrides.iter().any(|o| o.name == name) => {
                        let v = value.parse::<u32>().or_else(|_| value.parse::<i32>().map(|i| i as u32));
                        asks.overrides.push((name.to_owned(), v.map_err(|_| refuse(format!("{name}: \"{value}\" is not a 32-bit number")))?));
                    }
                    _ if program.vars.iter().any(|v| v.binding.is_some() && v.name == name) => {
                        asks.fills.push((name.to_owned(), Fill::parse(value).map_err(|e| refuse(format!("{name}: {e}")))?));
                    }
                    _ => return Err(refuse(format!("the kernel has no buffer or override named `{name}`"))),
                }
            }
        }
        Ok(asks)
    }
}

/// Where the lowering refused the kernel (its line and column, naga's words or its own), or why
/// the run could not start (line 0).
pub use stepper::lower::Refusal;

fn plain(reason: impl Into<String>) -> Refusal {
    Refusal { line: 0, column: 0, reason: reason.into() }
}

/// A kernel the lowering took, with its buffers as the reader's choices fill them.
#[derive(Clone, Debug)]
pub struct Opened {
    /// The kernel's program and its text, kept for as long as the page lives: the model's
    /// tables name a kernel's program and lines as `'static`, being lowered at build time for
    /// every lesson. A reader's kernel is kept only once it lowers, and once per text.
    pub program: &'static stepper::Program,
    pub source: &'static str,
    pub buffers: Vec<Buffer>,
    pub setup: Setup,
    pub invocations: u32,
    /// Elements each runtime-sized array has: the reader's, the kernel's own line's, or one per
    /// invocation.
    pub elements: u32,
}

impl PartialEq for Opened {
    /// The same kept text, laid out the same: what a view needs to know to draw it again.
    fn eq(&self, other: &Opened) -> bool {
        std::ptr::eq(self.source, other.source) && self.buffers == other.buffers && self.setup.workgroups == other.setup.workgroups && self.invocations == other.invocations
    }
}

/// Lowers `source` and lays out its buffers as `choices` say.
pub fn open(source: &str, choices: &Choices) -> Result<Opened, Refusal> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(plain(format!("the kernel is {} KB: at most {} KB", source.len() / 1024, MAX_SOURCE_BYTES / 1024)));
    }
    if source.trim().is_empty() {
        return Err(plain("there is no kernel yet: write one with an @compute entry point"));
    }
    if let Some(w) = choices.workgroups.filter(|w| !(1..=MAX_WORKGROUPS).contains(w)) {
        return Err(plain(format!("{w} workgroups: the model steps 1 to {MAX_WORKGROUPS}")));
    }
    let program = stepper::lower::lower(source)?;
    let (program, source) = keep(program, source);
    lay_out(program, source, choices)
}

/// The buffers and setup for an already lowered `program`: the reader's choices first, then
/// what the kernel's own text asks for.
fn lay_out(program: &'static stepper::Program, source: &'static str, choices: &Choices) -> Result<Opened, Refusal> {
    let asks = Asks::read(source, program)?;
    let workgroups = choices.workgroups.or(asks.workgroups).unwrap_or(1);
    let size = workgroup_size(program, &asks.overrides)?;
    let invocations = size.saturating_mul(workgroups);
    if invocations > MAX_INVOCATIONS {
        return Err(plain(format!(
            "{workgroups} workgroup(s) of {size} invocations is {invocations}: the model steps at most {MAX_INVOCATIONS} (a smaller @workgroup_size, or fewer workgroups)"
        )));
    }
    let elements = choices.elements.or(asks.elements).unwrap_or(invocations);
    if elements > MAX_ELEMENTS {
        return Err(plain(format!("{elements} elements: a runtime-sized array takes at most {MAX_ELEMENTS}")));
    }
    let buffers: Vec<Buffer> = program
        .vars
        .iter()
        .filter_map(|v| {
            let binding = v.binding?;
            let uniform = matches!(v.space, Space::Uniform);
            let read_only = matches!(v.space, Space::Storage { writable: false });
            let words = v.words + v.runtime_stride.map_or(0, |s| s * elements);
            let fill = choices.fills.iter().chain(&asks.fills).find(|(n, _)| *n == v.name).map_or_else(|| default_fill(v, invocations), |(_, f)| f.clone());
            Some(Buffer { name: v.name.to_string(), binding, uniform, read_only, words, runtime_stride: v.runtime_stride, fill })
        })
        .collect();
    for (name, _) in &choices.fills {
        if !buffers.iter().any(|b| &b.name == name) {
            return Err(plain(format!("the kernel binds no buffer named `{name}`")));
        }
    }
    let setup = Setup {
        workgroups,
        subgroup_size: choices.subgroup_size,
        overrides: asks.overrides,
        buffers: buffers.iter().map(|b| (b.binding, b.fill.words(b.words as usize))).collect(),
    };
    Ok(Opened { program, source, buffers, setup, invocations, elements })
}

/// How a buffer starts unless the reader says: zeros, but for a uniform's field named
/// `invocations`, which holds the run's invocation count. The site's kernels size their work by
/// one (`if id.x >= params.invocations { return; }`), so each opens here doing its work.
fn default_fill(v: &stepper::ir::Var, invocations: u32) -> Fill {
    let at = v.fields.iter().find(|(_, name)| name == "invocations").map(|(at, _)| *at);
    match (v.space, at) {
        (Space::Uniform, Some(at)) => {
            let mut words = vec![0; at as usize + 1];
            words[at as usize] = invocations;
            Fill::List(words)
        }
        _ => Fill::Zeros,
    }
}

/// The kernel's workgroup size, from its attribute and its overrides' values, as a run takes
/// it, without starting one: a run settles every invocation first, which for a kernel that
/// spins is most of the work of reading it.
fn workgroup_size(program: &stepper::Program, overrides: &[(String, u32)]) -> Result<u32, Refusal> {
    let mut size = 1u32;
    for s in program.workgroup_size {
        let n = match s {
            stepper::ir::Size::Fixed(n) => n,
            stepper::ir::Size::Override(i) => {
                let o = program.overrides.get(i as usize).ok_or_else(|| plain("the workgroup size names an override the kernel lacks"))?;
                let set = overrides.iter().find(|(name, _)| *name == o.name).map(|&(_, v)| v);
                set.or(o.default).ok_or_else(|| plain(format!("the override `{}` has no value", o.name)))?
            }
        };
        size = size.saturating_mul(n);
    }
    if size == 0 {
        return Err(plain("the workgroup size must be at least 1"));
    }
    Ok(size)
}

/// `program` and `source` for the life of the page. The text last kept is kept once: typing a
/// kernel back as it was reuses it.
fn keep(program: stepper::Program, source: &str) -> (&'static stepper::Program, &'static str) {
    thread_local! {
        static KEPT: std::cell::RefCell<Vec<(&'static str, &'static stepper::Program)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        if let Some(&(s, p)) = kept.iter().find(|(s, _)| *s == source) {
            return (p, s);
        }
        let pair: (&'static str, &'static stepper::Program) = (Box::leak(source.into()), Box::leak(Box::new(program)));
        kept.push(pair);
        (pair.1, pair.0)
    })
}

/// One thing a run to the end found, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub kind: Kind,
    pub text: String,
    /// The kernel lines it names (1-based), and the invocations.
    pub lines: Vec<usize>,
    pub invocations: Vec<u32>,
    /// Steps of [`Analysis::order`] taken when it was found: replayed, they show it happen.
    pub at_step: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Race,
    Divergence,
    OutOfBounds,
    Spin,
}

/// What running the kernel once to its end found.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub found: Vec<Found>,
    pub steps: usize,
    /// The invocation that took each step of the run, first to last.
    pub order: Vec<u32>,
    /// Why the run stopped before every invocation ended: the step budget, most likely a wait
    /// for something no invocation does.
    pub unfinished: Option<String>,
}

impl Analysis {
    pub fn count(&self, kind: Kind) -> usize {
        self.found.iter().filter(|f| f.kind == kind).count()
    }
}

/// The model the page steps: the kernel's invocations at their first steps.
pub fn machine(opened: &Opened) -> Result<Machine, Refusal> {
    kernel::machine_of(opened.program, opened.source, start(opened)?, Show::default()).map_err(plain)
}

/// Private instructions every step of all the invocations may run together, before one is
/// stopped as a spin: a reader's 256 invocations that each spin then cost a page a tenth of a
/// second to start, not seconds.
const PRIVATE_WORK: u32 = 1_000_000;

/// A run of the opened kernel, each step's private work cut at its share of [`PRIVATE_WORK`].
fn start(opened: &Opened) -> Result<Run, Refusal> {
    let budget = (PRIVATE_WORK / opened.invocations.max(1)).clamp(2_000, stepper::run::PRIVATE_BUDGET);
    Run::with_private_budget(Arc::new(opened.program.borrowed()), &opened.setup, budget).map_err(plain)
}

/// Runs the kernel once to its end, invocations taking turns, and says what it found. A race is
/// found whatever the order, as the checkers of GPU code find them: by comparing each access
/// with the earlier ones to its word that no barrier orders before it.
pub fn analyse(opened: &Opened) -> Result<Analysis, Refusal> {
    read(opened).map(|(analysis, _, _)| analysis)
}

/// What a page needs of a kernel it has opened: what one run to the end found, the model to
/// step, and the search for its final memories, all from one start (settling every invocation
/// once is most of the work of starting).
pub fn read(opened: &Opened) -> Result<(Analysis, Machine, Search), Refusal> {
    let run = start(opened)?;
    let model = kernel::machine_of(opened.program, opened.source, run.clone(), Show::default()).map_err(plain)?;
    let analysis = analyse_from(&model, run.clone());
    Ok((analysis, model, Search::from_start(opened, run)))
}

/// [`analyse`], from `model` and its run as started.
fn analyse_from(model: &Machine, mut run: Run) -> Analysis {
    let mut last = None::<u32>;
    let mut order = Vec::new();
    // The step each finding was made at (those made as the run started: none).
    let mut found_at = vec![0; run.findings.len()];
    let mut unfinished = None;
    loop {
        let ready: Vec<u32> = run.ready().collect();
        if ready.is_empty() {
            break;
        }
        if run.steps >= STEP_BUDGET {
            unfinished = Some(stepper::run::Halt::StepBudget(STEP_BUDGET).to_string());
            break;
        }
        // Round-robin: the first ready invocation after the one that moved last.
        let i = ready[last.map_or(0, |l| ready.iter().position(|&i| i > l).unwrap_or(0))];
        last = Some(i);
        if let Err(halt) = run.step(i) {
            unfinished = Some(halt.to_string());
            break;
        }
        order.push(i);
        found_at.resize(run.findings.len(), order.len());
    }
    let line = |pc: u32| model.program().source_line(pc as usize, "").unwrap_or(0);
    let found = run
        .findings
        .iter()
        .zip(found_at)
        .map(|(f, at_step)| {
            let (kind, pcs, invocations) = match *f {
                Finding::Race { first, second, .. } => (Kind::Race, vec![first.pc, second.pc], vec![first.invocation, second.invocation]),
                Finding::Divergence { pc, waiting, other, other_pc } => {
                    (Kind::Divergence, std::iter::once(pc).chain(other_pc).collect(), vec![waiting, other])
                }
                Finding::OutOfBounds { invocation, pc, .. } => (Kind::OutOfBounds, vec![pc], vec![invocation]),
                Finding::Spin { invocation, pc, .. } => (Kind::Spin, vec![pc], vec![invocation]),
            };
            Found { kind, text: kernel::finding_text(model.program(), f), lines: pcs.into_iter().map(line).collect(), invocations, at_step }
        })
        .collect();
    Analysis { found, steps: run.steps, order, unfinished }
}

/// Steps the search for every final memory may take, over all the orders it tries.
pub const OUTCOME_BUDGET: usize = 40_000;
/// Orders tried at random when the search cannot try them all.
pub const SAMPLES: usize = 300;
/// Words of states the search for every order may hold (those met, and those waiting on its
/// stack), about 32 MB: past it, orders are sampled instead. A kernel with a big memory fills it
/// long before it has taken [`OUTCOME_BUDGET`] steps.
pub const KEPT_WORDS: usize = 8 << 20;

/// A final memory the model can end with, and one order of steps that ends there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The storage buffers' words, in the order of [`Opened::buffers`], uniforms left out: what
    /// the GPU panel reads back.
    pub memory: Vec<Vec<u32>>,
    /// The invocation that took each step, first to last.
    pub schedule: Vec<u32>,
}

/// The final memories the model reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reachable {
    pub outcomes: Vec<Outcome>,
    /// Every order of steps was tried (states reached twice tried once); otherwise
    /// [`SAMPLES`] orders chosen at random were, and a memory none of them reached may still be
    /// reachable.
    pub every_order: bool,
    /// Orders that did not end within [`STEP_BUDGET`] steps.
    pub unfinished: usize,
}

impl Reachable {
    pub fn contains(&self, memory: &[Vec<u32>]) -> bool {
        self.outcomes.iter().any(|o| o.memory == memory)
    }
}

/// The storage buffers' words of `run`, as [`Outcome::memory`] holds them.
fn final_memory(opened: &Opened, run: &Run) -> Vec<Vec<u32>> {
    opened.buffers.iter().filter(|b| !b.uniform).map(|b| run.buffer(b.binding.0, b.binding.1).map(<[u32]>::to_vec).unwrap_or_default()).collect()
}

/// Everything a later step can depend on: shared memory, and each invocation's place, values
/// and status. Two orders that reach equal states end the same ways.
fn state_of(run: &Run) -> Vec<u32> {
    let mut key = Vec::new();
    for (v, var) in run.program.vars.iter().enumerate() {
        if var.space.is_shared() {
            for workgroup in 0..if var.space == Space::Workgroup { run.workgroups } else { 1 } {
                key.extend_from_slice(run.words(v as u32, workgroup, 0));
            }
        }
    }
    for inv in &run.invocations {
        key.extend([inv.pc, inv.status as u32, u32::MAX]);
        key.extend_from_slice(&inv.regs);
        key.extend_from_slice(&inv.private);
    }
    key
}

/// The search for every final memory, done a slice at a time so that a page can let the
/// browser draw between slices: every order of steps while there are few enough (each state
/// met once, within [`OUTCOME_BUDGET`] steps and [`KEPT_WORDS`] of states), then [`SAMPLES`]
/// orders at random.
pub struct Search {
    opened: Opened,
    start: Run,
    found: Vec<Outcome>,
    seen: std::collections::HashSet<Vec<u32>>,
    stack: Vec<(Run, Vec<u32>)>,
    steps: usize,
    /// Words held in `seen`, and (counted as much again) in the runs on `stack`.
    kept: usize,
    /// What one step weighs against [`Search::advance`]'s `work`.
    weight: usize,
    every_order: bool,
    samples: usize,
    unfinished: usize,
    x: u32,
}

impl Search {
    pub fn new(opened: &Opened) -> Result<Search, Refusal> {
        Ok(Search::from_start(opened, start(opened)?))
    }

    fn from_start(opened: &Opened, start: Run) -> Search {
        Search {
            // A step's work grows with the invocations to choose among, and a copy of the run
            // with its memory.
            weight: start.invocations.len().max(state_of(&start).len() / 16).max(1),
            opened: opened.clone(),
            stack: vec![(start.clone(), Vec::new())],
            start,
            found: Vec::new(),
            seen: std::collections::HashSet::new(),
            steps: 0,
            kept: 0,
            every_order: true,
            samples: 0,
            unfinished: 0,
            x: 0x9e37_79b9,
        }
    }

    fn add(&mut self, memory: Vec<Vec<u32>>, schedule: &[u32]) {
        if !self.found.iter().any(|o| o.memory == memory) {
            self.found.push(Outcome { memory, schedule: schedule.to_vec() });
        }
    }

    /// Goes on for about `work` steps (weighed by the invocations each copy of the run holds);
    /// the answer once the search is over.
    pub fn advance(&mut self, work: usize) -> Option<Reachable> {
        let weight = self.weight;
        let mut done = 0usize;
        // Depth first, each state expanded once.
        while self.every_order {
            let Some((run, schedule)) = self.stack.pop() else {
                return Some(self.answer());
            };
            let ready: Vec<u32> = run.ready().collect();
            if ready.is_empty() {
                self.add(final_memory(&self.opened, &run), &schedule);
                continue;
            }
            for &i in ready.iter().rev() {
                self.steps += 1;
                done += weight;
                let mut next = run.clone();
                if next.step(i).is_err() {
                    continue;
                }
                let state = state_of(&next);
                let words = 2 * state.len();
                if self.seen.insert(state) {
                    self.kept += words;
                    let mut order = schedule.clone();
                    order.push(i);
                    self.stack.push((next, order));
                }
            }
            if self.steps > OUTCOME_BUDGET || self.kept > KEPT_WORDS {
                // Too many orders: sample them instead.
                self.every_order = false;
                self.stack = Vec::new();
                self.seen = std::collections::HashSet::new();
            } else if done >= work {
                return None;
            }
        }
        while self.samples < SAMPLES {
            if done >= work {
                return None;
            }
            self.samples += 1;
            let mut run = self.start.clone();
            let mut order = Vec::new();
            let x = &mut self.x;
            let end = run.run_to_end(
                |ready| {
                    *x ^= *x << 13;
                    *x ^= *x >> 17;
                    *x ^= *x << 5;
                    let at = *x as usize % ready.len();
                    order.push(ready[at]);
                    at
                },
                STEP_BUDGET,
            );
            // A sample's steps cost more with more invocations to choose among and record.
            done += run.steps.max(1) * weight / 8;
            match end {
                Ok(()) => self.add(final_memory(&self.opened, &run), &order),
                Err(_) => self.unfinished += 1,
            }
        }
        Some(self.answer())
    }

    fn answer(&self) -> Reachable {
        Reachable { outcomes: self.found.clone(), every_order: self.every_order, unfinished: self.unfinished }
    }
}

/// [`Search`] in one go.
pub fn reachable(opened: &Opened) -> Result<Reachable, Refusal> {
    let mut search = Search::new(opened)?;
    loop {
        if let Some(r) = search.advance(usize::MAX) {
            return Ok(r);
        }
    }
}
