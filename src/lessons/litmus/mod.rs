//! `?lesson=litmus`, the litmus lab: the reader writes a small test (or opens a classic one),
//! sees every outcome it could end with, which of them sequential consistency reaches and which
//! WGSL's memory model allows, with the reason for each, and runs it on their GPU.
//!
//! This file holds what the page reads from its link and what it shows of a test, both pure;
//! [`generate`] writes the test's kernels, `gpu.rs` runs them, `page.rs` draws it all,
//! [`measured`] reads what a real GPU counted (`data/h100-litmus.json`).

pub mod challenge;
pub mod generate;
pub mod gpu;
pub mod graph;
pub mod measured;
pub mod method;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_litmus.rs"));
}
#[cfg(target_arch = "wasm32")]
pub mod play;
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(target_arch = "wasm32")]
pub mod scene;
pub mod visibility;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::model::litmus::sc::Move;
use crate::model::litmus::wgsl::{self, Execution, Relation, Rule};
use crate::model::litmus::scoped;
use crate::model::litmus::{self as litmus, LitmusTest, Mode, Op, Order, Outcome, Placement, Rmw, LOCATIONS, PRESETS};
use crate::model::Space;
use crate::site::param::one_of;

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "litmus",
    title: "The litmus lab",
    summary: "Write a litmus test: see every outcome, which ones sequential consistency and WGSL's memory model allow and why, and count what your GPU does.",
    chapter: super::Chapter::Lab,
    kernels: &[],
    #[cfg(not(target_arch = "wasm32"))]
    models: Vec::new,
    preview: None,
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::LitmusLab()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("litmus", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile { file: "h100-litmus.json", text: measured::H100_LITMUS, schema: Some(measured::SCHEMA) }],
};

/// Longest test text read from a link or the editor.
pub const MAX_TEXT: usize = 600;
/// Most candidate executions the lab weighs: beyond it, it asks for a smaller test rather than
/// keep the page busy.
pub const MAX_CANDIDATES: u128 = 30_000;

/// Most outcomes the table lists (and the count kernel keeps a counter for): each register and
/// overwritten location multiplies them by the values it may take.
pub const MAX_OUTCOMES: u128 = 4_096;

/// The barrier the `barrier=` modifier puts between each thread's consecutive accesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierModifier {
    None,
    Workgroup,
    Storage,
}

impl BarrierModifier {
    pub const NAMES: [&'static str; 3] = ["none", "workgroup", "storage"];

    pub fn name(self) -> &'static str {
        match self {
            BarrierModifier::None => "none",
            BarrierModifier::Workgroup => "workgroup",
            BarrierModifier::Storage => "storage",
        }
    }

    fn from_name(name: &str) -> BarrierModifier {
        match name {
            "workgroup" => BarrierModifier::Workgroup,
            "storage" => BarrierModifier::Storage,
            _ => BarrierModifier::None,
        }
    }
}

pub fn placement_name(p: Placement) -> &'static str {
    match p {
        Placement::Across => "across",
        Placement::Same => "same",
        Placement::Mixed => "mixed",
    }
}

pub fn memory_name(m: Space) -> &'static str {
    match m {
        Space::Storage => "storage",
        Space::Workgroup => "workgroup",
    }
}

/// What the lab shows: the test's text and how to run it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabSettings {
    pub text: String,
    pub placement: Placement,
    pub memory: Space,
    pub barrier: BarrierModifier,
}

impl Default for LabSettings {
    fn default() -> Self {
        LabSettings { text: preset_text("mp"), placement: Placement::Across, memory: Space::Storage, barrier: BarrierModifier::None }
    }
}

/// A run's counts carried in a link (`results=`), so that a class can set GPUs side by side
/// without a server: the GPU's name and one count per outcome, in the table's order. Written
/// `NVIDIA H100:3986895,796200,286578,4957335`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedResults {
    pub adapter: String,
    pub counts: Vec<u64>,
}

/// The most outcomes a link carries counts for: a link stays short enough to paste.
pub const MAX_SHARED_COUNTS: usize = 256;
/// The longest GPU name a link carries.
const MAX_ADAPTER_NAME: usize = 100;

impl SharedResults {
    pub fn to_value(&self) -> String {
        let counts: Vec<String> = self.counts.iter().map(u64::to_string).collect();
        format!("{}:{}", self.adapter, counts.join(","))
    }

