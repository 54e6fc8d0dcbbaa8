//! `?lesson=scan`: inclusive prefix sums. In one workgroup two ways: Hillis–Steele (every
//! invocation adds the cell `offset` places back, offsets 1, 2, 4 …, with a barrier between the
//! reads and the writes of each step, and one after) and the work-efficient up-sweep and
//! down-sweep (fewer additions, one barrier per level). Take Hillis–Steele's middle barrier
//! away and a schedule reads a half-updated cell. Then a large array across workgroups in three
//! dispatches (scan each tile, scan the tiles' sums, add them back), and ordered stream
//! compaction built on it, beside the append lesson's `atomicAdd`.

pub mod export;
pub mod gpu;
pub mod look_back;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_scan.rs"));
}
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
pub mod single_pass;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::gpu::params::GpuParams;
use crate::gpu::Kernel;
use crate::model::{Instr, Line, Machine, Program};
use std::ops::RangeInclusive;
use std::sync::Arc;

/// This lesson's kernels, each a file under `shaders/scan/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const HILLIS_STEELE: Kernel = crate::kernel!("scan", "scan_hillis_steele.wgsl");
    pub const ONE_BARRIER: Kernel = crate::kernel!("scan", "scan_one_barrier.wgsl");
    pub const WORK_EFFICIENT: Kernel = crate::kernel!("scan", "scan_work_efficient.wgsl");
    pub const TILE_SUMS: Kernel = crate::kernel!("scan", "scan_tile_sums.wgsl");
    pub const ADD_BACK: Kernel = crate::kernel!("scan", "scan_add_back.wgsl");
    /// The whole array in one dispatch: tiles by ticket, decoupled look-back, the fallback.
    pub const SINGLE_PASS: Kernel = crate::kernel!("scan", "scan_single_pass.wgsl");
    /// The fair three-pass scan, built like the single pass: reduce each tile to its sum, scan
    /// the sums in one workgroup, scan each tile again adding its prefix.
    pub const REDUCE_TILES: Kernel = crate::kernel!("scan", "scan_reduce_tiles.wgsl");
    pub const TILE_OFFSETS: Kernel = crate::kernel!("scan", "scan_tile_offsets.wgsl");
    pub const TILES_OFFSET: Kernel = crate::kernel!("scan", "scan_tiles_offset.wgsl");
    /// A plain copy of the input as `vec4`s: what reading and writing every element once costs
    /// on this GPU, the bound a scan is measured against.
    pub const COPY: Kernel = crate::kernel!("scan", "scan_copy.wgsl");

    /// Every kernel of the lesson.
    pub const ALL: &[Kernel] = &[HILLIS_STEELE, ONE_BARRIER, WORK_EFFICIENT, TILE_SUMS, ADD_BACK, SINGLE_PASS, REDUCE_TILES, TILE_OFFSETS, TILES_OFFSET, COPY];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "scan",
    title: "Prefix sums: a scan in a workgroup, and across many",
    summary: "Every running total at once: Hillis–Steele and the work-efficient sweeps stepped with their barriers, one barrier taken away, then a large array in three dispatches and ordered compaction beside atomicAdd.",
    chapter: super::Chapter::BeyondWorkgroup,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<ScanWay>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::ScanLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("scan", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[
        crate::data::measured::MeasuredFile { file: "h100-scan.json", text: measured::H100_SCAN, schema: Some(measured::SCHEMA) },
        crate::data::measured::MeasuredFile { file: "h200-scan.json", text: measured::H200_SCAN, schema: Some(measured::SCHEMA) },
    ],
};

/// Registers.
pub const VALUE: usize = 0;
pub const OTHER: usize = 1;
/// The distance to the partner's cell: Hillis–Steele's `offset`, the sweeps' `d`.
pub const DISTANCE: usize = 2;

pub const MODEL_THREADS: RangeInclusive<usize> = 2..=16;

/// The model's input, one value per thread: digits of π, as the reduction lesson sums.
pub const VALUES: [u32; 16] = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3];

/// Where the model keeps `input` (one cell per thread) and `cells` (the workgroup memory).
pub const INPUT: usize = 0;
pub fn cells_base(threads: usize) -> usize {
    INPUT + threads
}

/// The widest workgroup the kernels scan (their workgroup arrays' length).
pub const MAX_WIDTH: u32 = 1024;

