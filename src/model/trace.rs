//! What each step of a run did to memory, in the terms a picture needs: every access with its
//! kind and cell, the marks a reader should see where they happen (a lost update, a stale
//! read), and which accesses touch the same cell with at least one of them writing — the
//! race, drawn as a link between two marks.

use super::machine::{Effect, Event};
use super::program::Addr;
use super::replay::{ReplayAccess, ReplayTimeline};

/// What one thread did in one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    /// A load (or a compare-exchange that did not swap: it only read).
    Read,
    /// A store.
    Write,
    /// An indivisible read-modify-write: the cell held for the step, the old value returned.
    ReadModifyWrite,
    /// Arrival at a barrier that others have yet to reach.
    Arrive,
    /// The last arrival: the barrier opens.
    Release,
    /// Leaving a barrier that has opened (as a GPU recorded it).
    Depart,
    /// Work in the thread's own registers.
    Local,
}

impl AccessKind {
    pub fn writes(self) -> bool {
        matches!(self, AccessKind::Write | AccessKind::ReadModifyWrite)
    }

    pub fn name(self) -> &'static str {
        match self {
            AccessKind::Read => "load",
            AccessKind::Write => "store",
            AccessKind::ReadModifyWrite => "read-modify-write",
            AccessKind::Arrive => "barrier arrival",
            AccessKind::Release => "barrier release",
            AccessKind::Depart => "barrier departure",
            AccessKind::Local => "register work",
        }
    }
}

/// Something the reader should see at an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A plain store that overwrote another thread's write made after this thread last read
    /// the cell: that write is lost.
    LostUpdate { erased: usize },
    /// A plain load whose value another thread overwrote before this thread touched the cell
    /// again (at step `at`): what it read was out of date from then on.
    StaleRead { overtaken_by: usize, at: usize },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// The step (1-based: the state after it is the cursor's `tick`).
    pub tick: usize,
    pub thread: usize,
    pub kind: AccessKind,
    pub cell: Option<Addr>,
    /// The value read (load), written (store) or left in the cell (read-modify-write).
    pub value: Option<i64>,
    /// What a read-modify-write found there and handed back to the thread.
    pub old: Option<i64>,
    pub mark: Option<Mark>,
}

/// Every access of a run, in order, with its marks and links.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    pub accesses: Vec<Access>,
    /// `(earlier, later)` indices into `accesses`: two threads' accesses to one cell, at least
    /// one of them a write, the later linked to the latest such access before it.
    pub links: Vec<(usize, usize)>,
}

impl Trace {
    /// The trace of `ticks` (a session's known ticks, oldest first).
    pub fn of(ticks: &[Vec<Event>]) -> Trace {
        let mut accesses = Vec::new();
        for (i, tick) in ticks.iter().enumerate() {
            for event in tick {
                accesses.extend(accesses_of(i + 1, event));
            }
        }
        let mut trace = Trace { accesses, links: Vec::new() };
        trace.mark();
        trace
    }

