//! One lane per model thread (program counter, register, state) and the memory they share.

use crate::model::{Machine, ThreadStatus};
use leptos::prelude::*;

#[component]
pub fn ThreadLanes(
    #[prop(into)] machine: Signal<Machine>,
    /// Threads that moved in the last tick, drawn highlighted.
    #[prop(into)]
    moved: Signal<Vec<usize>>,
    /// Steps just one thread (the reader scheduling by hand).
    on_step_thread: Callback<usize>,
    /// Whether each lane shows its own step button.
    #[prop(into)]
    can_pick: Signal<bool>,
) -> impl IntoView {
    let lanes = move || {
        let m = machine.get();
        let moved = moved.get();
        let program = m.program().clone();
        m.threads
            .iter()
            .enumerate()
            .map(|(t, th)| {
                let status = match th.status {
                    ThreadStatus::Ready => "ready",
                    ThreadStatus::AtBarrier => "waiting at barrier",
                    ThreadStatus::Done => "done",
                };
                let regs = program
                    .register_names
                    .iter()
                    .zip(&th.regs)
                    .map(|(n, v)| view! { <span class="reg"><span class="name">{*n}</span>" = "<span class="value" data-testid=format!("lane-{t}-{n}")>{v.to_string()}</span></span> })
                    .collect_view();
                let ready = th.status == ThreadStatus::Ready;
                let button = can_pick.get().then(|| {
                    let cb = on_step_thread;
                    view! {
                        <button class="step-thread" disabled=!ready on:click=move |_| cb.run(t)
                            data-testid=format!("step-thread-{t}") aria-keyshortcuts=(t < 9).then(|| (t + 1).to_string())
                            title=format!("Step thread {t} (key {})", t + 1)>{format!("step t{t}")}</button>
                    }
                });
                view! {
                    <li class="lane" class:moved=moved.contains(&t) class:done=th.status == ThreadStatus::Done data-testid=format!("lane-{t}")>
                        <span class="thread-name">{format!("thread {t}")}</span>
                        <span class="pc" title="next instruction"><code>{program.describe(th.pc)}</code></span>
                        {regs}
                        <span class="status">{status}</span>
                        {button}
                    </li>
                }
            })
            .collect_view()
    };
    let memory = move || {
        let m = machine.get();
        let names = m.program().memory_names.clone();
        names
            .into_iter()
            .zip(m.memory.clone())
            .map(|(name, value)| {
                view! {
                    <div class="cell">
                        <span class="name">{name}</span>
                        <span class="value" data-testid=format!("model-{name}")>{value.to_string()}</span>
                    </div>
                }
            })
            .collect_view()
    };
    view! {
        <div class="lanes-view">
            <ol class="lanes" class:many=move || machine.with(|m| m.threads.len() > 8) aria-label="threads">{lanes}</ol>
            <div class="memory" aria-label="shared memory">{memory}</div>
        </div>
    }
}