/// The width of the one workgroup that scans the tiles' sums (each of its invocations takes a
/// run of them first): the most every WebGPU device allows, so the page can prepare its
/// pipeline before it knows the GPU.
pub const TILE_SUMS_WIDTH: u32 = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScanWay {
    /// Offsets 1, 2, 4 …: read the partner's cell, wait, add and write, wait.
    HillisSteele,
    /// The same with the wait between the reads and the writes taken away.
    OneBarrier,
    /// Up-sweep (sums of blocks of 2, 4, 8 … at each block's end), then down-sweep (each
    /// block's total carried into the block after it): fewer additions, one barrier a level.
    WorkEfficient,
    /// The whole array in one pass, one model thread a workgroup and one digit a tile: each
    /// workgroup's tile its id, each tile's sum posted, the look-back, and the fallback for a
    /// tile that stays silent.
    SinglePass,
    /// The same with tiles handed out by ticket, so a tile only waits on tiles that started.
    Tickets,
    /// Tickets without the fallback: a look-back that finds a tile silent gives up.
    NoFallback,
}

impl ScanWay {
    pub const ALL: [ScanWay; 6] = [ScanWay::HillisSteele, ScanWay::OneBarrier, ScanWay::WorkEfficient, ScanWay::SinglePass, ScanWay::Tickets, ScanWay::NoFallback];

    /// The ways that scan one tile per workgroup: the GPU panel runs each kernel over the input.
    pub const TILE_WAYS: [ScanWay; 3] = [ScanWay::HillisSteele, ScanWay::OneBarrier, ScanWay::WorkEfficient];

    pub fn kernel(self) -> Kernel {
        match self {
            ScanWay::HillisSteele => kernels::HILLIS_STEELE,
            ScanWay::OneBarrier => kernels::ONE_BARRIER,
            ScanWay::WorkEfficient => kernels::WORK_EFFICIENT,
            ScanWay::SinglePass | ScanWay::Tickets | ScanWay::NoFallback => kernels::SINGLE_PASS,
        }
    }

    /// Whether every schedule ends with every prefix sum right.
    pub fn promised(self) -> bool {
        !matches!(self, ScanWay::OneBarrier | ScanWay::NoFallback)
    }

