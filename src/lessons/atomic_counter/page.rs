//! The ticket lesson page: a few model threads taking tickets beside the real kernel handing
//! out thousands, with the order the reader's GPU served them drawn as a grid.

use crate::text::Float;
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::atomic_counter::gpu::{run_tickets, TicketRun};
use crate::lessons::atomic_counter::{check, Tickets, NEXT, TICKETS};
use crate::model::Machine;
use crate::ui::download::DownloadJson;
use crate::ui::figures::{figure, Figures};
use crate::ui::gpu::now_ms;
use crate::ui::gpu_form::{GpuJob, RunForm, SizeFields};
use crate::ui::gpu_half::{gpu_half, GpuPart, Part};
use crate::ui::lesson_page::{open_lesson, LessonPage};
use crate::ui::measured::{range, MeasuredTable};
use crate::ui::ticket_grid::TicketGrid;
use leptos::prelude::*;
use super::words;

#[component]
pub fn TicketsLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<Tickets>("atomic-counter");
    view! {
        <LessonPage id="atomic-counter" title="Taking a ticket" model=model problems=problems lead=words::LEAD words=words::TEXT
            start="Start: next is 0 and no thread holds a ticket yet." outcome=model_outcome
            kernel=Signal::derive(Tickets::kernel) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, sizes) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
pub fn gpu_half(part: GpuPart) -> AnyView {
    part.view(|sizes: SizeFields| view! { <GpuTickets sizes=sizes /> <MeasuredElsewhere /> })
}

/// The verdict on a finished model run: which thread took which ticket.
fn model_outcome(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    let n = m.threads.len();
    let order: Vec<String> = {
        let mut by_ticket: Vec<(i64, usize)> = (0..n).map(|t| (m.memory[TICKETS + t], t)).collect();
        by_ticket.sort_unstable();
        by_ticket.iter().map(|(_, t)| format!("t{t}")).collect()
    };
    format!("Finished: next is {}, and tickets 0 to {} went to {} — one each, none twice.", m.memory[NEXT], n - 1, order.join(", "))
}


/// The same kernel in CUDA, where atomicAdd also returns the old value.
const CUDA: &str = "__global__ void take_tickets(unsigned *next, unsigned *tickets, unsigned n) {\n    unsigned id = blockIdx.x * blockDim.x + threadIdx.x;\n    if (id >= n) return;\n    unsigned ticket = atomicAdd(next, 1u);  // the old value\n    tickets[id] = ticket;\n}";

#[derive(Clone)]
struct TicketResult {
    adapter: AdapterSummary,
    params: GpuParams,
    run: TicketRun,
    wall_ms: f64,
}

#[component]
fn GpuTickets(sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<TicketResult>::new();
    crate::ui::gpu::warm(move || vec![(Tickets::kernel(), sizes.opened().workgroup_size)]);
    let run = Callback::new(move |()| {
        job.start(sizes, |ctx, params| async move {
            let t0 = now_ms();
            let run = run_tickets(&ctx, params).await?;
            Ok(TicketResult { adapter: ctx.adapter.clone(), params, run, wall_ms: now_ms() - t0 })
        })
    });
    view! {
        <RunForm sizes=sizes job=job on_run=run />
        {move || job.result.get().map(|r| view! { <TicketReport result=r /> })}
    }
}