    /// Reads `results=`; what is wrong with it, in a sentence, otherwise.
    pub fn parse(value: &str) -> Result<SharedResults, String> {
        let refused = |why: String| format!("results= was ignored: {why}");
        let (adapter, counts) = value.rsplit_once(':').ok_or_else(|| refused("it should read GPU name:count,count,… (no colon found)".to_owned()))?;
        let adapter = adapter.trim();
        if adapter.is_empty() || adapter.chars().count() > MAX_ADAPTER_NAME || adapter.chars().any(char::is_control) {
            return Err(refused(format!("the GPU's name should be 1 to {MAX_ADAPTER_NAME} printable characters")));
        }
        let counts: Vec<u64> = counts
            .split(',')
            .map(|c| c.trim().parse::<u64>().map_err(|_| refused(format!("“{c}” is not a count (a whole number, 0 or more)"))))
            .collect::<Result<_, _>>()?;
        if counts.len() > MAX_SHARED_COUNTS {
            return Err(refused(format!("it has {} counts; a link carries at most {MAX_SHARED_COUNTS}", counts.len())));
        }
        Ok(SharedResults { adapter: adapter.to_owned(), counts })
    }
}

/// A preset's text as the editor shows it: one thread per line.
pub fn preset_text(name: &str) -> String {
    litmus::preset(name).map(|t| t.split('|').map(str::trim).collect::<Vec<_>>().join("\n")).unwrap_or_default()
}

/// The preset whose text this is, if any.
pub fn preset_of(text: &str) -> Option<&'static str> {
    let norm = |t: &str| t.split(['|', '\n']).map(|l| l.split_whitespace().collect::<String>()).filter(|l| !l.is_empty()).collect::<Vec<_>>();
    PRESETS.iter().chain(&litmus::SCOPED_PRESETS).find(|(_, t)| norm(t) == norm(text)).map(|(n, _)| *n)
}

impl LabSettings {
    /// Reads `test=`, `preset=`, `placement=`, `memory=` and `barrier=` through `get`; what is
    /// refused comes back as messages and leaves the default in its place.
    pub fn parse(get: impl Fn(&str) -> Option<String>) -> (LabSettings, Vec<String>) {
        let mut s = LabSettings::default();
        let mut problems = Vec::new();
        let names: Vec<&str> = PRESETS.iter().chain(&litmus::SCOPED_PRESETS).map(|(n, _)| *n).collect();
        if let Some(p) = get("preset") {
            match one_of("preset", &p, &names) {
                Ok(name) => s.text = preset_text(name),
                Err(e) => problems.push(e),
            }
        }
        if let Some(t) = get("test") {
            if t.chars().count() > MAX_TEXT {
                problems.push(format!("test= was ignored: it is longer than {MAX_TEXT} characters"));
            } else {
                s.text = t;
            }
        }
        if let Some(p) = get("placement") {
            match one_of("placement", &p, &["across", "same"]) {
                Ok(p) => s.placement = if p == "same" { Placement::Same } else { Placement::Across },
                Err(e) => problems.push(e),
            }
        }
        if let Some(m) = get("memory") {
            match one_of("memory", &m, &["storage", "workgroup"]) {
                Ok(m) => s.memory = if m == "workgroup" { Space::Workgroup } else { Space::Storage },
                Err(e) => problems.push(e),
            }
        }
        if let Some(b) = get("barrier") {
            match one_of("barrier", &b, &BarrierModifier::NAMES) {
                Ok(b) => s.barrier = BarrierModifier::from_name(b),
                Err(e) => problems.push(e),
            }
        }
        if s.memory == Space::Workgroup && s.placement == Placement::Across {
            problems.push("placement=across was changed to same: memory=workgroup is shared only within one workgroup".to_owned());
            s.placement = Placement::Same;
        }
        (s, problems)
    }

