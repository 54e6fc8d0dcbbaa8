//! The model drawn as a scene that moves: a lane per thread (its name, next instruction and
//! registers), memory as cells and matrices, the barrier as a gate with its arrival count, and
//! each step's accesses as value tokens travelling between a cell and a thread — a load from
//! the cell, a store to it, a read-modify-write holding the cell while the old value comes
//! back. Lost updates and stale reads are marked where they happen. Knows no lesson: it draws
//! any [`Machine`] and the [`Trace`] of its run.
//!
//! Motion only when the run moves one step forward; back, scrub and jumps redraw in place, and
//! `prefers-reduced-motion: reduce` draws no tokens at all.

use crate::model::{Access, AccessKind, Machine, Mark, Program, Space, ThreadStatus, Trace};
use crate::text::fixed;
use crate::ui::moving::{Moving, TokenParts};
use crate::ui::number::Num;
use crate::ui::token_layer::{Flight, Painted};
use leptos::prelude::*;
use std::sync::Arc;

pub use super::COMPACT_FROM;

/// Lanes drawn, full size, when a model has [`COMPACT_FROM`] threads or more and the reader has
/// not asked to see them all: enough to watch a lockstep group load the same value, few enough
/// to read each lane's instruction. The rest are summed up in one row under them.
pub const FEW_LANES: usize = 8;

/// How many of `threads` lanes the scene draws.
fn lanes_shown(threads: usize, show_all: bool) -> usize {
    if show_all || threads < COMPACT_FROM {
        threads
    } else {
        FEW_LANES
    }
}

// The scene is drawn one unit to one CSS pixel and never scaled down: a phone gets the same
// 11–12 px text as a desktop, and a scene too wide for its panel reflows (memory under the
// lanes, compact columns wrapping) before it scrolls.
const LANE_W: f64 = 240.0;
const COMPACT_LANE_W: f64 = 150.0;
const ROW_H: f64 = 34.0;
const COMPACT_ROW_H: f64 = 16.0;
const REG_W: f64 = 44.0;
const COMPACT_REG_W: f64 = 34.0;
const GATE_W: f64 = 18.0;
const CELL_W: f64 = 76.0;
/// A cell holding a float: room for `-495.3125` in the cells' 15 px bold.
const FLOAT_CELL_W: f64 = 100.0;
/// A register holding a float: room for `-495.3125` in the lanes' 12 px.
const FLOAT_REG_W: f64 = 76.0;
const CELL_H: f64 = 38.0;
const MATRIX_CELL: f64 = 26.0;
const TOP: f64 = 26.0;
/// The gap between two rows of compact columns.
const BLOCK_GAP: f64 = 12.0;
/// Width of one character of the lanes' 12 px monospace text.
const CHAR_W: f64 = 7.3;
/// A character of a cell's name (11 px), with room to spare.
const NAME_CHAR_W: f64 = 6.6;
/// Width of one character of the 11 px text: headers, captions and marks.
const SMALL_CHAR_W: f64 = 6.8;
/// Fewer characters of a lane's next instruction than this are not worth showing.
const MIN_INSTRUCTION: usize = 6;
/// The step from one line of register names to the next, where a lane's registers wrap.
const HEADER_LINE: f64 = 13.0;
/// Below the gate: room for the word saying it is stuck.
const GATE_FOOT: f64 = 16.0;

/// Where everything is, computed once per program, thread count and width available.
#[derive(Clone, Debug, PartialEq)]
struct Layout {
    compact: bool,
    /// Lanes drawn: the first this many threads.
    shown: usize,
    /// Threads not drawn, summed up in a row under the lanes.
    hidden: usize,
    /// Lanes per column: all of them, or [`COMPACT_FROM`] when compact.
    per_column: usize,
    /// Columns of lanes side by side before the next row of columns.
    columns_per_row: usize,
    /// A lane's height: one row of registers, or more where they wrap.
    row_h: f64,
    lane_w: f64,
    /// Width of one register's box.
    reg_w: f64,
    /// Registers side by side in a lane, and the rows they take: all in one row where the room
    /// allows, else wrapped, so a lane of many registers fits a phone rather than scrolling.
    reg_cols: usize,
    reg_rows: usize,
    /// The top of the lanes, under the register names (a line of names per row of registers).
    top: f64,
    gate_x: Option<f64>,
    /// The bottom of the lanes (and of the gate beside them).
    lanes_bottom: f64,
    mem_x: f64,
    width: f64,
    height: f64,
    /// Each cell's box: x, y, width, height.
    cells: Vec<(f64, f64, f64, f64)>,
    /// Each matrix: caption and where it is drawn (x, y).
    matrices: Vec<(String, f64, f64)>,
    /// Each group of loose cells: the space it is in, and where its caption goes (x, y).
    spaces: Vec<(Space, f64, f64)>,
    /// Cells drawn one by one (not in a matrix).
    loose: Vec<usize>,
}