#[component]
fn TicketReport(result: TicketResult) -> impl IntoView {
    let TicketResult { adapter, params, run, wall_ms } = result;
    let c = check(&run.tickets, run.next, params);
    let verdict = if c.is_permutation {
        format!("Every ticket from 0 to {} was taken exactly once.", params.invocations - 1)
    } else {
        let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
        format!(
            "The tickets are not 0..{} each once: repeated [{}], missing [{}], out of range [{}], counter {}. This GPU broke atomicAdd's promise.",
            params.invocations,
            list(&c.repeated),
            list(&c.missing),
            list(&c.out_of_range),
            run.next
        )
    };
    let export = {
        let (adapter, run) = (adapter.clone(), run.clone());
        move || {
            let json = crate::lessons::atomic_counter::export::run(&adapter, params, &run, wall_ms);
            (format!("syncscope-tickets-{}.json", params.invocations), json.to_pretty())
        }
    };
    let gpu_time = run.gpu_ns.map(|ns| format!(", {:.3} ms on the GPU", Float(ns / 1e6))).unwrap_or_default();
    view! {
        <div class="run-report" data-testid="gpu-report">
            <Figures items=vec![
                figure("Invocations × workgroup", format!("{} in {} workgroups of {}", params.invocations, params.workgroups(), params.workgroup_size)),
                figure("Expected final next", params.invocations.to_string()).id("gpu-expected"),
                figure("Observed final next", run.next.to_string()).id("gpu-observed"),
                figure("Workgroups served whole", format!("{} of {}", c.whole_workgroups, c.workgroups)).id("gpu-whole-workgroups"),
                figure("Neighbours in lane order", format!("{} of {}", c.in_lane_order, params.invocations.saturating_sub(c.workgroups))).id("gpu-lane-order"),
                figure("Round trip", format!("{wall_ms:.1} ms wall clock{gpu_time}", wall_ms = Float(wall_ms))).timed_on(&adapter),
            ] />
            <p class=if c.is_permutation { "verdict ok" } else { "verdict bad" } data-testid="gpu-verdict" data-ok=c.is_permutation.to_string()>{verdict}</p>
            <p class="muted">
                "A workgroup is \"served whole\" when its invocations got one unbroken run of tickets: the GPU handed out no ticket "
                "to another workgroup in between. Neighbours in lane order counts invocations whose ticket is one more than the "
                "previous lane's. Adapter: " {adapter.name.clone()} "."
            </p>
            <TicketGrid tickets=run.tickets.clone() workgroup_size=params.workgroup_size />
            <TicketTimeline tickets=run.tickets.clone() />
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
            <pre class="raw" hidden data-testid="gpu-tickets">{run.tickets.iter().map(u32::to_string).collect::<Vec<_>>().join(",")}</pre>
        </div>
    }
}

/// The same kernel on a data-centre GPU, from `data/h100-tickets.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::atomic_counter::measured::{parse_ticket_report, H100_TICKETS};
    parse_ticket_report(H100_TICKETS).map(|(adapter, rows)| {
        let rows = rows
            .into_iter()
            .map(|r| {
                vec![
                    r.invocations.to_string(),
                    r.workgroup_size.to_string(),
                    format!("{} of {}", r.exact_permutations, r.runs),
                    format!("{} of {}", range(r.whole_workgroups), r.workgroups),
                    format!("{} of {}", range(r.lane_order), r.neighbour_pairs),
                    r.gpu_ms_median.map_or("—".into(), |ms| format!("{ms:.4}", ms = Float(ms))),
                ]
            })
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["invocations", "workgroup", "exact 0..n−1", "workgroups served whole", "neighbours in lane order", "GPU ms (median)"]
                note="Ten runs per size, the same kernels run natively on that GPU. Tickets mostly \
                      follow lane order inside a workgroup, while the workgroups themselves are served side by side on many \
                      multiprocessors, so few get an unbroken block." />
        }
    })
}

/// How many invocations the ticket timeline draws: the first workgroup or so.
const TIMELINE_ROWS: usize = 64;

/// The first invocations' tickets in the model's timeline, in the order the counter handed
/// them out: each a read-modify-write on one cell, stepped like the model.
#[component]
fn TicketTimeline(tickets: Vec<u32>) -> impl IntoView {
    let rows = tickets.len().min(TIMELINE_ROWS);
    let trace = std::sync::Arc::new(crate::model::Trace::of_tickets(&tickets, 0, rows));
    let total = trace.accesses.len();
    let cursor = RwSignal::new(total);
    let seek = Callback::new(move |i: usize| cursor.set(i.min(total)));
    let trace = Memo::new(move |_| trace.clone());
    // Drawn in the model's scene too: each invocation taking its ticket from `next`.
    let machine = crate::ui::machine_memo(move || crate::lessons::atomic_counter::Tickets::replay_machine(&tickets, rows, cursor.get()));
    let speed = RwSignal::new(1.0);
    view! {
        <h4>{format!("Invocations 0 to {} in the order they got their tickets", rows.saturating_sub(1))}</h4>
        <crate::ui::player::Player cursor=cursor total=total seek=seek name="tickets" speed=speed />
        <crate::ui::scene::ReplayScene machine=machine trace=trace cursor=cursor total=total speed=speed test_id="tickets-scene" />
        <crate::ui::timeline::Timeline trace=trace revision=Signal::derive(|| 0u64) threads=rows cursor=cursor seek=seek test_id="tickets-timeline" />
    }
}