    /// The link's pairs: a preset by name where the text is one, else the text itself.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = match preset_of(&self.text) {
            Some(name) => vec![("preset", name.to_owned())],
            None => vec![("test", self.text.clone())],
        };
        pairs.push(("placement", placement_name(self.placement).to_owned()));
        pairs.push(("memory", memory_name(self.memory).to_owned()));
        pairs.push(("barrier", self.barrier.name().to_owned()));
        pairs
    }

    /// The test as the page analyses and runs it: the text read, the modifiers applied.
    pub fn test(&self) -> Result<LitmusTest, LabError> {
        if self.text.chars().count() > MAX_TEXT {
            return Err(LabError { line: None, message: format!("the test is longer than {MAX_TEXT} characters") });
        }
        let test = litmus::parse(&self.text, self.placement, self.memory).map_err(|e| LabError { line: Some((e.line, e.column)), message: e.message })?;
        let test = match self.barrier {
            BarrierModifier::None => test,
            BarrierModifier::Workgroup => litmus::with_barriers(&test, Space::Workgroup),
            BarrierModifier::Storage => litmus::with_barriers(&test, Space::Storage),
        };
        if let Some((_, message)) = litmus::barrier_mismatch(&test) {
            // The test's own barriers and the modifier's do not line up.
            return Err(LabError { line: None, message: format!("with barrier={}, {message}: choose barrier=none, or write the barriers in the test", self.barrier.name()) });
        }
        let outcomes = test.axes().iter().fold(1u128, |n, a| n.saturating_mul(a.values.len() as u128));
        if outcomes > MAX_OUTCOMES {
            return Err(LabError {
                line: None,
                message: format!("{outcomes} outcomes: the lab lists at most {MAX_OUTCOMES}. Use fewer registers, or fewer values per location."),
            });
        }
        if let Some(lacks) = test.beyond_wgsl() {
            let candidates = scoped::candidates(&test);
            if candidates > scoped::MAX_CANDIDATES {
                return Err(LabError {
                    line: None,
                    message: format!(
                        "{candidates} candidate executions: the scoped model weighs at most {}, and WGSL cannot say this test ({lacks}). Use fewer writes to one location, or fewer seq_cst accesses and fences.",
                        scoped::MAX_CANDIDATES
                    ),
                });
            }
        }
        let candidates = wgsl::candidates(&test);
        if test.beyond_wgsl().is_none() && candidates > MAX_CANDIDATES {
            return Err(LabError {
                line: None,
                message: format!("{candidates} candidate executions: the lab weighs at most {MAX_CANDIDATES}, location by location. Use fewer accesses to one location."),
            });
        }
        Ok(test)
    }
}

/// Why a test cannot be shown: where in its text, when the text is at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabError {
    pub line: Option<(usize, usize)>,
    pub message: String,
}

impl std::fmt::Display for LabError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some((line, column)) => write!(f, "line {line}, column {column}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// What WGSL's memory model says of one outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wgsl {
    Allowed(Execution),
    /// Why: a candidate producing it, the rule it breaks and the cycle that breaks it.
    Forbidden(wgsl::Refusal),
    /// WGSL cannot write the test (an acquire load, a fence, …): it says nothing of it.
    Inexpressible,
}

/// What the scoped model (CUDA's, by the PTX memory model) says of one outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scoped {
    Allowed(scoped::Execution),
    Forbidden(scoped::Refusal),
}

/// One row of the outcome table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub outcome: Outcome,
    /// `r0=1 r1=0`: the row's name and its `data-outcome`.
    pub name: String,
    /// An interleaving that reaches it, where sequential consistency does.
    pub sc: Option<Vec<Move>>,
    pub wgsl: Wgsl,
    /// `None` where the test is too large for the scoped model to weigh (WGSL's tests only:
    /// a larger test beyond WGSL is refused).
    pub scoped: Option<Scoped>,
}

impl Row {
    /// Whether the model that speaks for the test allows the outcome: WGSL's, or for a test
    /// WGSL cannot write, the scoped model.
    pub fn allowed(&self) -> bool {
        match self.wgsl {
            Wgsl::Allowed(_) => true,
            Wgsl::Forbidden(_) => false,
            Wgsl::Inexpressible => self.scoped_allowed() == Some(true),
        }
    }

    pub fn scoped_allowed(&self) -> Option<bool> {
        self.scoped.as_ref().map(|s| matches!(s, Scoped::Allowed(_)))
    }
}

/// Every outcome of `test`, in the order the count kernel numbers them, with both verdicts.
pub fn rows(test: &LitmusTest) -> Vec<Row> {
    rows_timed(test, Some(scoped::verdicts), || 0.0).0
}

/// The scoped model's engine, passed in: the page has it only once the chunk that brings it
/// has come (see `page.rs`).
pub type ScopedEngine = fn(&LitmusTest) -> Result<scoped::Verdicts, String>;