impl Layout {
    /// The scene of `program` with the first `shown` of `all` threads' lanes, fitted to `room`
    /// pixels of width where it can be: memory beside the lanes when both fit, under them when not.
    fn of(program: &Program, shown: usize, all: usize, room: f64) -> Layout {
        let (threads, hidden) = (shown, all.saturating_sub(shown));
        let compact = threads >= COMPACT_FROM;
        let regs = program.register_names.len() as f64;
        let (row_h, reg_w) = if compact { (COMPACT_ROW_H, COMPACT_REG_W) } else { (ROW_H, REG_W) };
        // Each register's box as wide as its name above it, so names like `expected` and
        // `exchanged` do not run together.
        let longest = program.register_names.iter().map(|n| n.chars().count()).max().unwrap_or(0) as f64;
        let reg_w = reg_w.max(SMALL_CHAR_W * longest + 8.0).max(if program.floats.is_empty() { 0.0 } else { FLOAT_REG_W });
        // Wide enough for the longest name drawn over a cell too: a kernel's own names
        // (`stats.gave_up`, `cells.as_i32`) run longer than a hand-written model's.
        let drawn_loose = |a: &usize| !program.grids.iter().any(|g| (g.start..g.start + g.rows * g.cols).contains(a));
        let longest_name = (0..program.memory_names.len()).filter(drawn_loose).map(|a| program.memory_names[a].chars().count()).max().unwrap_or(0);
        let cell_w = if program.floats.is_empty() { CELL_W } else { FLOAT_CELL_W }.max(longest_name as f64 * NAME_CHAR_W + 10.0);
        // Room for the name and, in full lanes, some of the next instruction; on a narrow
        // screen the instruction gives way first (the code panel marks it too), the registers never.
        let text_room = if compact { 40.0 } else { 134.0 };
        let wanted = if compact { COMPACT_LANE_W } else { LANE_W }.max(text_room + regs * reg_w);
        // At the least, the name and a mark beside the registers: "stale", or the longest name
        // of a span the program's threads stand in.
        let mark_chars = program.spans.iter().map(|s| s.name.chars().count()).max().unwrap_or(0).max(5) as f64;
        let beside_regs = 40.0 + mark_chars * SMALL_CHAR_W;
        // A barrier's gate and its count stand right of the lanes, within the room too.
        let has_barrier = program.has_barrier();
        let gate_room = if has_barrier { 16.0 + 8.0 * CHAR_W } else { 0.0 };
        // Full lanes too narrow for their registers in one row take them in two or more.
        let reg_cols = if compact || beside_regs + regs * reg_w <= room - gate_room {
            regs as usize
        } else {
            (((room - gate_room - beside_regs) / reg_w).floor() as usize).clamp(1, (regs as usize).max(1))
        };
        let reg_rows = (regs as usize).div_ceil(reg_cols.max(1)).max(1);
        let wanted = if reg_rows > 1 { (text_room + reg_cols as f64 * reg_w).min(room - gate_room) } else { wanted };
        let least = if compact { wanted } else { (beside_regs + reg_cols as f64 * reg_w).min(wanted) };
        let lane_w = wanted.min(room - gate_room).max(least);
        let row_h = row_h * reg_rows as f64;
        let top = TOP + (reg_rows - 1) as f64 * HEADER_LINE;
        let per_column = if compact { COMPACT_FROM } else { threads.max(1) };
        let columns = threads.div_ceil(per_column).max(1);
        let columns_per_row = (((room - gate_room + 8.0) / (lane_w + 8.0)).floor() as usize).clamp(1, columns);
        let block_rows = columns.div_ceil(columns_per_row);
        let block_h = threads.min(per_column) as f64 * row_h;
        // The hidden threads' row, when some are.
        let more_h = if hidden > 0 { ROW_H } else { 0.0 };
        let lanes_bottom = top + block_rows as f64 * (block_h + BLOCK_GAP) - BLOCK_GAP + more_h;
        let lanes_right = columns_per_row as f64 * (lane_w + 8.0) - 8.0;
        let gate_x = has_barrier.then_some(lanes_right + 16.0);
        let beside_x = lanes_right + if has_barrier { 16.0 + GATE_W + 44.0 } else { 36.0 };

        let n = program.memory_names.len();
        let in_grid = |a: usize| program.grids.iter().any(|g| (g.start..g.start + g.rows * g.cols).contains(&a));
        let loose: Vec<usize> = (0..n).filter(|a| !in_grid(*a)).collect();
        // Loose cells grouped by space, storage first, each group under its caption, in rows
        // of up to four; then the matrices side by side, wrapping.
        let groups: Vec<(Space, Vec<usize>)> = [Space::Storage, Space::Workgroup]
            .into_iter()
            .map(|space| (space, loose.iter().copied().filter(|&a| program.space(a) == space).collect::<Vec<_>>()))
            .filter(|(_, cells)| !cells.is_empty())
            .collect();
        let widest_group = groups.iter().map(|(_, c)| c.len()).max().unwrap_or(1).clamp(1, 4);
        let widest_grid = program.grids.iter().map(|g| g.cols as f64 * MATRIX_CELL).fold(0.0, f64::max);
        let memory_w = (widest_group as f64 * (cell_w + 8.0)).max(if program.grids.is_empty() { 0.0 } else { 2.0 * widest_grid + 16.0 });
        // Memory beside the lanes when the two fit the room, else under them.
        let (mem_x, mem_top, mem_room) =
            if beside_x + memory_w <= room { (beside_x, top, memory_w) } else { (0.0, lanes_bottom + GATE_FOOT + 28.0, (room - 10.0).max(cell_w)) };
        let per_row = widest_group.min(((mem_room + 8.0) / (cell_w + 8.0)).floor().max(1.0) as usize);
        let mut cells = vec![(0.0, 0.0, 0.0, 0.0); n];
        let mut spaces = Vec::new();
        let mut y = mem_top;
        for (i, (space, members)) in groups.iter().enumerate() {
            if i > 0 {
                y += 22.0; // room for this group's caption, clear of the notes under the cells above
            }
            spaces.push((*space, mem_x, y - 8.0));
            for (j, &a) in members.iter().enumerate() {
                let (col, row) = (j % per_row, j / per_row);
                cells[a] = (mem_x + col as f64 * (cell_w + 8.0), y + row as f64 * (CELL_H + 18.0), cell_w, CELL_H);
            }
            y += members.len().div_ceil(per_row) as f64 * (CELL_H + 18.0);
        }
        let mut matrices = Vec::new();
        let (mut x, max_x) = (mem_x, mem_x + mem_room.max(per_row as f64 * (cell_w + 8.0)));
        let mut row_bottom = y;
        let mut right = mem_x;
        for g in &program.grids {
            // Room for the caption too.
            let w = (g.cols as f64 * MATRIX_CELL).max((g.name.len() + 12) as f64 * SMALL_CHAR_W);
            if x + w > max_x && x > mem_x {
                x = mem_x;
                y = row_bottom;
            }
            // A matrix says where it lives when the kernel keeps it in workgroup memory.
            let caption = match program.space(g.start) {
                Space::Workgroup => format!("{} · workgroup", g.name),
                Space::Storage => g.name.to_owned(),
            };
            matrices.push((caption, x, y + 14.0));
            for r in 0..g.rows {
                for c in 0..g.cols {
                    if let Some(cell) = cells.get_mut(g.start + r * g.cols + c) {
                        *cell = (x + c as f64 * MATRIX_CELL, y + 14.0 + r as f64 * MATRIX_CELL, MATRIX_CELL, MATRIX_CELL);
                    }
                }
            }
            row_bottom = row_bottom.max(y + 14.0 + g.rows as f64 * MATRIX_CELL + 12.0);
            x += w + 16.0;
            right = right.max(x);
        }
        let mem_bottom = row_bottom.max(y);
        let loose_right = if loose.is_empty() { mem_x } else { mem_x + per_row as f64 * (cell_w + 8.0) + 10.0 };
        let gate_right = gate_x.map_or(0.0, |g| g + 8.0 * CHAR_W);
        let width = loose_right.max(right).max(mem_x + 60.0).max(lanes_right).max(gate_right);
        let height = (lanes_bottom + if has_barrier { GATE_FOOT } else { 0.0 }).max(mem_bottom) + 8.0;
        Layout {
            compact,
            shown,
            hidden,
            per_column,
            columns_per_row,
            row_h,
            lane_w,
            reg_w,
            reg_cols,
            reg_rows,
            top,
            gate_x,
            lanes_bottom,
            mem_x,
            width,
            height,
            cells,
            matrices,
            loose,
            spaces,
        }
    }

    fn lane_x(&self, t: usize) -> f64 {
        ((t / self.per_column) % self.columns_per_row) as f64 * (self.lane_w + 8.0)
    }

