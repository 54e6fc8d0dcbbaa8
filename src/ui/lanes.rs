//! One lane per model thread (program counter, register, state) and the memory they share.
//!
//! A step usually changes a few lanes out of as many as 64, so each lane is built once and
//! only its changing text is updated: a wide model steps as cheaply as a narrow one.

use crate::model::{Machine, Program, ThreadState, ThreadStatus};
use crate::ui::matrix::MatrixGrid;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn ThreadLanes(
    machine: Memo<Machine>,
    /// Threads that moved in the last tick, drawn highlighted.
    moved: Memo<Vec<usize>>,
    /// Steps just one thread (the reader scheduling by hand).
    on_step_thread: Callback<usize>,
    /// Whether each lane shows its own step button.
    #[prop(into)]
    can_pick: Signal<bool>,
) -> impl IntoView {
    let count = Memo::new(move |_| machine.with(|m| m.threads.len()));
    // A new program (the variant changed) rebuilds the lanes; a step only updates them.
    let program = crate::ui::program_of(machine);
    let memory = move || {
        machine.with(|m| {
            let program = m.program();
            let in_grid = |a: usize| program.grids.iter().any(|g| (g.start..g.start + g.rows * g.cols).contains(&a));
            let cells = program
                .memory_names
                .iter()
                .zip(&m.memory)
                .enumerate()
                .filter(|(a, _)| !in_grid(*a))
                .map(|(a, (name, &value))| {
                    view! {
                        <div class="cell">
                            <span class="name">{name.clone()}</span>
                            <span class="value" data-testid=format!("model-{name}")>{program.cell_text(a, value)}</span>
                        </div>
                    }
                })
                .collect_view();
            let grids = program
                .grids
                .iter()
                .map(|g| {
                    let values = m.memory.get(g.start..g.start + g.rows * g.cols).unwrap_or_default();
                    view! {
                        <MatrixGrid caption=g.name.to_owned() cols=g.cols
                            cells=values.iter().enumerate().map(|(i, &v)| (program.cell_text(g.start + i, v), false)).collect() />
                    }
                })
                .collect_view();
            (cells, grids)
        })
    };
    view! {
        <div class="lanes-view">
            <ol class="lanes" class:many=move || { count.get() > 8 } aria-label="threads">
                {move || {
                    let program = program.get();
                    view! {
                        <For each=move || 0..count.get() key=|t| *t let:t>
                            <Lane t=t program=program.clone() machine=machine moved=moved on_step_thread=on_step_thread can_pick=can_pick />
                        </For>
                    }
                }}
            </ol>
            <div class="memory" class:grids=move || machine.with(|m| !m.program().grids.is_empty()) aria-label="shared memory">{memory}</div>
        </div>
    }
}

#[component]
fn Lane(
    t: usize,
    program: Arc<Program>,
    machine: Memo<Machine>,
    moved: Memo<Vec<usize>>,
    on_step_thread: Callback<usize>,
    can_pick: Signal<bool>,
) -> impl IntoView {
    // This lane's thread alone: lanes whose thread did not change are left untouched.
    let thread = Memo::new(move |_| machine.with(|m| m.threads.get(t).cloned()));
    let field = move |f: fn(&ThreadState) -> String| move || thread.with(|th| th.as_ref().map(f).unwrap_or_default());
    let status = field(|th| match th.status {
        ThreadStatus::Ready => "ready".into(),
        ThreadStatus::AtBarrier => "waiting at barrier".into(),
        ThreadStatus::InSubgroupOp => "waiting for its subgroup".into(),
        ThreadStatus::Done => "done".into(),
    });
    let ready = move || thread.with(|th| th.as_ref().is_some_and(|th| th.status == ThreadStatus::Ready));
    let done = move || thread.with(|th| th.as_ref().is_some_and(|th| th.status == ThreadStatus::Done));
    // The instruction, in the words of the engine stepping it: only when the thread moves.
    let at = Memo::new(move |_| thread.with(|th| th.as_ref().map(|th| th.pc)));
    let pc = move || at.get().map(|pc| machine.with_untracked(|m| m.describe(pc))).unwrap_or_default();
    let regs = program
        .register_names
        .iter()
        .enumerate()
        .map(|(r, n)| {
            let program = program.clone();
            let value = move || thread.with(|th| th.as_ref().and_then(|th| th.regs.get(r)).map(|&v| program.register_text(r, v)).unwrap_or_default());
            view! { <span class="reg"><span class="name">{*n}</span>" = "<span class="value" data-testid=format!("lane-{t}-{n}")>{value}</span></span> }
        })
        .collect_view();
    view! {
        <li class="lane" class:moved=move || moved.with(|m| m.contains(&t)) class:done=done data-testid=format!("lane-{t}")>
            <span class="thread-name">{format!("thread {t}")}</span>
            <span class="pc" title="next instruction"><code>{pc}</code></span>
            {regs}
            <span class="status">{status}</span>
            <Show when=move || can_pick.get()>
                <button class="step-thread" disabled=move || !ready() on:click=move |_| on_step_thread.run(t)
                    data-testid=format!("step-thread-{t}") aria-keyshortcuts=(t < 9).then(|| (t + 1).to_string())
                    title=format!("Step thread {t}{}", if t < 8 { format!(" (key {})", t + 1) } else { String::new() })>
                    {format!("step t{t}")}
                </button>
            </Show>
        </li>
    }
}