    /// Written by hand: these threads are the kernel's invocations and could step the kernel
    /// itself, which this lesson has not moved to yet (see docs/stepper.md).
    pub fn program(self, threads: usize) -> Program {
        if let Some((fallback, from)) = self.look_back() {
            return look_back::program(fallback, from, threads);
        }
        let n = threads as i64;
        let cells = cells_base(threads);
        let mut lines = vec![
            Line { instr: Instr::LoadOwn { array: "input", base: INPUT, reg: VALUE }, marker: "load" },
            Line { instr: Instr::StoreOwn { array: "cells", base: cells, reg: VALUE }, marker: "store" },
        ];
        // One level: a test of who takes part, then read the partner, add, write. Each
        // thread's `value` is its own cell: nobody else ever writes it.
        let level = |lines: &mut Vec<Line>, test: Instr, markers: [&'static str; 4]| {
            lines.push(Line { instr: test, marker: markers[0] });
            lines.push(Line { instr: Instr::LoadOwnMinus { array: "cells", base: cells, offset: DISTANCE, reg: OTHER }, marker: markers[1] });
            lines.push(Line { instr: Instr::AddReg { reg: VALUE, other: OTHER }, marker: markers[2] });
            lines.push(Line { instr: Instr::StoreOwn { array: "cells", base: cells, reg: VALUE }, marker: markers[3] });
        };
        match self {
            ScanWay::HillisSteele | ScanWay::OneBarrier => {
                lines.push(Line { instr: Instr::SetImm { reg: DISTANCE, value: 1 }, marker: "first" });
                lines.push(Line { instr: Instr::Barrier, marker: "barrier-loaded" });
                let top = lines.len();
                let wait = usize::from(self == ScanWay::HillisSteele);
                let end = top + 9 + wait;
                lines.push(Line { instr: Instr::BreakIfAtLeast { reg: DISTANCE, limit: n, target: end }, marker: "loop" });
                lines.push(Line { instr: Instr::SetImm { reg: OTHER, value: 0 }, marker: "zero" });
                lines.push(Line { instr: Instr::IfIdAtLeastReg { reg: DISTANCE, end: top + 4 }, marker: "active" });
                lines.push(Line { instr: Instr::LoadOwnMinus { array: "cells", base: cells, offset: DISTANCE, reg: OTHER }, marker: "read" });
                if self == ScanWay::HillisSteele {
                    lines.push(Line { instr: Instr::Barrier, marker: "barrier-read" });
                }
                // Threads below the offset add the 0 they hold: every thread writes its cell.
                lines.push(Line { instr: Instr::AddReg { reg: VALUE, other: OTHER }, marker: "add" });
                lines.push(Line { instr: Instr::StoreOwn { array: "cells", base: cells, reg: VALUE }, marker: "write" });
                lines.push(Line { instr: Instr::Barrier, marker: "barrier-step" });
                lines.push(Line { instr: Instr::DoubleReg { reg: DISTANCE }, marker: "double" });
                lines.push(Line { instr: Instr::Jump { target: top }, marker: "next" });
                debug_assert_eq!(lines.len(), end);
            }
            ScanWay::WorkEfficient => {
                lines.push(Line { instr: Instr::SetImm { reg: DISTANCE, value: 1 }, marker: "up-first" });
                lines.push(Line { instr: Instr::Barrier, marker: "barrier-loaded" });
                let up = lines.len();
                let (up_barrier, up_end) = (up + 5, up + 8);
                lines.push(Line { instr: Instr::BreakIfAtLeast { reg: DISTANCE, limit: n, target: up_end }, marker: "up-loop" });
                level(&mut lines, Instr::IfIdEndsBlock { reg: DISTANCE, end: up_barrier }, ["up-active", "up-read", "up-add", "up-write"]);
                lines.push(Line { instr: Instr::Barrier, marker: "up-barrier" });
                lines.push(Line { instr: Instr::DoubleReg { reg: DISTANCE }, marker: "up-double" });
                lines.push(Line { instr: Instr::Jump { target: up }, marker: "up-next" });
                debug_assert_eq!(lines.len(), up_end);
                // The down-sweep starts at half the largest power of two below n: for a
                // workgroup of a power of two, n / 4, as the kernel writes it.
                lines.push(Line { instr: Instr::SetImm { reg: DISTANCE, value: down_start(threads) }, marker: "down-first" });
                let down = lines.len();
                let (down_barrier, down_end) = (down + 5, down + 8);
                lines.push(Line { instr: Instr::BranchIfZero { reg: DISTANCE, target: down_end }, marker: "down-loop" });
                level(&mut lines, Instr::IfIdMidBlock { reg: DISTANCE, end: down_barrier }, ["down-active", "down-read", "down-add", "down-write"]);
                lines.push(Line { instr: Instr::Barrier, marker: "down-barrier" });
                lines.push(Line { instr: Instr::HalveReg { reg: DISTANCE }, marker: "down-halve" });
                lines.push(Line { instr: Instr::Jump { target: down }, marker: "down-next" });
                debug_assert_eq!(lines.len(), down_end);
            }
            ScanWay::SinglePass | ScanWay::Tickets | ScanWay::NoFallback => unreachable!("returned above"),
        }
        let mut memory_names: Vec<String> = (0..threads).map(|t| format!("input[{t}]")).collect();
        memory_names.extend((0..threads).map(|t| format!("cells[{t}]")));
        let distance = if self == ScanWay::WorkEfficient { "d" } else { "offset" };
        Program { lines, memory_names, register_names: vec!["value", "other", distance], grids: Vec::new(), workgroup: &["cells"], floats: &[], packed: &[], masks: &[], mask_lanes: 0, spans: Vec::new(), lowered: None }
    }

    /// For the single pass's ways: whether a silent tile is summed, and where a tile comes from.
    fn look_back(self) -> Option<(bool, look_back::TileFrom)> {
        match self {
            ScanWay::SinglePass => Some((true, look_back::TileFrom::Id)),
            ScanWay::Tickets => Some((true, look_back::TileFrom::Ticket)),
            ScanWay::NoFallback => Some((false, look_back::TileFrom::Ticket)),
            _ => None,
        }
    }

    pub fn machine(self, threads: usize) -> Machine {
        if let Some((fallback, from)) = self.look_back() {
            return look_back::machine(fallback, from, &model_values(threads));
        }
        let mut memory = vec![0i64; 2 * threads];
        for (t, v) in model_values(threads).into_iter().enumerate() {
            memory[INPUT + t] = i64::from(v);
        }
        Machine::new(Arc::new(self.program(threads)), threads, memory)
    }
}