/// What [`rows_timed`] gives beside the rows: how long the scoped model took (by the clock
/// given, in milliseconds) and, where it declined the test, why.
pub struct ScopedTiming {
    pub ms: f64,
    pub declined: Option<String>,
}

/// [`rows`], with the scoped model's verdicts where `engine` is given, how long they took by
/// `clock` (milliseconds), and why it declined the test, if it did.
pub fn rows_timed(test: &LitmusTest, engine: Option<ScopedEngine>, clock: impl Fn() -> f64) -> (Vec<Row>, ScopedTiming) {
    let sc = litmus::sc::reachable(test);
    let expressible = test.beyond_wgsl().is_none();
    let mut verdicts = if expressible { wgsl::verdicts(test) } else { wgsl::Verdicts::default() };
    let start = clock();
    let weighed = engine.map(|weigh| weigh(test));
    let scoped_ms = clock() - start;
    let declined = weighed.as_ref().and_then(|w| w.as_ref().err().cloned());
    let mut scoped = weighed.and_then(Result::ok);
    let rows = test
        .outcomes()
        .into_iter()
        .map(|outcome| {
            let wgsl = match verdicts.allowed.remove(&outcome) {
                _ if !expressible => Wgsl::Inexpressible,
                Some(e) => Wgsl::Allowed(e),
                None => Wgsl::Forbidden(verdicts.forbidden.remove(&outcome).unwrap_or_else(wgsl::Refusal::no_such_values)),
            };
            let scoped = scoped.as_mut().map(|v| match v.allowed.remove(&outcome) {
                Some(e) => Scoped::Allowed(e),
                None => Scoped::Forbidden(v.forbidden.remove(&outcome).unwrap_or_else(|| scoped::Refusal {
                    axiom: None,
                    why: "no execution produces these values: no write stores them where they are read".to_owned(),
                    execution: None,
                })),
            });
            Row { name: test.name(&outcome), sc: sc.get(&outcome).cloned(), wgsl, scoped, outcome }
        })
        .collect();
    (rows, ScopedTiming { ms: scoped_ms, declined })
}

/// The test as the editor writes it, one thread per line, each placed in its workgroup where
/// the test's own labels placed them.
pub fn text_of(test: &LitmusTest) -> String {
    let line = |(t, ops): (usize, &Vec<Op>)| {
        let label = if test.labelled { format!("T{t}@wg{}", test.groups[t]) } else { format!("T{t}") };
        format!("{label}: {}", ops.iter().map(|op| describe(test, *op)).collect::<Vec<_>>().join("; "))
    };
    test.threads.iter().enumerate().map(line).collect::<Vec<_>>().join("\n")
}

/// A statement as the page writes it: `x = 1`, `r0 = y`, `r0 = atomicAdd(x, 1)`.
pub fn describe(test: &LitmusTest, op: Op) -> String {
    let reg = |r: usize| test.registers.get(r).cloned().unwrap_or_default();
    // `, release, device`: an order and scope as written, nothing for WGSL's own kind.
    let mode = |m: Mode| match (m.order, m.scope) {
        (Order::Relaxed, None) => String::new(),
        (order, None) => format!(", {}", order.name()),
        (order, Some(scope)) => format!(", {}, {}", order.name(), scope.name()),
    };
    match op {
        Op::Store { loc, value, mode: Mode::WGSL } => format!("{} = {value}", LOCATIONS[loc]),
        Op::Store { loc, value, mode: m } => format!("{}.store({value}{})", LOCATIONS[loc], mode(m)),
        Op::Load { reg: r, loc, mode: Mode::WGSL } => format!("{} = {}", reg(r), LOCATIONS[loc]),
        Op::Load { reg: r, loc, mode: m } => format!("{} = {}.load({})", reg(r), LOCATIONS[loc], mode(m).trim_start_matches(", ")),
        Op::Rmw { reg: r, loc, rmw, mode: m } => match rmw {
            Rmw::Add(v) => format!("{} = atomicAdd({}, {v}{})", reg(r), LOCATIONS[loc], mode(m)),
            Rmw::Exchange(v) => format!("{} = atomicExchange({}, {v}{})", reg(r), LOCATIONS[loc], mode(m)),
            Rmw::CompareExchange { expected, value } => format!("{} = atomicCompareExchangeWeak({}, {expected}, {value}{})", reg(r), LOCATIONS[loc], mode(m)),
        },
        Op::Barrier(Space::Workgroup) => "workgroupBarrier()".to_owned(),
        Op::Barrier(Space::Storage) => "storageBarrier()".to_owned(),
        Op::Fence { order, scope } => format!("fence({}, {})", order.name(), scope.name()),
    }
}