    fn lane_y(&self, t: usize) -> f64 {
        let block = (t / self.per_column) / self.columns_per_row;
        let block_h = self.per_column as f64 * self.row_h + BLOCK_GAP;
        self.top + block as f64 * block_h + (t % self.per_column) as f64 * self.row_h
    }

    /// Where a value token meets a thread: the right end of its lane.
    fn lane_port(&self, t: usize) -> (f64, f64) {
        (self.lane_x(t) + self.lane_w - self.reg_w / 2.0, self.lane_y(t) + self.row_h / 2.0)
    }

    /// The height of one row of a lane's registers.
    fn reg_h(&self) -> f64 {
        self.row_h / self.reg_rows as f64
    }

    /// Where register `r`'s box starts, from the left of its lane and the top of its lane.
    fn register_box(&self, r: usize) -> (f64, f64) {
        let (col, row) = (r % self.reg_cols.max(1), r / self.reg_cols.max(1));
        (self.lane_w - (self.reg_cols - col) as f64 * self.reg_w, row as f64 * self.reg_h())
    }

    /// The width of a lane left of its registers: the thread's name and its next instruction.
    fn left_of_registers(&self) -> f64 {
        self.lane_w - self.reg_cols as f64 * self.reg_w
    }

    /// Where lane `t`'s register `r` is written: the middle of its text's baseline.
    fn register_text(&self, t: usize, r: usize) -> (f64, f64) {
        let (x, y) = self.register_box(r);
        let baseline = self.reg_h() / 2.0 + if self.compact { 4.0 } else { 4.5 };
        (self.lane_x(t) + x + 0.5 * self.reg_w, self.lane_y(t) + y + baseline)
    }

    /// Characters a lane's mark (stale, or the span it stands in) holds: it covers the lane
    /// between the thread's name and its registers, in 11 px bold.
    fn badge_chars(&self) -> usize {
        ((self.left_of_registers() - 40.0) / SMALL_CHAR_W).max(5.0) as usize
    }

    fn cell_centre(&self, a: usize) -> (f64, f64) {
        let (x, y, w, h) = self.cells.get(a).copied().unwrap_or_default();
        (x + w / 2.0, y + h / 2.0)
    }

    /// Where the row summing up the hidden threads stands: its top left.
    fn more_row(&self) -> (f64, f64) {
        (0.0, self.lanes_bottom - ROW_H)
    }
}

/// The hidden threads of `m` (all from `shown` on), said in a line: which they are and where
/// they stand.
fn hidden_summary(m: &Machine, shown: usize) -> String {
    let rest = m.threads.get(shown..).unwrap_or_default();
    let count = |s: ThreadStatus| rest.iter().filter(|t| t.status == s).count();
    let parts: Vec<String> = [
        (ThreadStatus::Ready, "running"),
        (ThreadStatus::AtBarrier, "waiting"),
        (ThreadStatus::InSubgroupOp, "in a subgroup operation"),
        (ThreadStatus::Done, "done"),
    ]
    .into_iter()
    .filter_map(|(s, word)| Some(count(s)).filter(|&n| n > 0).map(|n| format!("{n} {word}")))
    .collect();
    let last = m.threads.len().saturating_sub(1);
    format!("t{shown}–t{last}: {} more, {}", rest.len(), parts.join(", "))
}

fn prefers_reduced_motion() -> bool {
    web_sys::window().and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten()).is_some_and(|m| m.matches())
}

/// Lanes whose copy of a cell another thread has overwritten by step `cursor`, with the cell
/// and the thread that overwrote it.
fn stale_lanes(trace: &Trace, cursor: usize) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for a in trace.accesses.iter().filter(|a| a.tick <= cursor) {
        let (Some(Mark::StaleRead { overtaken_by, at }), Some(cell)) = (a.mark, a.cell) else { continue };
        let touched_again = trace.accesses.iter().any(|b| b.thread == a.thread && b.cell == Some(cell) && b.tick > a.tick && b.tick <= cursor);
        if at <= cursor && !touched_again {
            out.push((a.thread, cell, overtaken_by));
        }
    }
    out
}

/// A sentence summing up the picture, for screen readers (`aria-label` of the scene).
fn summary(machine: &Machine, cursor: usize, total: usize) -> String {
    let program = machine.program();
    let count = |s: ThreadStatus| machine.threads.iter().filter(|t| t.status == s).count();
    let cells: Vec<String> = program.memory_names.iter().zip(&machine.memory).take(6).map(|(n, v)| format!("{n} = {v}")).collect();
    let more = machine.memory.len().saturating_sub(6);
    format!(
        "Step {cursor} of {total}. {} thread(s) ready, {} waiting at the barrier, {} done. Memory: {}{}.",
        count(ThreadStatus::Ready),
        count(ThreadStatus::AtBarrier),
        count(ThreadStatus::Done),
        cells.join(", "),
        if more > 0 { format!(" and {more} more cells") } else { String::new() }
    )
}

/// What one lane shows: where its thread stands, its registers, whether it moved this step and
/// whether the reader picks it by hand, and the mark in place of its next instruction.
#[derive(Clone, Debug, PartialEq, Default)]
struct LaneState {
    pc: usize,
    /// The next instruction, whole.
    next: String,
    /// Each register's value as the site writes it (an f32's bits as the float).
    regs: Vec<String>,
    status: Option<ThreadStatus>,
    moved: bool,
    can_pick: bool,
    mark: Option<LaneMark>,
}

/// A few words on a lane, in its next instruction's place: the named span of lines it stands
/// in ("inside", "waiting"; see [`Program::spans`]) or a note the page pins on it ([`LaneNotes`]),
/// or else that another thread has overwritten the cell this thread's copy came from.
#[derive(Clone, Debug, PartialEq)]
enum LaneMark {
    Stale(String),
    Span(String),
}

impl LaneMark {
    fn text(&self) -> &str {
        match self {
            LaneMark::Stale(text) | LaneMark::Span(text) => text,
        }
    }

    fn class(&self) -> &'static str {
        match self {
            LaneMark::Stale(_) => "mark stale",
            LaneMark::Span(_) => "mark span",
        }
    }

    fn test_id(&self, t: usize) -> String {
        match self {
            LaneMark::Stale(_) => format!("scene-stale-{t}"),
            LaneMark::Span(_) => format!("scene-span-{t}"),
        }
    }
}

/// Words a page pins on some lanes for as long as it says (the playground: a finding's two
/// invocations, at the step that made it), provided as a context by that page.
#[derive(Clone, Copy)]
pub struct LaneNotes(pub RwSignal<Vec<(usize, String)>>);

impl LaneState {
    fn ready(&self) -> bool {
        self.status == Some(ThreadStatus::Ready)
    }
}