/// The down-sweep's first distance for `n` cells: half the largest power of two below `n`
/// (0 for 2 cells, which the up-sweep alone finishes).
pub fn down_start(n: usize) -> i64 {
    let below = if n <= 1 { 0 } else { 1usize << (usize::BITS - 1 - (n - 1).leading_zeros()) };
    (below / 2) as i64
}

/// The model's input for `threads` threads.
pub fn model_values(threads: usize) -> Vec<u32> {
    (0..threads).map(|t| VALUES[t % VALUES.len()]).collect()
}

impl crate::site::settings::LessonVariant for ScanWay {
    fn try_this(self) -> &'static str {
        match self {
            ScanWay::HillisSteele => words::TRY_HILLIS_STEELE,
            ScanWay::OneBarrier => words::TRY_ONE_BARRIER,
            ScanWay::WorkEfficient => words::TRY_WORK_EFFICIENT,
            ScanWay::SinglePass => words::TRY_SINGLE_PASS,
            ScanWay::Tickets => words::TRY_TICKETS,
            ScanWay::NoFallback => words::TRY_NO_FALLBACK,
        }
    }

    const NAMES: &'static [&'static str] = &["hillis-steele", "one-barrier", "work-efficient", "single-pass", "tickets", "no-fallback"];
    const DEFAULT: ScanWay = ScanWay::HillisSteele;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 8;
    /// 4,096 values in tiles of 64: quick on a software adapter, whose barriers are slow.
    const GPU_DEFAULT: GpuParams = GpuParams { invocations: 4096, workgroup_size: 64 };

    fn name(self) -> &'static str {
        match self {
            ScanWay::HillisSteele => "hillis-steele",
            ScanWay::OneBarrier => "one-barrier",
            ScanWay::WorkEfficient => "work-efficient",
            ScanWay::SinglePass => "single-pass",
            ScanWay::Tickets => "tickets",
            ScanWay::NoFallback => "no-fallback",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        ScanWay::ALL.into_iter().find(|w| w.name() == name)
    }

    fn machine(self, threads: usize) -> Machine {
        ScanWay::machine(self, threads)
    }
}

/// Inclusive prefix sums, wrapping as the GPU's u32 arithmetic does: what every way must give.
pub fn inclusive_scan(values: &[u32]) -> Vec<u32> {
    let mut out = vec![0; values.len()];
    scan_into(values, &mut out);
    out
}

/// The same into `out` (as long as `values`): the CPU scan the report and the page time, a
/// plain loop into memory already there, so the time is the scan's and not the allocator's.
pub fn scan_into(values: &[u32], out: &mut [u32]) {
    let mut sum = 0u32;
    for (o, &v) in out.iter_mut().zip(values) {
        sum = sum.wrapping_add(v);
        *o = sum;
    }
}

/// Each tile of `width` scanned on its own: what one dispatch of a tile kernel must leave.
pub fn tile_scans(values: &[u32], width: usize) -> Vec<u32> {
    values.chunks(width.max(1)).flat_map(inclusive_scan).collect()
}

/// Input `i` of every GPU run: the append lesson's numbers from 0 to 99, so the compaction
/// below keeps what its `atomicAdd` keeps.
pub fn gpu_value(i: u32) -> u32 {
    crate::lessons::append::input_value(i)
}

/// The compaction's test, as the append lesson's: a value is kept when below this.
pub const KEEP_BELOW: u32 = crate::lessons::append::LIMIT as u32;

/// The kept values in input order: what an ordered compaction must give.
pub fn compact(values: &[u32]) -> Vec<u32> {
    values.iter().copied().filter(|&v| v < KEEP_BELOW).collect()
}

/// One tile kernel over the whole input: how its sums came out against the CPU's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileRun {
    pub way: ScanWay,
    /// Prefix sums that differ from the CPU's.
    pub wrong: u32,
    /// Tiles with at least one wrong sum.
    pub wrong_tiles: u32,
    /// The first tile with a wrong sum: its index, and its first cells as `(got, right)`.
    pub first_wrong: Option<(u32, Vec<(u32, u32)>)>,
}

/// Cells of the first wrong tile a run keeps, for the page to draw.
pub const SHOWN_CELLS: usize = 16;