/// `T1: r0 = y`: one statement of one thread.
pub fn describe_move(test: &LitmusTest, (t, i): Move) -> String {
    test.threads.get(t).and_then(|ops| ops.get(i)).map_or_else(String::new, |op| format!("T{t}: {}", describe(test, *op)))
}

/// An execution in words: which write each read read from.
pub fn explain(test: &LitmusTest, e: &Execution) -> String {
    let reads: Vec<String> = e
        .reads_from
        .iter()
        .map(|(read, from)| match from {
            Some(w) => format!("{} reads from {}", describe_move(test, *read), describe_move(test, *w)),
            None => format!("{} reads the initial 0", describe_move(test, *read)),
        })
        .collect();
    if reads.is_empty() {
        "no reads: the writes in any coherence order".to_owned()
    } else {
        reads.join("; ")
    }
}

/// A row's verdict explained: one sentence of cause quoting the test's statements, and the
/// execution and cycle its graph draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Why {
    pub sentence: String,
    pub execution: Option<Execution>,
    pub cycle: Vec<(Move, Move, Relation)>,
}

/// `T1: r0 = y`, with what it read where it read: `T1: r0 = y (read 1)`.
fn quote(test: &LitmusTest, at: Move, execution: Option<&Execution>) -> String {
    let read = execution.and_then(|e| e.values.iter().find(|v| v.0 == at)).and_then(|v| v.1);
    let is_read = test.threads.get(at.0).and_then(|ops| ops.get(at.1)).is_some_and(|op| matches!(op, Op::Load { .. } | Op::Rmw { .. }));
    match (read, is_read) {
        (Some(v), true) => format!("{} (read {v})", describe_move(test, at)),
        _ => describe_move(test, at),
    }
}

/// One edge of a cycle in words, its relation named in full.
fn edge_words(test: &LitmusTest, (a, b, relation): (Move, Move, Relation), execution: Option<&Execution>) -> String {
    let (qa, qb) = (quote(test, a, execution), quote(test, b, execution));
    let loc = test.threads.get(a.0).and_then(|ops| ops.get(a.1)).and_then(|op| op.loc()).map_or("it", |l| LOCATIONS[l]);
    match relation {
        Relation::Rf => format!("{qb} takes its value from {qa} (reads-from)"),
        Relation::Co => format!("{qa} is overwritten by {qb} (coherence)"),
        Relation::Fr => format!("{qa} reads {loc} before {qb} writes it (from-read)"),
        Relation::Po => format!("{qa} comes before {qb} in T{} (program order)", a.0),
        Relation::Barrier => format!("{qa} comes before the barrier and {qb} after it (happens-before)"),
        Relation::Sync => format!("{qa} synchronises with {qb}"),
    }
}

/// Why, for an allowed outcome no interleaving reaches, nothing closes its cycle.
fn weak_cause(test: &LitmusTest) -> String {
    let barriers: Vec<Space> = test.threads.iter().flatten().filter_map(|op| if let Op::Barrier(k) = op { Some(*k) } else { None }).collect();
    let class = |s: Space| if s == Space::Workgroup { "workgroup" } else { "storage" };
    if barriers.is_empty() {
        "No barrier orders these accesses, and nothing else orders accesses to different locations: each location keeps one order (coherence), but the locations need not agree.".to_owned()
    } else if test.placement == Placement::Across {
        "Each thread runs in a workgroup of its own, and a barrier orders nothing between workgroups.".to_owned()
    } else if !barriers.contains(&test.memory) {
        format!("The barriers here order {} memory only, and x, y and z are in {} memory.", class(if test.memory == Space::Storage { Space::Workgroup } else { Space::Storage }), class(test.memory))
    } else {
        "The barriers here do not stand between the accesses that would need ordering.".to_owned()
    }
}