/// The token `a` sends, if it moves a value: from the cell to a load's lane, from the lane to
/// a store's cell, a read-modify-write's old value back to its thread, an arrival to the gate.
fn flight(a: &Access, layout: &Layout, program: &Program) -> Option<Flight> {
    if a.thread >= layout.shown {
        return None;
    }
    let lane = layout.lane_port(a.thread);
    let cell = a.cell.map(|c| layout.cell_centre(c));
    let gate = layout.gate_x.map(|x| (x + GATE_W / 2.0, lane.1));
    let text = |v: i64| a.cell.map_or_else(|| v.to_string(), |c| program.cell_text(c, v));
    let (from, to, label) = match (a.kind, cell, gate) {
        (AccessKind::Read, Some(c), _) => (c, lane, text(a.value?)),
        (AccessKind::Write, Some(c), _) => (lane, c, text(a.value?)),
        (AccessKind::ReadModifyWrite, Some(c), _) => (c, lane, text(a.old?)),
        (AccessKind::Arrive | AccessKind::Release, _, Some(g)) => (lane, g, format!("t{}", a.thread)),
        _ => return None,
    };
    Some(Flight { from, to, label, rmw: a.kind == AccessKind::ReadModifyWrite })
}

/// What one memory cell shows this step.
#[derive(Clone, Debug, PartialEq, Default)]
struct CellState {
    /// As the site writes it (an f32's bits as the float).
    value: String,
    /// Held by a read-modify-write for this one indivisible step.
    held: bool,
    touched: bool,
    /// The thread whose update this step's store erased.
    lost: Option<usize>,
    /// What this step did to the cell, said beside it: "t0 wrote 1", "t2: 0→1", "4 read 0".
    change: Option<String>,
    /// The state a posted word is in (see [`Program::cell_tone`]), tinting the cell; its word
    /// is in the value, so the tint is never the only sign.
    tone: Option<&'static str>,
}

/// What the accesses of one step did to cell `cell`, short enough to sit under it.
fn change_of(program: &Program, cell: usize, here: &[&Access]) -> Option<String> {
    let first = here.first()?;
    let same_kind = here.iter().all(|a| a.kind == first.kind);
    let text = |v: Option<i64>| v.map_or_else(String::new, |v| program.cell_text(cell, v));
    let value = |a: &Access| text(a.value);
    match (here.len(), first.kind) {
        (1, AccessKind::Read) => Some(format!("t{} read {}", first.thread, value(first))),
        (1, AccessKind::Write) => Some(format!("t{} wrote {}", first.thread, value(first))),
        (1, AccessKind::ReadModifyWrite) => Some(format!("t{}: {}→{}", first.thread, text(first.old), value(first))),
        (n, AccessKind::Read) if same_kind => Some(format!("{n} read {}", value(first))),
        (n, AccessKind::Write) if same_kind => Some(format!("{n} wrote")),
        (n, _) => Some(format!("{n} threads")),
    }
}

/// Signals that outlive the views reading them, grown as a larger model needs more.
fn states<T: Default + Send + Sync + 'static>(store: StoredValue<Vec<ArcRwSignal<T>>>, n: usize) -> Vec<ArcRwSignal<T>> {
    store.update_value(|v| v.resize_with(v.len().max(n), || ArcRwSignal::new(T::default())));
    store.with_value(|v| v[..n].to_vec())
}

/// Writes `now` only where it differs, so only what changed is redrawn.
fn set_if_changed<T: PartialEq + Send + Sync + 'static>(signal: &ArcRwSignal<T>, now: T) {
    if signal.with_untracked(|was| *was != now) {
        signal.set(now);
    }
}