    /// The trace of what a GPU recorded (one counter, cell 0), in the order it recorded it:
    /// one step per recorded access, only recorded values, marked by the same rules.
    pub fn of_replay(replay: &ReplayTimeline) -> Trace {
        let accesses = replay
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (kind, value, old) = match s.access {
                    ReplayAccess::Load { value } => (AccessKind::Read, value, None),
                    ReplayAccess::Store { value } => (AccessKind::Write, value, None),
                    ReplayAccess::ReadModifyWrite { old, new } => (AccessKind::ReadModifyWrite, new, Some(i64::from(old))),
                };
                Access { tick: i + 1, thread: s.lane, kind, cell: Some(0), value: Some(i64::from(value)), old, mark: None }
            })
            .collect();
        let mut trace = Trace { accesses, links: Vec::new() };
        trace.mark();
        trace
    }

    /// The trace of a barrier's recorded tickets, in ticket order: `(lane, arriving)` for each,
    /// the `lanes`-th arrival drawn as the release.
    pub fn of_arrivals(tickets: impl IntoIterator<Item = (usize, bool)>, lanes: usize) -> Trace {
        let mut arrived = 0;
        let accesses = tickets
            .into_iter()
            .enumerate()
            .map(|(i, (lane, arriving))| {
                let kind = if arriving {
                    arrived += 1;
                    if arrived == lanes {
                        AccessKind::Release
                    } else {
                        AccessKind::Arrive
                    }
                } else {
                    AccessKind::Depart
                };
                Access { tick: i + 1, thread: lane, kind, cell: None, value: None, old: None, mark: None }
            })
            .collect();
        Trace { accesses, links: Vec::new() }
    }

    /// The trace of tickets a GPU handed out with `atomicAdd` on one counter (cell 0):
    /// `tickets[i]` is what invocation `i` got back. Invocations from `first` to `first + rows`
    /// are drawn, each a read-modify-write, in the order of their tickets; only recorded values.
    pub fn of_tickets(tickets: &[u32], first: usize, rows: usize) -> Trace {
        let mut served: Vec<(u32, usize)> = tickets.iter().enumerate().skip(first).take(rows).map(|(i, &t)| (t, i - first)).collect();
        served.sort_unstable();
        let accesses = served
            .into_iter()
            .enumerate()
            .map(|(step, (ticket, row))| Access {
                tick: step + 1,
                thread: row,
                kind: AccessKind::ReadModifyWrite,
                cell: Some(0),
                value: Some(i64::from(ticket) + 1),
                old: Some(i64::from(ticket)),
                mark: None,
            })
            .collect();
        let mut trace = Trace { accesses, links: Vec::new() };
        trace.mark();
        trace
    }

    /// The accesses of step `tick`.
    pub fn at(&self, tick: usize) -> impl Iterator<Item = &Access> {
        self.accesses.iter().filter(move |a| a.tick == tick)
    }

    fn mark(&mut self) {
        // What is known of each cell so far. Vectors rather than maps: a model has a few cells
        // and threads, and the page is smaller without another map type compiled in.
        #[derive(Clone, Default)]
        struct CellState {
            /// Writes so far, and the thread of the last one.
            writes: usize,
            last_writer: Option<usize>,
            /// Per thread: the write count when it last read the cell, and that read.
            reads: Vec<(usize, usize, usize)>,
            /// The latest access by each thread: thread, access, whether it wrote.
            latest: Vec<(usize, usize, bool)>,
        }
        let cells = self.accesses.iter().filter_map(|a| a.cell).max().map_or(0, |c| c + 1);
        let mut state = vec![CellState::default(); cells];
        // How many barriers had opened before each access. A read and a later write with a
        // barrier between them are ordered by it: the program asked for the value before the
        // barrier (a scan reads its partner's old sum, then waits, then the partner adds), so
        // the write does not make the read stale.
        let mut opened = 0;
        let barriers_before: Vec<usize> = self
            .accesses
            .iter()
            .map(|a| {
                let before = opened;
                opened += usize::from(a.kind == AccessKind::Release);
                before
            })
            .collect();
        for i in 0..self.accesses.len() {
            let Access { thread: t, kind, cell, tick, .. } = self.accesses[i];
            let Some(c) = cell else { continue };
            let s = &mut state[c];
            // Link to the latest access to this cell by another thread, where one side writes.
            if let Some(other) = s.latest.iter().rev().find(|(u, _, w)| *u != t && (*w || kind.writes())) {
                self.links.push((other.1, i));
            }
            s.latest.retain(|(u, _, _)| *u != t);
            s.latest.push((t, i, kind.writes()));
            // A write by another thread overtakes every earlier plain read of this cell that its
            // reader has not followed with a write of its own (the entry is then gone).
            if kind.writes() {
                for &(u, _, read) in &s.reads {
                    let unordered = barriers_before[read] == barriers_before[i];
                    if u != t && unordered && self.accesses[read].mark.is_none() && self.accesses[read].kind == AccessKind::Read {
                        self.accesses[read].mark = Some(Mark::StaleRead { overtaken_by: t, at: tick });
                    }
                }
            }
            let seen = s.reads.iter().find(|r| r.0 == t).map(|r| r.1);
            match kind {
                AccessKind::Read => {
                    s.reads.retain(|r| r.0 != t);
                    s.reads.push((t, s.writes, i));
                }
                AccessKind::Write | AccessKind::ReadModifyWrite => {
                    if kind == AccessKind::Write {
                        if let (Some(seen), Some(writer)) = (seen, s.last_writer) {
                            if s.writes > seen && writer != t {
                                self.accesses[i].mark = Some(Mark::LostUpdate { erased: writer });
                            }
                        }
                    }
                    s.reads.retain(|r| r.0 != t);
                    s.writes += 1;
                    s.last_writer = Some(t);
                }
                _ => {}
            }
        }
    }
}

fn accesses_of(tick: usize, event: &Event) -> Vec<Access> {
    let access = |kind, cell: Option<Addr>, value: Option<i64>, old: Option<i64>| Access { tick, thread: event.thread, kind, cell, value, old, mark: None };
    match event.effect {
        Effect::Loaded { addr, value } => vec![access(AccessKind::Read, Some(addr), Some(value), None)],
        Effect::Stored { addr, value } => vec![access(AccessKind::Write, Some(addr), Some(value), None)],
        Effect::AtomicAdded { addr, old, new } => vec![access(AccessKind::ReadModifyWrite, Some(addr), Some(new), Some(old))],
        Effect::Rmw { addr, old, new, .. } => vec![access(AccessKind::ReadModifyWrite, Some(addr), Some(new), Some(old))],
        Effect::CompareExchanged { addr, old, desired, exchanged: true, .. } => {
            vec![access(AccessKind::ReadModifyWrite, Some(addr), Some(desired), Some(old))]
        }
        Effect::CompareExchanged { addr, old, exchanged: false, .. } => vec![access(AccessKind::Read, Some(addr), Some(old), None)],
        Effect::Offstage { write, atomic, value, .. } => {
            let kind = match (write, atomic) {
                (false, _) => AccessKind::Read,
                (true, false) => AccessKind::Write,
                (true, true) => AccessKind::ReadModifyWrite,
            };
            vec![access(kind, None, Some(value), None)]
        }
        Effect::ArrivedAtBarrier { .. } => vec![access(AccessKind::Arrive, None, None, None)],
        Effect::BarrierReleased { .. } => vec![access(AccessKind::Release, None, None, None)],
        Effect::Added { .. } | Effect::Branched { .. } | Effect::Computed { .. } | Effect::SubgroupArrived { .. } | Effect::SubgroupDone { .. } => {
            vec![access(AccessKind::Local, None, None, None)]
        }
    }
}