/// A row's verdict explained: for an outcome an interleaving reaches, that it does; for an
/// allowed weak one, the cycle only sequential consistency rules out and why WGSL does not;
/// for a forbidden one, the cycle its rule forbids.
pub fn why(test: &LitmusTest, row: &Row) -> Why {
    match &row.wgsl {
        Wgsl::Inexpressible => {
            let sentence = match &row.scoped {
                Some(Scoped::Allowed(_)) if row.sc.is_some() => "Allowed: an interleaving reaches it, so every memory model allows it.".to_owned(),
                Some(Scoped::Allowed(e)) if e.synchronises.is_empty() => {
                    "Allowed by the scoped model, though no interleaving reaches it: nothing here synchronises — no release observed by an acquire in its scope, no seq_cst fences both sides, no barrier between them.".to_owned()
                }
                Some(Scoped::Allowed(_)) => "Allowed by the scoped model, though no interleaving reaches it: what synchronises here does not order these accesses.".to_owned(),
                Some(Scoped::Forbidden(r)) => format!("Forbidden by the scoped model: {}.", r.why.trim_end_matches('.')),
                None => "The scoped model did not weigh this test.".to_owned(),
            };
            let (execution, synchronises) = match &row.scoped {
                Some(Scoped::Allowed(e)) => (Some(e), e.synchronises.clone()),
                Some(Scoped::Forbidden(r)) => (r.execution.as_ref(), r.execution.as_ref().map(|e| e.synchronises.clone()).unwrap_or_default()),
                None => (None, Vec::new()),
            };
            // Drawn as WGSL's are: reads-from, coherence, values; the synchronisations lit.
            let execution = execution.map(|e| Execution { reads_from: e.reads_from.clone(), coherence: e.coherence.clone(), values: e.values.clone() });
            Why { sentence, execution, cycle: synchronises.into_iter().map(|(a, b)| (a, b, Relation::Sync)).collect() }
        }
        Wgsl::Allowed(e) if row.sc.is_some() => {
            Why { sentence: "Allowed: an interleaving reaches it, so every memory model allows it.".to_owned(), execution: Some(e.clone()), cycle: Vec::new() }
        }
        Wgsl::Allowed(e) => {
            let cycle = graph::cycle(&graph::edges(test, Some(e), &[]));
            let words: Vec<String> = cycle.iter().map(|&edge| edge_words(test, edge, Some(e))).collect();
            let sentence = if words.is_empty() {
                format!("Allowed, though no interleaving reaches it: {}. {}", explain(test, e), weak_cause(test))
            } else {
                format!("Allowed, though no interleaving reaches it: {} — a cycle no interleaving can close. {}", words.join("; "), weak_cause(test))
            };
            Why { sentence, execution: Some(e.clone()), cycle }
        }
        Wgsl::Forbidden(refusal) => {
            let execution = refusal.execution.as_ref();
            let words: Vec<String> = refusal.cycle.iter().map(|&edge| edge_words(test, edge, execution)).collect();
            let sentence = match refusal.rule {
                Rule::NoSuchValues => format!("Forbidden: {}.", refusal.why.trim_end_matches('.')),
                _ if words.is_empty() => format!("Forbidden by {}.", refusal.why),
                Rule::Coherence => format!(
                    "Forbidden: {} — a cycle, and coherence forbids it: one location's writes and reads keep one order that happens-before agrees with.",
                    words.join("; ")
                ),
                Rule::Atomicity => format!(
                    "Forbidden: {} — a cycle, and atomicity forbids it: no write comes between a read-modify-write's read and its write.",
                    words.join("; ")
                ),
            };
            Why { sentence, execution: refusal.execution.clone(), cycle: refusal.cycle.clone() }
        }
    }
}

