//! `?lesson=atomic-counter`: atomicAdd returns the value it replaced, so every invocation
//! that calls it gets a different number — a ticket — in the order the GPU served them.

pub mod export;
pub mod gpu;
pub mod measured;
#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_atomic_counter.rs"));
}
#[cfg(not(target_arch = "wasm32"))]
pub mod report;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::gpu::params::GpuParams;
use crate::gpu::Kernel;
use crate::model::kernel::{self, Show};
use crate::model::Machine;
use std::ops::RangeInclusive;

/// This lesson's kernels, each a file under `shaders/atomic-counter/`.
pub mod kernels {
    use crate::gpu::Kernel;

    pub const TICKETS: Kernel = crate::kernel!("atomic-counter", "tickets.wgsl");

    /// Every kernel of the lesson that compiles everywhere.
    pub const ALL: &[Kernel] = &[TICKETS];
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "atomic-counter",
    title: "Taking a ticket",
    summary: "atomicAdd returns the old value: every invocation gets its own ticket, in the order your GPU served them.",
    chapter: super::Chapter::Atomics,
    kernels: kernels::ALL,
    #[cfg(not(target_arch = "wasm32"))]
    models,
    preview: Some(super::preview::<Tickets>),
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::TicketsLesson()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[("tickets", report::main)],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[crate::data::measured::MeasuredFile { file: "h100-tickets.json", text: measured::H100_TICKETS, schema: Some(measured::SCHEMA) }],
};

/// The counter the tickets come from.
pub const NEXT: usize = 0;
/// Where thread `t` writes its ticket: `TICKETS + t`.
pub const TICKETS: usize = 1;
/// The register each thread keeps its ticket in.
pub const TICKET: usize = 0;

/// Model threads the lesson can show.
pub const MODEL_THREADS: RangeInclusive<usize> = 2..=16;

/// The lesson has one program; this names it for links and settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tickets;

impl Tickets {
    /// The kernel itself (`ticket = atomicAdd(&next, 1)`, then `tickets[id] = ticket`), lowered
    /// from its WGSL, for `threads` invocations in one workgroup.
    pub fn machine(threads: usize) -> Machine {
        let setup = kernel::one_workgroup(threads, vec![((0, 1), vec![0; threads]), ((0, 2), vec![threads as u32])]);
        kernel::machine_or_empty(&crate::stepped::TICKETS, kernels::TICKETS.source(), &setup, Show { values: &["ticket"], ..Show::default() })
    }

    pub fn kernel() -> Kernel {
        kernels::TICKETS
    }

    /// The tickets the first `rows` invocations recorded (`tickets[i]` is invocation `i`'s),
    /// after the first `upto` of them were handed out in ticket order, as a machine of
    /// [`Tickets::program`]: a served invocation holds its ticket and has written it; `next` is
    /// one past the last ticket handed out. Only recorded values appear (other invocations took
    /// the tickets between them, so `next` can jump).
    pub fn replay_machine(tickets: &[u32], rows: usize, upto: usize) -> Machine {
        use crate::model::ThreadStatus;
        let rows = rows.min(tickets.len());
        let mut served: Vec<(u32, usize)> = tickets[..rows].iter().copied().zip(0..).collect();
        served.sort_unstable();
        // Many invocations: their tickets as a grid, eight to a row.
        let mut machine = Self::machine(rows).with_program(|p| {
            if rows > 8 {
                p.grids.push(crate::model::MemoryGrid { name: "tickets", start: TICKETS, rows: rows.div_ceil(8), cols: 8 });
            }
        });
        let end = machine.program().len();
        for &(ticket, row) in served.iter().take(upto) {
            machine.memory[NEXT] = i64::from(ticket) + 1;
            machine.memory[TICKETS + row] = i64::from(ticket);
            let thread = &mut machine.threads[row];
            thread.regs[TICKET] = i64::from(ticket);
            (thread.pc, thread.status) = (end, ThreadStatus::Done);
        }
        machine
    }
}

impl crate::site::settings::LessonVariant for Tickets {
    fn try_this(self) -> &'static str {
        words::TRY
    }

    const NAMES: &'static [&'static str] = &[];
    const DEFAULT: Tickets = Tickets;
    const THREADS: RangeInclusive<usize> = MODEL_THREADS;
    const DEFAULT_THREADS: usize = 4;

    fn name(self) -> &'static str {
        "tickets"
    }

    fn from_name(_: &str) -> Option<Self> {
        Some(Tickets)
    }

    fn machine(self, threads: usize) -> Machine {
        Tickets::machine(threads)
    }
}

/// Links to this lesson: the model's state and the GPU sizes.
pub type TicketSettings = crate::site::settings::LessonSettings<Tickets>;

/// What a run's tickets say: are they exactly 0..n, each once, and how the GPU handed them out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicketCheck {
    /// Each of 0..n appears exactly once, and the counter ended at n.
    pub is_permutation: bool,
    /// Tickets outside 0..n or given twice, and numbers of 0..n never given, at most a few
    /// of each so a message can list them.
    pub repeated: Vec<u32>,
    pub missing: Vec<u32>,
    pub out_of_range: Vec<u32>,
    pub final_counter: u32,
    /// Workgroups whose invocations got one unbroken block of tickets (in any order inside):
    /// the GPU served that workgroup without serving another in between.
    pub whole_workgroups: u32,
    pub workgroups: u32,
    /// Invocations whose ticket is one more than the previous invocation's in the same
    /// workgroup: a measure of how far lane order decided ticket order.
    pub in_lane_order: u32,
}

const LISTED: usize = 8;

/// Checks the tickets `tickets[i]` of invocation `i`, and the counter they came from.
pub fn check(tickets: &[u32], final_counter: u32, params: GpuParams) -> TicketCheck {
    let n = tickets.len();
    let mut seen = vec![0u32; n];
    let mut out_of_range = Vec::new();
    for &t in tickets {
        match seen.get_mut(t as usize) {
            Some(count) => *count += 1,
            None if out_of_range.len() < LISTED => out_of_range.push(t),
            None => {}
        }
    }
    let repeated: Vec<u32> = (0..n).filter(|&i| seen[i] > 1).take(LISTED).map(|i| i as u32).collect();
    let missing: Vec<u32> = (0..n).filter(|&i| seen[i] == 0).take(LISTED).map(|i| i as u32).collect();
    let is_permutation = seen.iter().all(|&c| c == 1) && final_counter as usize == n;

    let size = params.workgroup_size.max(1) as usize;
    let mut whole_workgroups = 0;
    let mut in_lane_order = 0;
    for group in tickets.chunks(size) {
        let (lo, hi) = group.iter().fold((u32::MAX, 0), |(lo, hi), &t| (lo.min(t), hi.max(t)));
        if (hi - lo) as usize + 1 == group.len() {
            whole_workgroups += 1;
        }
        in_lane_order += group.windows(2).filter(|w| w[1] == w[0].wrapping_add(1)).count() as u32;
    }
    TicketCheck {
        is_permutation,
        repeated,
        missing,
        out_of_range,
        final_counter,
        whole_workgroups,
        workgroups: tickets.len().div_ceil(size) as u32,
        in_lane_order,
    }
}

/// Every model program the lesson steps, with the kernel whose lines its markers name.
#[cfg(not(target_arch = "wasm32"))]
fn models() -> Vec<(crate::model::Program, Kernel)> {
    vec![(Tickets::machine(4).program().as_ref().clone(), Tickets::kernel())]
}