#[component]
pub fn Scene(
    machine: Memo<Machine>,
    /// The run's trace over every known step.
    trace: Memo<Arc<Trace>>,
    #[prop(into)] cursor: Signal<usize>,
    #[prop(into)] total: Signal<usize>,
    /// How long one step's motion lasts, following the player's speed.
    #[prop(into)]
    step_ms: Signal<u32>,
    /// Whether the reader schedules by hand: each lane is then its thread's step button.
    #[prop(into)]
    can_pick: Signal<bool>,
    on_step_thread: Callback<usize>,
    /// Whether the scene fits itself to its container's width (reflowing, never shrinking).
    /// Off for a still on the index, which is drawn whole and scaled to its card.
    #[prop(default = true)]
    reflow: bool,
) -> impl IntoView {
    let reduced = prefers_reduced_motion();
    let container = NodeRef::<leptos::html::Div>::new();
    let room = room_of(container, reflow);
    // A new program (another variant) rebuilds the lanes, which describe its instructions, and
    // with a new thread count lays the scene out again; a step only changes values.
    let program = crate::ui::program_of(machine);
    let threads = Memo::new(move |_| machine.with(|m| m.threads.len()));
    // Many threads: a few lanes drawn full size, the rest on asking.
    let show_all = RwSignal::new(false);
    let layout = Memo::new(move |_| {
        let all = threads.get();
        program.with(|p| Layout::of(p, lanes_shown(all, show_all.get()), all, room.get()))
    });
    // Motion only for one step forward: back, scrub and jumps redraw in place.
    let previous = StoredValue::new(0usize);
    let moving = Memo::new(move |_| {
        let now = cursor.get();
        let before = previous.get_value();
        previous.set_value(now);
        !reduced && now == before + 1
    });
    let this_step = Memo::new(move |_| {
        let c = cursor.get();
        trace.with(|t| t.at(c).cloned().collect::<Vec<Access>>())
    });
    let label = move || machine.with(|m| summary(m, cursor.get(), total.get()));

    // One effect keeps the picture current. Lanes are patched in place, only where their state
    // changed: sixty-four lanes each following the machine through reactive closures made every
    // lockstep step pay for hundreds of effects waking, unsubscribing and subscribing again.
    // Cells read their own state, which the same effect writes where it changed.
    // Each lane's handle, with the state its elements show; none until the handle has drawn it.
    let drawn = StoredValue::new_local(Vec::<(LaneHandle, Option<LaneState>)>::new());
    let notes = use_context::<LaneNotes>();
    let cell_store = StoredValue::new(Vec::<ArcRwSignal<CellState>>::new());
    let lanes_now = move || {
        let l = layout.get();
        let (c, pick) = (cursor.get(), can_pick.get());
        let mut lanes = machine.with(|m| this_step.with(|step| trace.with(|t| lane_states(m, l.shown, step, t, c, pick, l.badge_chars()))));
        if let Some(LaneNotes(notes)) = notes {
            for (t, text) in notes.get() {
                if let Some(lane) = lanes.get_mut(t) {
                    lane.mark = Some(LaneMark::Span(text));
                }
            }
        }
        lanes
    };
    let write_cells = move || {
        machine.with(|m| {
            this_step.with(|step| {
                for (a, cell) in states(cell_store, m.memory.len()).iter().enumerate() {
                    let here = || step.iter().filter(move |x| x.cell == Some(a));
                    let accesses: Vec<&Access> =
                        here().filter(|x| matches!(x.kind, AccessKind::Read | AccessKind::Write | AccessKind::ReadModifyWrite)).collect();
                    set_if_changed(
                        cell,
                        CellState {
                            change: change_of(m.program(), a, &accesses),
                            value: m.program().cell_text(a, m.memory[a]),
                            tone: m.program().cell_tone(a, m.memory[a]),
                            held: here().any(|x| x.kind == AccessKind::ReadModifyWrite),
                            touched: here().next().is_some(),
                            lost: here().find_map(|x| match x.mark {
                                Some(Mark::LostUpdate { erased }) => Some(erased),
                                _ => None,
                            }),
                        },
                    );
                }
            })
        })
    };
    // A compact scene's register values are painted by the token layer, not set as SVG text.
    let painted = RwSignal::new(Vec::<Painted>::new());
    // A render effect, which the page links anyway; it lives as long as the scene.
    let redraw = RenderEffect::new(move |_| {
        let now = lanes_now();
        let l = layout.get_untracked();
        painted.set(if l.compact { painted_registers(&l, &now) } else { Vec::new() });
        patch_lanes(drawn, now);
        write_cells();
    });
    StoredValue::new_local(redraw);

    // Built once per layout, showing the state of the moment; from then on the effect patches them.
    let lanes = move || {
        let l = layout.get();
        let p = program.get();
        let states = untrack(lanes_now);
        let (views, handles): (Vec<_>, Vec<_>) = states.iter().enumerate().map(|(t, state)| scene_lane(t, &l, &p, state, drawn, on_step_thread)).unzip();
        // Another layout's lanes are built again over the old ones' elements, which keep
        // whatever the view did not change since it was last built: the handles' patches
        // included (an instruction cut for a wide lane, left in a narrow one). Once that is
        // done, every lane is drawn again whole from the state of the moment.
        drawn.set_value(handles.into_iter().map(|h| (h, None)).collect());
        queue_microtask(move || patch_lanes(drawn, untrack(lanes_now)));
        views.collect_view()
    };
    let registers_header = move || {
        let l = layout.get();
        program.with(|p| {
            // A line of names for each row of registers, in the rows' order.
            p.register_names
                .iter()
                .enumerate()
                .map(|(r, name)| {
                    let (x, _) = l.register_box(r);
                    let row = r / l.reg_cols.max(1);
                    let y = l.top - 8.0 - (l.reg_rows - 1 - row) as f64 * HEADER_LINE;
                    view! { <text class="header" x=Num(x + l.reg_w / 2.0) y=Num(y) text-anchor="middle">{*name}</text> }
                })
                .collect_view()
        })
    };
    // The gate's count and whether it stands open, from the machine and the trace so far.
    // It counts every thread of the workgroup, as WGSL's barrier must be reached by all of them:
    // a thread that finished without arriving leaves it short, never open.
    let gate_state = Memo::new(move |_| {
        machine.with(|m| {
            let waiting = m.threads.iter().filter(|t| t.status == ThreadStatus::AtBarrier).count();
            let of = m.threads.len().max(1);
            // Open from a release until the next arrival.
            let c = cursor.get();
            let released = trace.with(|t| {
                t.accesses
                    .iter()
                    .rev()
                    .filter(|a| a.tick <= c)
                    .find(|a| matches!(a.kind, AccessKind::Arrive | AccessKind::Release))
                    .is_some_and(|a| a.kind == AccessKind::Release)
            });
            (waiting, of, released)
        })
    });
    // Threads wait at the gate and none can move to join them.
    let stuck = Memo::new(move |_| {
        machine.with(|m| m.threads.iter().any(|t| t.status == ThreadStatus::AtBarrier) && !m.threads.iter().any(|t| t.status == ThreadStatus::Ready))
    });
    let gate = move || {
        let l = layout.get();
        let x = l.gate_x?;
        let height = l.lanes_bottom - l.top;
        let fill = move || gate_state.with(|&(waiting, of, _)| height * waiting as f64 / of as f64);
        let released = move || gate_state.with(|s| s.2);
        Some(view! {
            <g class="gate" class:open=released data-testid="scene-gate" data-arrived=move || gate_state.with(|s| s.0) data-of=move || gate_state.with(|s| s.1)>
                <rect class="gate-frame" x=Num(x) y=Num(l.top) width=Num(GATE_W) height=Num(height) rx="3" />
                <rect class="gate-fill" x=Num(x) y=move || Num(l.top + height - fill()) width=Num(GATE_W) height=move || Num(fill()) rx="3" />
                <text class="gate-count" x=Num(x) y=Num(l.top - 8.0)>{move || gate_state.with(|&(waiting, of, released)| if released { "open".to_owned() } else { format!("{waiting} of {of}") })}</text>
                <text class="mark stuck" x=Num(x) y=Num(l.lanes_bottom + 13.0) data-testid="scene-gate-stuck"
                    display=move || (!stuck.get()).then_some("none")>"stuck"</text>
            </g>
        })
    };
    let memory = move || {
        let l = layout.get();
        let p = program.get();
        untrack(write_cells);
        let cells = states(cell_store, p.memory_names.len());
        let class = |a: usize, small: bool| {
            let state = cells[a].clone();
            let workgroup = p.space(a) == Space::Workgroup;
            move || {
                state.with(|s| {
                    let mut c = String::from(if small { "cell small" } else { "cell" });
                    for (on, name) in [(workgroup, " workgroup"), (s.held, " held"), (s.touched, " touched"), (s.lost.is_some(), " lost")] {
                        if on {
                            c.push_str(name);
                        }
                    }
                    if let Some(tone) = s.tone {
                        c.push(' ');
                        c.push_str(tone);
                    }
                    c
                })
            }
        };
        let loose = l
            .loose
            .iter()
            .map(|&a| {
                let (x, y, w, h) = l.cells[a];
                let name = p.memory_names.get(a).cloned().unwrap_or_default();
                let state = cells[a].clone();
                let value = {
                    let state = state.clone();
                    move || state.with(|s| s.value.clone())
                };
                // Under the cell, one note at a time: a lost update, else what this step did to it.
                // One element kept for good and patched: a step builds nothing (a note built and
                // dropped at each step cost a lockstep step a tenth of its update).
                let note = {
                    let state = state.clone();
                    move |part: fn(Option<usize>, Option<&str>) -> String| state.with(|s| part(s.lost, s.change.as_deref()))
                };
                let (note_class, title, text, shown) = (note.clone(), note.clone(), note, state.clone());
                let lost_mark = view! {
                    <text class=move || note_class(|lost, _| if lost.is_some() { "mark lost".into() } else { "change".into() })
                        display=move || shown.with(|s| (s.lost.is_none() && s.change.is_none()).then_some("none"))
                        x=Num(x + w / 2.0) y=Num(y + h + 13.0) text-anchor="middle">
                        <title>{move || title(|lost, _| lost.map(|t| format!("t{t}'s update was lost: this store wrote over it")).unwrap_or_default())}</title>
                        {move || text(|lost, change| match lost {
                            Some(t) => format!("✕ t{t} lost"),
                            None => change.unwrap_or_default().to_owned(),
                        })}
                    </text>
                };
                view! {
                    <g class=class(a, false) data-testid=format!("scene-cell-{a}")>
                        <rect x=Num(x) y=Num(y) width=Num(w) height=Num(h) rx="4" />
                        <text class="cell-name" x=Num(x + 5.0) y=Num(y + 11.0)>{name.clone()}</text>
                        <text class="cell-value" x=Num(x + w / 2.0) y=Num(y + h - 8.0) text-anchor="middle" data-testid=format!("model-{name}")>{value}</text>
                        {lost_mark}
                    </g>
                }
            })
            .collect_view();
        let grids = p
            .grids
            .iter()
            .zip(&l.matrices)
            .map(|(g, (caption, x, y))| {
                let cells = (0..g.rows * g.cols).map(|i| {
                let a = g.start + i;
                let (cx, cy, w, h) = l.cells.get(a).copied().unwrap_or_default();
                let state = cells[a].clone();
                let name = p.memory_names.get(a).cloned().unwrap_or_default();
                view! {
                    <g class=class(a, true)>
                        <rect x=Num(cx) y=Num(cy) width=Num(w) height=Num(h) />
                        <text class="cell-value" x=Num(cx + w / 2.0) y=Num(cy + h - 7.0) text-anchor="middle" data-testid=format!("model-{name}")>{move || state.with(|s| s.value.clone())}</text>
                    </g>
                }
            }).collect_view();
                view! {
                    <g class="matrix">
                        <text class="header" x=Num(*x) y=Num(*y - 4.0)>{caption.clone()}</text>
                        {cells}
                    </g>
                }
            })
            .collect_view();
        view! {
            {l.spaces.iter().map(|&(space, x, y)| view! {
                <text class="header" class:workgroup=space == Space::Workgroup x=Num(x) y=Num(y)>{space.caption()}</text>
            }).collect_view()}
            {loose}
            {grids}
        }
    };
    // The threads not drawn, in one row under the lanes; the button under the scene.
    let more = move || {
        let l = layout.get();
        (l.hidden > 0).then(|| {
            let (x, y) = l.more_row();
            let shown = l.shown;
            view! {
                <text class="more" x=Num(x + 6.0) y=Num(y + ROW_H / 2.0 + 4.5) data-testid="scene-hidden">{move || machine.with(|m| hidden_summary(m, shown))}</text>
            }
        })
    };
    let toggle = move || {
        let all = threads.get();
        (all >= COMPACT_FROM).then(|| {
            let label = move || if show_all.get() { format!("Show {FEW_LANES} threads") } else { format!("Show all {all} threads") };
            view! {
                <button type="button" class="show-all" aria-expanded=move || show_all.get().to_string() data-testid="scene-show-all"
                    on:click=move |_| show_all.update(|s| *s = !*s)>{label}</button>
            }
        })
    };
    let flights = Memo::new(move |_| {
        let c = cursor.get();
        if !moving.get() {
            return (c, Vec::new());
        }
        let l = layout.get();
        (c, program.with(|p| this_step.with(|s| s.iter().filter_map(|a| flight(a, &l, p)).collect())))
    });

    // The token layer comes with the first step (or a compact scene, whose values it paints):
    // its code is a chunk of its own (see `ui::moving`).
    let tokens_wanted = crate::ui::moving::latch(move || cursor.get() > 0 || layout.with(|l| l.compact));

    view! {
        <div class="scene" node_ref=container class:compact=move || layout.with(|l| l.compact) data-testid="scene"
            class:finished=move || machine.with(|m| m.threads.iter().all(|t| t.status == ThreadStatus::Done))
            data-moving=move || moving.get().to_string()>
            <svg role="img" aria-label=label viewBox=move || layout.with(|l| format!("0 0 {} {}", fixed(l.width, 0), fixed(l.height, 0)))
                width=move || layout.with(|l| fixed(l.width, 0).to_string())
                preserveAspectRatio="xMinYMin meet">
                {registers_header}
                {lanes}
                {more}
                {gate}
                {memory}
            </svg>
            {move || tokens_wanted.get().then(|| crate::ui::moving::part(
                Moving::Tokens(TokenParts {
                    flights,
                    painted: painted.into(),
                    ms: step_ms,
                    scene_width: Signal::derive(move || layout.with(|l| l.width)),
                    compact: Signal::derive(move || layout.with(|l| l.compact)),
                }),
                || view! { <span data-pending="tokens" hidden></span> }.into_any(),
            ))}
        </div>
        {toggle}
    }
}