/// The lab as JSON: the test, its modifiers, every outcome with both verdicts and, after a
/// run, what the GPU counted.
pub fn export(settings: &LabSettings, test: &LitmusTest, rows: &[Row], run: Option<(&crate::gpu::AdapterSummary, &gpu::LitmusCounts)>) -> crate::data::Json {
    use crate::data::Json;
    let outcomes = rows.iter().enumerate().map(|(i, r)| {
        let mut pairs = vec![
            ("outcome", Json::from(r.name.clone())),
            ("sc", Json::from(r.sc.is_some())),
            ("wgsl", Json::from(match r.wgsl {
                Wgsl::Allowed(_) => "allowed",
                Wgsl::Forbidden(_) => "forbidden",
                Wgsl::Inexpressible => "inexpressible",
            })),
        ];
        match &r.scoped {
            Some(Scoped::Allowed(_)) => pairs.push(("scoped", Json::from("allowed"))),
            Some(Scoped::Forbidden(refusal)) => {
                pairs.push(("scoped", Json::from("forbidden")));
                pairs.push(("scoped_why", Json::from(refusal.why.clone())));
            }
            None => {}
        }
        match &r.wgsl {
            Wgsl::Allowed(e) if r.sc.is_none() => pairs.push(("execution", Json::from(explain(test, e)))),
            Wgsl::Forbidden(refusal) => pairs.push(("why", Json::from(refusal.why.clone()))),
            _ => {}
        }
        if let Some(interleaving) = &r.sc {
            pairs.push(("interleaving", Json::array(interleaving.iter().map(|m| describe_move(test, *m)))));
        }
        if let Some((_, counts)) = run {
            pairs.push(("observed", Json::from(counts.counts.get(i).copied().unwrap_or(0))));
        }
        Json::object(pairs)
    });
    let mut pairs = vec![
        ("test", Json::from(settings.text.clone())),
        ("placement", Json::from(placement_name(settings.placement))),
        ("memory", Json::from(memory_name(settings.memory))),
        ("barrier", Json::from(settings.barrier.name())),
        ("outcomes", Json::array(outcomes)),
    ];
    if let Some((adapter, counts)) = run {
        pairs.push(("adapter", crate::data::adapter(adapter)));
        pairs.push((
            "run",
            Json::object([
                ("workgroups", Json::from(counts.shape.workgroups)),
                ("instances_per_dispatch", Json::from(counts.shape.instances)),
                ("dispatches", Json::from(counts.dispatches)),
                ("workgroup_size", Json::from(gpu::WORKGROUP_SIZE)),
                ("unlisted", Json::from(counts.unlisted)),
                ("wall_ms", Json::from(counts.wall_ms)),
                ("spin_limit", Json::from(counts.spin_limit)),
                ("instances_per_second", Json::from(counts.per_second())),
            ]),
        ));
    }
    Json::object(pairs)
}

/// Names the model's registers can take: the test's own (`r0` …), then the scratch registers a
/// read-modify-write's operands pass through.
const REGISTER_NAMES: [&str; 24] = [
    "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "r16", "r17", "r18", "r19", "r20", "r21", "r22",
    "r23",
];
/// The operand, the expected value and the success flag of an exchange or compare-exchange.
const SCRATCH: [&str; 3] = ["v", "e", "ok"];

/// The test as a model program the player steps, sequentially consistent like every model:
/// each thread runs its own block of lines and only that (no line spent choosing it, as the
/// kernel's `if id == k` does), one line per statement, with a read-modify-write's operands
/// set first. Barriers are kept where the threads share a workgroup; alone in its own, a thread
/// passes its barriers at once, so the model leaves them out.
pub struct LabModel {
    pub program: crate::model::Program,
    /// For each line, the statement it carries out: `(thread, statement)`.
    pub owner: Vec<Option<Move>>,
    /// Each thread's lines.
    pub blocks: Vec<std::ops::Range<usize>>,
    /// How many of the program's registers are the test's (the rest are scratch).
    pub registers: usize,
}

