//! The single pass in the model: each model thread stands for a workgroup, and each tile is one
//! digit. A workgroup finds its tile (its own id, or a ticket), loads it, posts its sum, then
//! looks back at the tiles before it, one at a time, until one has posted its inclusive prefix.
//! A tile it finds silent twice in a row is summed from the input by the fallback; without the
//! fallback the look-back gives up there, and its prefix, and every prefix built on it, is wrong.
//!
//! The reader is the scheduler: leave a workgroup unstepped and the next tile's look-back finds
//! its tile silent. Nothing in WGSL promises that workgroup ever runs. With tickets, a tile goes
//! only to a workgroup that has started, so only one held back after its ticket is waited on.

use crate::model::{unpack, Instr, Line, Machine, Program, Span};
use std::sync::Arc;

/// Memory cells: the input, one digit a tile; each tile's posted word; the output; then the
/// kernel's `stats`.
pub const INPUT: usize = 0;
pub fn flags_base(tiles: usize) -> usize {
    INPUT + tiles
}
pub fn output_base(tiles: usize) -> usize {
    INPUT + 2 * tiles
}
pub fn tickets(tiles: usize) -> usize {
    INPUT + 3 * tiles
}
pub fn fallbacks(tiles: usize) -> usize {
    tickets(tiles) + 1
}
pub fn give_ups(tiles: usize) -> usize {
    tickets(tiles) + 2
}

/// Registers.
pub const TILE: usize = 0;
pub const SUM: usize = 1;
pub const AT: usize = 2;
pub const FLAG: usize = 3;
pub const POLLS: usize = 4;
pub const BEFORE: usize = 5;
pub const PART: usize = 6;
pub const OLD: usize = 7;

/// The states a tile's word moves through past `NOT_READY`, as the model packs them.
pub use crate::model::{AGGREGATE, INCLUSIVE};

/// Looks at the same silent tile before the fallback (or the give-up): two, so a reader who
/// holds one workgroup back sees it happen within a few steps. The kernel waits 64.
pub const MODEL_POLLS: i64 = 2;

/// How a model workgroup finds its tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileFrom {
    /// `tile = workgroup_id.x`, as the kernel's fastest way does.
    Id,
    /// `tile = atomicAdd(&next_tile, 1)`.
    Ticket,
}

/// Written by hand, not lowered from the kernel: a model thread stands for a whole tile's workgroup.
/// The program every model workgroup runs; `fallback` false gives up where it would sum.
pub fn program(fallback: bool, from: TileFrom, tiles: usize) -> Program {
    let (flags, output) = (flags_base(tiles), output_base(tiles));
    let line = |instr: Instr, marker: &'static str| Line { instr, marker };
    let find_tile = match from {
        TileFrom::Id => line(Instr::FromId { reg: TILE, add: 0 }, "by-id"),
        TileFrom::Ticket => line(Instr::AtomicAdd { reg: TILE, addr: tickets(tiles), imm: 1 }, "ticket"),
    };
    let mut lines = vec![
        find_tile,
        line(Instr::LoadAt { array: "input", base: INPUT, index: TILE, reg: SUM }, "load"),
    ];
    // Lines are numbered as they are pushed; the targets below are checked once all are in.
    let first_tile = lines.len();
    let look = first_tile + 3;
    let (fallback_at, fallback_len) = (look + 5, if fallback { 5 } else { 2 });
    let passed = fallback_at + fallback_len;
    let next = passed + 1;
    let found = next + 4;
    let done = found + 1;
    let first = done + 3;
    let write = first + 1;
    lines.push(line(Instr::IfAtLeast { reg: TILE, limit: 1, end: first }, "first-tile"));
    lines.push(line(Instr::Post { array: "flags", base: flags, index: TILE, state: AGGREGATE, value: SUM }, "aggregate"));
    lines.push(line(Instr::Offset { reg: AT, from: TILE, imm: -1 }, "start"));
    debug_assert_eq!(lines.len(), look);
    lines.push(line(Instr::LoadAt { array: "flags", base: flags, index: AT, reg: FLAG }, "look"));
    lines.push(line(Instr::BranchIfState { reg: FLAG, state: INCLUSIVE, target: found }, "found"));
    lines.push(line(Instr::BranchIfState { reg: FLAG, state: AGGREGATE, target: passed }, "passed"));
    lines.push(line(Instr::AddImm { reg: POLLS, imm: 1 }, "silent"));
    lines.push(line(Instr::BranchIfBelow { reg: POLLS, limit: MODEL_POLLS, target: look }, "again"));
    debug_assert_eq!(lines.len(), fallback_at);
    if fallback {
        // Sum the silent tile from the input and post it for everyone: its own workgroup's
        // later post of the same sum, or of its inclusive prefix, leaves the larger word.
        lines.push(line(Instr::LoadAt { array: "input", base: INPUT, index: AT, reg: PART }, "fallback"));
        lines.push(line(Instr::Post { array: "flags", base: flags, index: AT, state: AGGREGATE, value: PART }, "rescue"));
        lines.push(line(Instr::AtomicAdd { reg: OLD, addr: fallbacks(tiles), imm: 1 }, "tally"));
        lines.push(line(Instr::AddReg { reg: BEFORE, other: PART }, "add-rescued"));
        lines.push(line(Instr::Jump { target: next }, "add-rescued"));
    } else {
        lines.push(line(Instr::AtomicAdd { reg: OLD, addr: give_ups(tiles), imm: 1 }, "give-up"));
        lines.push(line(Instr::Jump { target: done }, "give-up"));
    }
    debug_assert_eq!(lines.len(), passed);
    lines.push(line(Instr::AddPosted { reg: BEFORE, flag: FLAG }, "passed"));
    // Tile 0's sum is its inclusive prefix: no look goes past it.
    lines.push(line(Instr::BranchIfZero { reg: AT, target: done }, "step-back"));
    lines.push(line(Instr::Offset { reg: AT, from: AT, imm: -1 }, "step-back"));
    lines.push(line(Instr::SetImm { reg: POLLS, value: 0 }, "step-back"));
    lines.push(line(Instr::Jump { target: look }, "step-back"));
    debug_assert_eq!(lines.len(), found);
    lines.push(line(Instr::AddPosted { reg: BEFORE, flag: FLAG }, "found"));
    debug_assert_eq!(lines.len(), done);
    lines.push(line(Instr::AddReg { reg: SUM, other: BEFORE }, "inclusive"));
    lines.push(line(Instr::Post { array: "flags", base: flags, index: TILE, state: INCLUSIVE, value: SUM }, "inclusive"));
    lines.push(line(Instr::Jump { target: write }, "inclusive"));
    debug_assert_eq!(lines.len(), first);
    lines.push(line(Instr::Post { array: "flags", base: flags, index: TILE, state: INCLUSIVE, value: SUM }, "post"));
    debug_assert_eq!(lines.len(), write);
    lines.push(line(Instr::StoreAt { array: "output", base: output, index: TILE, reg: SUM }, "write"));

    let mut memory_names: Vec<String> = (0..tiles).map(|t| format!("input[{t}]")).collect();
    memory_names.extend((0..tiles).map(|t| format!("flags[{t}]")));
    memory_names.extend((0..tiles).map(|t| format!("output[{t}]")));
    memory_names.extend(["next_tile", "fallbacks", "give_ups"].map(str::to_owned));
    let spans = Span::between(&lines, "looking back", "look", "again").into_iter().collect();
    Program {
        lines,
        memory_names,
        register_names: vec!["tile", "sum", "at", "flag", "polls", "before", "part", "old"],
        grids: Vec::new(),
        workgroup: &[],
        floats: &[],
        packed: &["flags", "flag"],
        masks: &[],
        mask_lanes: 0,
        spans,
        lowered: None,
    }
}