/// The compact lanes' register values, where each is written.
fn painted_registers(layout: &Layout, lanes: &[LaneState]) -> Vec<Painted> {
    // A finished thread fades while others run; once all have finished, the final values are
    // the point, drawn at full strength.
    let all_done = lanes.iter().all(|l| l.status == Some(ThreadStatus::Done));
    lanes
        .iter()
        .enumerate()
        .flat_map(move |(t, lane)| {
            let faded = lane.status == Some(ThreadStatus::Done) && !all_done;
            (0..lane.regs.len()).map(move |r| Painted { at: layout.register_text(t, r), text: lane.register(r), faded })
        })
        .collect()
}

/// What every lane shows at step `cursor`; a stale mark says as much as `badge_chars`
/// characters hold.
fn lane_states(m: &Machine, shown: usize, step: &[Access], trace: &Trace, cursor: usize, can_pick: bool, badge_chars: usize) -> Vec<LaneState> {
    let stale = stale_lanes(trace, cursor);
    let names = &m.program().memory_names;
    // A lane waiting at a subgroup operation that its step would complete can be stepped.
    let steppable: Vec<usize> = m.ready_threads().collect();
    m.threads
        .iter()
        .take(shown)
        .enumerate()
        .map(|(t, thread)| LaneState {
            pc: thread.pc,
            next: m.describe(thread.pc),
            regs: thread.regs.iter().enumerate().map(|(r, &v)| m.program().register_text(r, v)).collect(),
            status: Some(if steppable.contains(&t) { ThreadStatus::Ready } else { thread.status }),
            moved: step.iter().any(|a| a.thread == t),
            can_pick,
            // The span a thread stands in says more about it than a copy gone stale: a
            // waiter's token is meant to fall behind the phase it waits on.
            mark: m
                .program()
                .span_at(thread.pc)
                .map(|name| {
                    // The span's name, with the next instruction where both fit.
                    let full = format!("{name}: {}", m.describe(thread.pc));
                    LaneMark::Span(if full.chars().count() <= badge_chars { full } else { name.to_owned() })
                })
                .or_else(|| {
                    let &(_, cell, by) = stale.iter().find(|s| s.0 == t)?;
                    let name = names.get(cell).map_or("", String::as_str);
                    let text = [format!("stale: t{by} rewrote {name}"), format!("stale: t{by} wrote"), "stale".to_owned()]
                        .into_iter()
                        .find(|text| text.chars().count() <= badge_chars)
                        .unwrap_or_else(|| "stale".to_owned());
                    Some(LaneMark::Stale(text))
                }),
        })
        .collect()
}