impl LabModel {
    pub fn of(test: &LitmusTest) -> LabModel {
        use crate::model::{Instr, IntType, Line, RmwOp};
        let regs = test.registers.len();
        let (v, e, ok) = (regs, regs + 1, regs + 2);
        let mut register_names: Vec<&'static str> = test.registers.iter().map(|r| REGISTER_NAMES.iter().copied().find(|n| n == r).unwrap_or("r?")).collect();
        // Scratch registers only where a read-modify-write needs its operands set first.
        let scratch = test.threads.iter().flatten().fold(0, |n, op| match op {
            Op::Rmw { rmw: Rmw::Exchange(_), .. } => n.max(1),
            Op::Rmw { rmw: Rmw::CompareExchange { .. }, .. } => 3,
            _ => n,
        });
        register_names.extend(&SCRATCH[..scratch]);
        let (mut lines, mut owner, mut blocks) = (Vec::new(), Vec::new(), Vec::new());
        let push = |lines: &mut Vec<Line>, owner: &mut Vec<Option<Move>>, instr, by| {
            lines.push(Line { instr, marker: "" });
            owner.push(by);
        };
        for (t, ops) in test.threads.iter().enumerate() {
            let start = lines.len();
            for (i, op) in ops.iter().enumerate() {
                let by = Some((t, i));
                match *op {
                    Op::Store { loc, value, .. } => push(&mut lines, &mut owner, Instr::StoreImm { addr: loc, value: i64::from(value) }, by),
                    Op::Load { reg, loc, .. } => push(&mut lines, &mut owner, Instr::Load { reg, addr: loc }, by),
                    Op::Rmw { reg, loc, rmw: Rmw::Add(x), .. } => push(&mut lines, &mut owner, Instr::AtomicAdd { reg, addr: loc, imm: i64::from(x) }, by),
                    Op::Rmw { reg, loc, rmw: Rmw::Exchange(x), .. } => {
                        push(&mut lines, &mut owner, Instr::SetImm { reg: v, value: i64::from(x) }, by);
                        push(&mut lines, &mut owner, Instr::AtomicRmw { op: RmwOp::Exchange, ty: IntType::U32, addr: loc, operand: v, old: reg }, by);
                    }
                    Op::Rmw { reg, loc, rmw: Rmw::CompareExchange { expected, value }, .. } => {
                        push(&mut lines, &mut owner, Instr::SetImm { reg: e, value: i64::from(expected) }, by);
                        push(&mut lines, &mut owner, Instr::SetImm { reg: v, value: i64::from(value) }, by);
                        push(&mut lines, &mut owner, Instr::CompareExchange { addr: loc, expected: e, desired: v, old: reg, exchanged: ok }, by);
                    }
                    Op::Barrier(_) if test.placement == Placement::Same => push(&mut lines, &mut owner, Instr::Barrier, by),
                    // Alone in its workgroup a thread passes its barrier at once. (The stepped
                    // model's barrier holds every thread: a test placing some threads together
                    // and some apart is stepped without its barriers; the page says so.)
                    Op::Barrier(_) | Op::Fence { .. } => {}
                }
            }
            blocks.push(start..lines.len());
        }
        let workgroup: &'static [&'static str] = if test.memory == Space::Workgroup { &LOCATIONS } else { &[] };
        // Written by hand, not lowered: each model thread runs its own block of the test, which no
        // single kernel invocation does.
        let program =
            crate::model::Program { lines, memory_names: LOCATIONS.iter().map(|l| (*l).to_owned()).collect(), register_names, grids: Vec::new(), workgroup, floats: &[], packed: &[], masks: &[], mask_lanes: 0, spans: Vec::new(), lowered: None };
        LabModel { program, owner, blocks, registers: regs }
    }

    pub fn machine(&self) -> crate::model::Machine {
        crate::model::Machine::with_blocks(std::sync::Arc::new(self.program.clone()), &self.blocks, vec![0; LOCATIONS.len()])
    }

    /// A session scheduled by hand that has taken `moves` (an interleaving of the test's
    /// statements) and stands at its start, for the reader to step through.
    pub fn replay(&self, moves: &[Move]) -> crate::model::Session {
        use crate::model::{Schedule, Session, ThreadStatus};
        let mut s = Session::new(self.machine(), Schedule::Manual);
        for &(t, i) in moves {
            loop {
                let m = s.current();
                let Some(thread) = m.threads.get(t) else { break };
                let belongs = matches!(self.owner.get(thread.pc), Some(Some((owner, j))) if *owner == t && *j <= i);
                if thread.status != ThreadStatus::Ready || !belongs || s.take_tick(&[t]).is_err() {
                    break;
                }
            }
        }
        s.seek(0);
        s
    }

    /// `r0=1 r1=0 x=2`: how the model's run ended, named as the outcome table names it. Each
    /// register belongs to one thread and stays 0 in the others.
    pub fn outcome(test: &LitmusTest, m: &crate::model::Machine) -> String {
        let regs = test.registers.iter().enumerate().map(|(r, name)| {
            let v = m.threads.iter().map(|th| th.regs.get(r).copied().unwrap_or(0)).find(|&v| v != 0).unwrap_or(0);
            format!("{name}={v}")
        });
        let finals = test.overwritten().into_iter().map(|l| format!("{}={}", LOCATIONS[l], m.memory.get(l).copied().unwrap_or(0)));
        regs.chain(finals).collect::<Vec<_>>().join(" ")
    }
}