/// A machine of `tiles` model workgroups over `values`, one digit a tile.
pub fn machine(fallback: bool, from: TileFrom, values: &[u32]) -> Machine {
    let tiles = values.len();
    let mut memory = vec![0i64; tickets(tiles) + 3];
    for (t, &v) in values.iter().enumerate() {
        memory[INPUT + t] = i64::from(v);
    }
    Machine::new(Arc::new(program(fallback, from, tiles)), tiles, memory)
}

/// Whether `program` is the single pass's (the page's outcome line speaks of it differently).
pub fn is_single_pass(program: &Program) -> bool {
    program.lines.first().is_some_and(|l| matches!(l.marker, "ticket" | "by-id"))
}

/// What a finished model run left: wrong outputs, fallbacks fired, give-ups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LookBackEnd {
    /// `(tile, got, right)` for each output that is not the inclusive prefix.
    pub wrong: Vec<(usize, i64, i64)>,
    pub fallbacks: i64,
    pub give_ups: i64,
    /// Tiles whose word ended in a state other than the inclusive prefix.
    pub unfinished_flags: usize,
}

pub fn end_of(m: &Machine) -> LookBackEnd {
    let tiles = m.threads.len();
    let values: Vec<u32> = m.memory[INPUT..INPUT + tiles].iter().map(|&v| v as u32).collect();
    let want = super::inclusive_scan(&values);
    let wrong = m.memory[output_base(tiles)..output_base(tiles) + tiles]
        .iter()
        .zip(&want)
        .enumerate()
        .filter(|(_, (got, want))| **got != i64::from(**want))
        .map(|(t, (got, want))| (t, *got, i64::from(*want)))
        .collect();
    let unfinished_flags = m.memory[flags_base(tiles)..flags_base(tiles) + tiles].iter().filter(|&&w| unpack(w).0 != INCLUSIVE).count();
    LookBackEnd { wrong, fallbacks: m.memory[fallbacks(tiles)], give_ups: m.memory[give_ups(tiles)], unfinished_flags }
}

/// The page's line under a finished model run.
pub fn outcome(m: &Machine) -> String {
    let end = end_of(m);
    let tiles = m.threads.len();
    let last = m.memory[output_base(tiles) + tiles - 1];
    let fallbacks = match end.fallbacks {
        0 => String::new(),
        1 => " One look-back found a tile silent twice and summed it from the input itself: the fallback.".to_owned(),
        f => format!(" {f} look-backs found a tile silent twice and summed it from the input themselves: the fallback."),
    };
    if end.wrong.is_empty() {
        return format!("Finished: every tile holds the sum of the input up to it, {last} in the last.{fallbacks}");
    }
    let wrong: Vec<String> = end.wrong.iter().map(|(t, got, right)| format!("output[{t}] = {got}, not {right}")).collect();
    format!(
        "Finished with {} wrong: {}. {} look-back(s) gave up on a silent tile and posted what they had; every tile after built on it. Unbounded, the wait would have lasted as long as that workgroup was not run, and nothing promises it ever runs.",
        end.wrong.len(),
        wrong.join("; "),
        end.give_ups
    )
}