impl LaneState {
    /// The lane's classes: what a step may change about its look.
    fn class(&self) -> String {
        let mut class = String::from("lane");
        if self.moved {
            class.push_str(" moved");
        }
        match self.status {
            Some(ThreadStatus::AtBarrier | ThreadStatus::InSubgroupOp) => class.push_str(" waiting"),
            Some(ThreadStatus::Done) => class.push_str(" done"),
            _ => {}
        }
        if self.can_pick && self.ready() {
            class.push_str(" pickable");
        }
        class
    }

    /// The next instruction, cut to `room` characters; nothing where too few fit to be read.
    fn instruction(&self, room: usize) -> String {
        if self.status.is_none() || room < MIN_INSTRUCTION {
            String::new()
        } else if self.next.chars().count() > room {
            format!("{}…", self.next.chars().take(room - 1).collect::<String>())
        } else {
            self.next.clone()
        }
    }

    fn register(&self, r: usize) -> String {
        self.regs.get(r).cloned().unwrap_or_default()
    }
}

/// A drawn lane's elements, patched by [`LaneHandle::redraw`] when its state changes.
struct LaneHandle {
    t: usize,
    /// Characters of instruction that fit left of the registers.
    room: usize,
    lane: NodeRef<leptos::svg::G>,
    /// The lane's background group: the thread's step button when scheduling by hand.
    button: NodeRef<leptos::svg::G>,
    instruction: NodeRef<leptos::svg::Text>,
    /// Each register's text, in a full lane.
    registers: Vec<NodeRef<leptos::svg::Text>>,
    /// Each register's box, in a compact lane: its value is painted over it, and kept in its
    /// `data-value` for tests and tools.
    register_boxes: Vec<NodeRef<leptos::svg::Rect>>,
    mark: NodeRef<leptos::svg::G>,
    mark_text: NodeRef<leptos::svg::Text>,
}

/// Sets or removes an attribute.
fn set_attribute(element: &web_sys::Element, name: &str, value: Option<&str>) {
    let _ = match value {
        Some(v) => element.set_attribute(name, v),
        None => element.remove_attribute(name),
    };
}