/// Compares one tile kernel's output with the CPU's tiles.
pub fn tile_run(way: ScanWay, got: &[u32], want: &[u32], width: usize) -> TileRun {
    let width = width.max(1);
    let (mut wrong, mut wrong_tiles, mut first_wrong) = (0u32, 0u32, None);
    for (tile, (g, w)) in got.chunks(width).zip(want.chunks(width)).enumerate() {
        let bad = g.iter().zip(w).filter(|(a, b)| a != b).count() as u32;
        if bad > 0 {
            wrong += bad;
            wrong_tiles += 1;
            if first_wrong.is_none() {
                first_wrong = Some((tile as u32, g.iter().zip(w).take(SHOWN_CELLS).map(|(&a, &b)| (a, b)).collect()));
            }
        }
    }
    // Output the kernel never wrote counts as wrong too.
    wrong += want.len().saturating_sub(got.len()) as u32;
    TileRun { way, wrong, wrong_tiles, first_wrong }
}

/// A whole GPU run: the three tile kernels, the large scan, and the compaction beside
/// `atomicAdd`'s.
#[derive(Clone, Debug, PartialEq)]
pub struct ScanRun {
    pub tiles: Vec<TileRun>,
    /// Sums of the three-dispatch scan that differ from the CPU's.
    pub large_wrong: u32,
    /// The last prefix sum: the total.
    pub total: u32,
    /// Repeats of the three dispatches inside the timed pass, and nanoseconds per scan where
    /// the adapter has timestamp queries.
    pub repeats: u32,
    pub gpu_ns: Option<f64>,
    /// The compaction: how many it kept, and whether they are exactly the kept inputs in order.
    pub kept: u32,
    pub kept_in_order: bool,
    /// Every kept value, in the slots the compaction wrote.
    pub kept_values: Vec<u32>,
}

/// `atomicAdd`'s compaction (the append lesson's kernel) on the same input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppendBeside {
    pub count: u32,
    /// The same values as the ordered compaction, as a multiset.
    pub same_values: bool,
    /// Slots whose value differs from the ordered compaction's: the order the GPU served.
    pub out_of_place: u32,
    /// The first slot whose value differs from the ordered compaction's, if any: where the
    /// page shows the two side by side.
    pub first_apart: Option<usize>,
    /// Every kept value, in the slots `atomicAdd` handed out.
    pub values: Vec<u32>,
}

/// Kept values each way that the page shows side by side, from the first slot where they part.
pub const SHOWN_KEPT: usize = 12;

/// The slots the page shows side by side: `SHOWN_KEPT` of them from the first where the two
/// compactions part (from the start where they never do), within `count`.
pub fn shown_slots(first_apart: Option<usize>, count: usize) -> std::ops::Range<usize> {
    let start = first_apart.unwrap_or(0).min(count.saturating_sub(SHOWN_KEPT));
    start..(start + SHOWN_KEPT).min(count)
}

pub fn append_beside(output: &[u32], count: u32, ordered: &[u32]) -> AppendBeside {
    let got = &output[..(count as usize).min(output.len())];
    let mut a = got.to_vec();
    let mut b = ordered.to_vec();
    a.sort_unstable();
    b.sort_unstable();
    let out_of_place = got.iter().zip(ordered).filter(|(x, y)| x != y).count() as u32;
    let first_apart = got.iter().zip(ordered).position(|(x, y)| x != y);
    AppendBeside { count, same_values: a == b, out_of_place, first_apart, values: got.to_vec() }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScanCheck {
    /// What is promised held: Hillis–Steele's and the work-efficient tiles, the large scan and
    /// the ordered compaction exact; `atomicAdd` kept the same values.
    pub promise_held: bool,
}

pub fn check(run: &ScanRun, beside: Option<&AppendBeside>) -> ScanCheck {
    let tiles = run.tiles.iter().filter(|t| t.way.promised()).all(|t| t.wrong == 0);
    let appended = beside.is_none_or(|a| a.same_values && a.count == run.kept);
    ScanCheck { promise_held: tiles && run.large_wrong == 0 && run.kept_in_order && appended }
}

/// Bytes a scan of `n` u32 moves at the least: each element read once and written once.
pub fn scan_bytes(n: u32) -> f64 {
    8.0 * f64::from(n)
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(Program, Kernel)> {
    ScanWay::ALL.into_iter().map(|w| (w.program(8), w.kernel())).collect()
}