/// The attributes that make a lane a button, when the reader schedules by hand.
fn button_attributes(t: usize, state: &LaneState) -> [(&'static str, Option<String>); 5] {
    let pick = state.can_pick;
    [
        ("role", pick.then(|| "button".to_owned())),
        ("tabindex", pick.then(|| "0".to_owned())),
        ("aria-label", pick.then(|| format!("Step thread {t}"))),
        ("aria-disabled", (pick && !state.ready()).then(|| "true".to_owned())),
        ("data-testid", pick.then(|| format!("step-thread-{t}"))),
    ]
}

/// Brings each drawn lane from what it shows to `now`.
fn patch_lanes(drawn: StoredValue<Vec<(LaneHandle, Option<LaneState>)>, LocalStorage>, now: Vec<LaneState>) {
    drawn.update_value(|lanes| {
        for ((lane, was), now) in lanes.iter_mut().zip(now) {
            lane.redraw(was.as_ref(), &now);
            *was = Some(now);
        }
    });
}

impl LaneHandle {
    /// Patches what changed from `was` to `now`; everything, where what the lane shows is not
    /// known (`was` none).
    fn redraw(&self, was: Option<&LaneState>, now: &LaneState) {
        if was == Some(now) {
            return;
        }
        let whole = was.is_none();
        let unknown = LaneState::default();
        let was = was.unwrap_or(&unknown);
        if let Some(lane) = self.lane.get_untracked() {
            let class = now.class();
            if whole || class != was.class() {
                set_attribute(&lane, "class", Some(&class));
            }
        }
        if whole || (was.pc, was.status) != (now.pc, now.status) {
            if let Some(text) = self.instruction.get_untracked() {
                crate::ui::set_text(&text, &now.instruction(self.room));
            }
        }
        for r in (0..now.regs.len()).filter(|&r| whole || was.regs.get(r) != now.regs.get(r)) {
            if let Some(text) = self.registers.get(r).and_then(NodeRef::get_untracked) {
                crate::ui::set_text(&text, &now.register(r));
            }
            if let Some(register) = self.register_boxes.get(r).and_then(NodeRef::get_untracked) {
                set_attribute(&register, "data-value", Some(&now.register(r)));
            }
        }
        if whole || was.mark != now.mark {
            // The mark takes the instruction's place while it shows, rather than lying over it.
            if let Some(text) = self.instruction.get_untracked() {
                set_attribute(&text, "display", now.mark.is_some().then_some("none"));
            }
            if let (Some(group), Some(text)) = (self.mark.get_untracked(), self.mark_text.get_untracked()) {
                crate::ui::set_text(&text, now.mark.as_ref().map_or("", LaneMark::text));
                set_attribute(&group, "display", now.mark.is_none().then_some("none"));
                set_attribute(&group, "class", Some(now.mark.as_ref().map_or("mark", LaneMark::class)));
                set_attribute(&group, "data-testid", now.mark.as_ref().map(|m| m.test_id(self.t)).as_deref());
            }
        }
        // A lane that is no button stays none as its thread moves on: only picking by hand,
        // or a pickable thread's readiness, changes these.
        let button = |s: &LaneState| (s.can_pick, s.can_pick && s.ready());
        if whole || button(was) != button(now) {
            if let Some(button) = self.button.get_untracked() {
                for (name, value) in button_attributes(self.t, now) {
                    set_attribute(&button, name, value.as_deref());
                }
            }
        }
    }
}

/// One thread's lane, drawn as `state` shows it: its name, next instruction, registers, and a
/// mark in the instruction's place while its copy of a cell is out of date or it stands in a
/// named span. Its handle patches it from then on.
fn scene_lane(
    t: usize,
    layout: &Layout,
    program: &Arc<Program>,
    state: &LaneState,
    drawn: StoredValue<Vec<(LaneHandle, Option<LaneState>)>, LocalStorage>,
    on_step_thread: Callback<usize>,
) -> (AnyView, LaneHandle) {
    let y = layout.lane_y(t);
    let h = layout.row_h;
    let regs = program.register_names.len();
    let x0 = layout.lane_x(t);
    let (lane_w, reg_w, compact) = (layout.lane_w, layout.reg_w, layout.compact);
    let reg_h = layout.reg_h();
    let left = layout.left_of_registers();
    let room = ((left - 44.0) / CHAR_W).max(0.0) as usize;
    let text_y = y + h / 2.0 + if compact { 4.0 } else { 4.5 };
    // The stale mark starts right of the thread's name: `t7` or `t12`.
    let badge_x = if t >= 10 { 32.0 } else { 24.0 };
    let handle = LaneHandle {
        t,
        room,
        lane: NodeRef::new(),
        button: NodeRef::new(),
        instruction: NodeRef::new(),
        registers: (0..if compact { 0 } else { regs }).map(|_| NodeRef::new()).collect(),
        register_boxes: (0..if compact { regs } else { 0 }).map(|_| NodeRef::new()).collect(),
        mark: NodeRef::new(),
        mark_text: NodeRef::new(),
    };
    let registers = (0..regs)
        .map(|r| {
            let name = program.register_names[r];
            let (dx, dy) = layout.register_box(r);
            let (x, y) = (x0 + dx, y + dy);
            let reg_text_y = y + reg_h / 2.0 + if compact { 4.0 } else { 4.5 };
            let test_id = format!("lane-{t}-{name}");
            match (handle.registers.get(r), handle.register_boxes.get(r)) {
                (Some(&text), _) => view! {
                    <g class="reg">
                        <rect x=Num(x + 2.0) y=Num(y + 2.0) width=Num(reg_w - 4.0) height=Num(reg_h - 4.0) rx="3" />
                        <text node_ref=text x=Num(x + reg_w / 2.0) y=Num(reg_text_y) text-anchor="middle" data-testid=test_id>{state.register(r)}</text>
                    </g>
                }
                .into_any(),
                (_, Some(&boxed)) => view! {
                    <g class="reg">
                        <rect node_ref=boxed x=Num(x + 2.0) y=Num(y + 2.0) width=Num(reg_w - 4.0) height=Num(reg_h - 4.0) rx="3" data-testid=test_id data-value=state.register(r) />
                    </g>
                }
                .into_any(),
                _ => ().into_any(),
            }
        })
        .collect_view();
    let instruction_node = handle.instruction;
    let instruction = (!compact).then(|| view! {
        <text class="pc" node_ref=instruction_node x=Num(x0 + 34.0) y=Num(text_y) display=state.mark.is_some().then_some("none")>{state.instruction(room)}</text>
    });
    // Scheduling by hand: the lane is the thread's step button (keys 1–8 do the same).
    let step = move || {
        if drawn.with_value(|lanes| lanes.get(t).and_then(|(_, s)| s.as_ref()).is_some_and(|s| s.can_pick && s.ready())) {
            on_step_thread.run(t);
        }
    };
    let [role, tabindex, label, disabled, test_id] = button_attributes(t, state).map(|(_, v)| v);
    let view = view! {
        <g class=state.class() node_ref=handle.lane data-testid=format!("scene-lane-{t}")>
            <g node_ref=handle.button role=role tabindex=tabindex aria-label=label aria-disabled=disabled data-testid=test_id
                on:click=move |_| step()
                on:keydown=move |e| if e.key() == "Enter" || e.key() == " " { e.prevent_default(); step(); }>
                <rect class="lane-bg" x=Num(x0) y=Num(y + 1.0) width=Num(lane_w) height=Num(h - 2.0) rx="4" />
            </g>
            <text class="thread" x=Num(x0 + 6.0) y=Num(text_y)>{format!("t{t}")}</text>
            {instruction}
            {registers}
            <g class=state.mark.as_ref().map_or("mark", LaneMark::class) node_ref=handle.mark display=state.mark.is_none().then_some("none")
                data-testid=state.mark.as_ref().map(|m| m.test_id(t))>
                <rect x=Num(x0 + badge_x) y=Num(y + 3.0) width=Num(left - badge_x - 4.0) height=Num(h - 6.0) rx="3" />
                <text node_ref=handle.mark_text x=Num(x0 + badge_x + 6.0) y=Num(y + h / 2.0 + 4.0)>{state.mark.as_ref().map_or("", LaneMark::text).to_owned()}</text>
            </g>
        </g>
    }
    .into_any();
    (view, handle)
}

/// How long one step's motion lasts at `speed` steps per second: most of the step, so one
/// token lands before the next sets off.
pub fn step_ms_at(speed: RwSignal<f64>) -> Signal<u32> {
    Signal::derive(move || (700.0 / speed.get()) as u32)
}

/// A run the GPU recorded, drawn like the model: in recorded order, timed by its own player's
/// `speed`, with no lane to pick.
#[component]
pub fn ReplayScene(
    machine: Memo<Machine>,
    trace: Memo<Arc<Trace>>,
    #[prop(into)] cursor: Signal<usize>,
    #[prop(into)] total: Signal<usize>,
    speed: RwSignal<f64>,
    /// The `data-testid` of the scene's container.
    test_id: &'static str,
) -> impl IntoView {
    view! {
        <div data-testid=test_id>
            <Scene machine=machine trace=trace cursor=cursor total=total step_ms=step_ms_at(speed) can_pick=false
                on_step_thread=Callback::new(|_: usize| {}) />
        </div>
    }
}

/// A still of a scene, for a lesson's card on the index: drawn once, no motion, no controls.
#[component]
pub fn SceneThumbnail(machine: Machine) -> impl IntoView {
    let machine = crate::ui::machine_memo(move || machine.clone());
    let trace = Memo::new(|_| Arc::new(Trace::default()));
    view! {
        <div class="thumbnail" aria-hidden="true">
            <Scene machine=machine trace=trace cursor=0usize total=0usize step_ms=0u32 can_pick=false
                on_step_thread=Callback::new(|_: usize| {}) reflow=false />
        </div>
    }
}

/// The width, in CSS pixels, the scene in `container` has to fill: followed as the page
/// resizes, so a phone turned sideways lays the scene out again. Without `reflow`, unbounded.
fn room_of(container: NodeRef<leptos::html::Div>, reflow: bool) -> Signal<f64> {
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    if !reflow {
        return Signal::derive(|| f64::INFINITY);
    }
    // Until the scene is in the page, the window's width less a panel's margins.
    let guess = web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|w| w.as_f64()).map_or(900.0, |w| (w - 48.0).max(240.0));
    let room = RwSignal::new(guess);
    Effect::new(move |_| {
        let Some(div) = container.get() else { return };
        // Measured only in the observer's callback, which the browser runs after its layout
        // (and once at the start): read anywhere else, the width would force a layout of the
        // whole page then and there, and on a page that has just built a long table (the lab's
        // thousands of outcomes) that alone took most of a second.
        let measure = {
            let div = div.clone();
            move || {
                let width = f64::from(div.client_width());
                // Whole pixels of change only: less is not worth laying the scene out again.
                if width > 0.0 && room.try_get_untracked().is_some_and(|was| (was - width).abs() >= 1.0) {
                    room.try_set(width);
                }
            }
        };
        let callback = Closure::<dyn Fn()>::new(measure);
        if let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
            observer.observe(&div);
            // The callback lives exactly as long as its observer: both go with the scene, so a
            // scene built again (another variant's replay) leaves nothing behind.
            let held = send_wrapper::SendWrapper::new((observer, callback));
            on_cleanup(move || held.0.disconnect());
        }
    });
    room.into()
}
