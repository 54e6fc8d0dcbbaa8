//! The barrier page: model threads writing, waiting and reading their neighbour beside the real
//! kernels, with the stale reads and the arrival/departure tickets the reader's GPU gave back.

use crate::gpu::barrier::run_barrier;
use crate::gpu::AdapterSummary;
use crate::lessons::barrier::{check, out_base, BarrierRun, BarrierVariant};
use crate::lessons::dispatch::GpuParams;
use crate::model::{Machine, ThreadStatus};
use crate::ui::figures::{figure, Figures};
use crate::ui::gpu::now_ms;
use crate::ui::gpu_form::{GpuJob, RunForm, SizeFields};
use crate::ui::lesson_page::{open_lesson, LessonPage};
use crate::ui::model_panel::VariantToggle;
use leptos::prelude::*;

#[component]
pub fn BarrierLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<BarrierVariant>("barrier");
    let variant = model.variant;
    view! {
        <LessonPage id="barrier" title="Waiting at the barrier" model=model problems=problems
            text=|| view! { <div class="prose" inner_html=BARRIER_TEXT></div> }
            bar=move || view! { <VariantToggle model=model choices=&[
                (BarrierVariant::With, "With workgroupBarrier()"),
                (BarrierVariant::Without, "Without it"),
                (BarrierVariant::InBranch, "Inside if id < n / 2"),
            ] /> }
            start="Start: every cell is 0; each thread will write id + 1 to its own cell and read its neighbour's."
            outcome=model_outcome
            kernel=Signal::derive(move || variant.get().kernel()) cuda=CUDA.to_owned()
            gpu=move || view! { <GpuBarrier variant=variant sizes=sizes /> <MeasuredElsewhere /> } />
    }
}

fn model_outcome(m: &Machine) -> String {
    let n = m.threads.len();
    if !m.is_finished() {
        if m.ready_threads().next().is_some() {
            return String::new();
        }
        let waiting: Vec<String> = (0..n).filter(|&t| m.threads[t].status == ThreadStatus::AtBarrier).map(|t| t.to_string()).collect();
        return format!(
            "Stuck: thread(s) {} wait at a barrier the others skipped. Nobody is left to arrive, so nobody is released.",
            waiting.join(", ")
        );
    }
    let stale = (0..n).filter(|&t| m.memory[out_base(n) + t] == 0).count();
    format!("Finished: {} of {n} threads read their neighbour's value; {stale} read a cell not written yet (0).", n - stale)
}

/// The lesson's explanation: constant markup written here, never text from outside.
const BARRIER_TEXT: &str = "<p>Threads of one workgroup share fast <em>workgroup memory</em> (CUDA calls it shared memory). A common pattern: each thread writes its own cell, then reads cells that other threads wrote. Between the two sits <code>workgroupBarrier()</code> (<code>__syncthreads()</code> in CUDA): a thread that reaches it waits until every thread of its workgroup has arrived; the last arrival releases them all, and their writes to workgroup memory before the barrier are visible to all of them after it.</p>\n\
<p>Step the model: the arrival count climbs to the number of threads, then everyone leaves together, and every read finds its neighbour's value. Take the barrier out and a thread can read its neighbour's cell before the neighbour wrote it; workgroup memory starts at zero, so such a stale read comes back as 0. Threads that run in lockstep (a SIMD group of 4 on SwiftShader, 8 on lavapipe, a warp of 32 on NVIDIA) write together before they read, so inside such a group the missing barrier is hidden; across groups it is not. The GPU panel counts the stale reads and where they were.</p>\n\
<p>Every thread of the workgroup must reach the same barrier. Put it inside a branch that depends on the thread, like <code>if id &lt; n / 2</code>, and half the threads wait for the other half, who never come: the model gets stuck there. CUDA calls this undefined behaviour and may or may not hang. WGSL rejects it before it runs: the browser's compiler checks that every barrier is in <em>uniform control flow</em>. Pick that variant and run it to see your browser's own message.</p>\n\
<p>A barrier orders one workgroup only. <code>storageBarrier()</code> does the same for storage buffers, still within a workgroup; nothing inside one dispatch waits for other workgroups. When every workgroup must finish a phase before any starts the next, end the dispatch: the next one sees all of the first one's writes.</p>";

/// The same exchange in CUDA (seed: the divergent __syncthreads example).
const CUDA: &str = "__global__ void neighbours(unsigned *got) {\n    __shared__ unsigned cells[1024];\n    unsigned lane = threadIdx.x, id = blockIdx.x * blockDim.x + lane;\n    cells[lane] = id + 1;\n    __syncthreads();           // every thread of the block, or undefined behaviour\n    got[id] = cells[(lane + 1) % blockDim.x];\n}\n\n// Undefined: only half the block reaches the barrier.\n//   if (lane < blockDim.x / 2) { __syncthreads(); }";

#[derive(Clone)]
struct BarrierResult {
    adapter: AdapterSummary,
    variant: BarrierVariant,
    params: GpuParams,
    run: BarrierRun,
    wall_ms: f64,
}

#[component]
fn GpuBarrier(variant: RwSignal<BarrierVariant>, sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<BarrierResult>::new();
    let run = Callback::new(move |()| {
        let variant = variant.get_untracked();
        job.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let run = run_barrier(&ctx, variant, params).await?;
            Ok(BarrierResult { adapter: ctx.adapter.clone(), variant, params, run, wall_ms: now_ms() - t0 })
        })
    });
    view! {
        <RunForm sizes=sizes job=job on_run=run />
        {move || job.result.get().map(|r| view! { <BarrierReport result=r /> })}
    }
}

#[component]
fn BarrierReport(result: BarrierResult) -> impl IntoView {
    let BarrierResult { adapter, variant, params, run, wall_ms } = result;
    let c = check(params, &run);
    let n = params.invocations;
    // Reads can only be right or 0. Whole ticket sets are promised only with the barrier.
    let ok = match variant {
        BarrierVariant::With => c.impossible == 0 && c.stale == 0 && c.tickets_whole() && c.ordered_workgroups == c.workgroups,
        _ => c.impossible == 0,
    };
    let restarted = c.workgroups - c.whole_ticket_workgroups;
    let verdict = match (variant, ok) {
        (_, false) if c.impossible > 0 => format!("{} read(s) found a value nobody wrote there: the GPU broke a promise.", c.impossible),
        (BarrierVariant::With, true) => format!("All {n} reads right, and in every workgroup every arrival came before every departure."),
        (BarrierVariant::With, false) => format!(
            "With the barrier: {} stale read(s), {restarted} workgroup(s) with a restarted counter, {} of {} ordered. This GPU broke the barrier's promise.",
            c.stale, c.ordered_workgroups, c.workgroups
        ),
        (_, _) => format!(
            "{} of {n} reads were stale ({} across groups of 4 lanes, {} within one); in {} of {} workgroups with each ticket once, nobody left before all arrived.{}",
            c.stale,
            c.stale_across_four,
            c.stale_within_four,
            c.ordered_workgroups,
            c.whole_ticket_workgroups,
            if restarted > 0 {
                format!(" In {restarted} workgroup(s) the ticket counter restarted part-way: this device zeroed workgroup memory again while other lanes were already using it, which the barrier prevents.")
            } else {
                String::new()
            }
        ),
    };
    // The first workgroup's tickets in order: A for an arrival, D for a departure.
    let first = (params.workgroup_size.min(n)) as usize;
    let mut events: Vec<(u32, char)> = run.arrive[..first].iter().map(|&t| (t, 'A')).chain(run.depart[..first].iter().map(|&t| (t, 'D'))).collect();
    events.sort_unstable();
    let strip: String = events.iter().map(|e| e.1).collect();
    view! {
        <div class="run-report" data-testid="gpu-report">
            <Figures items=vec![
                figure("Invocations × workgroup", format!("{n} in {} workgroups of {}", c.workgroups, params.workgroup_size)),
                figure("Right reads", c.right.to_string()).id("gpu-right"),
                figure("Stale reads (0)", c.stale.to_string()).id("gpu-stale"),
                figure("…within a group of 4 lanes", c.stale_within_four.to_string()).id("gpu-stale-within"),
                figure("Workgroups: all arrived before any left", format!("{} of {}", c.ordered_workgroups, c.workgroups)).id("gpu-ordered"),
                figure("Workgroups with each ticket once", format!("{} of {}", c.whole_ticket_workgroups, c.workgroups)).id("gpu-whole-tickets"),
                figure("Round trip", format!("{wall_ms:.1} ms wall clock")),
            ] />
            <p class=if ok { "verdict ok" } else { "verdict bad" } data-testid="gpu-verdict" data-ok=ok.to_string()>{verdict}</p>
            {c.tickets_whole().then(|| view! {
                <p class="muted">"Workgroup 0 in ticket order (A arrives, D departs):"</p>
                <pre class="ticket-strip" data-testid="gpu-strip">{strip}</pre>
            })}
            <p class="muted">{format!("Adapter: {}.", adapter.name)}</p>
        </div>
    }
}

/// The same kernels on a data-centre GPU, from `data/h100-barrier.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::measured::{parse_barrier_report, H100_BARRIER};
    use crate::ui::measured::{range, MeasuredTable};
    parse_barrier_report(H100_BARRIER).map(|(adapter, rows)| {
        let rows = rows
            .into_iter()
            .map(|r| {
                vec![
                    r.variant,
                    format!("{} / {}", r.invocations, r.workgroup_size),
                    format!("{} of {}", range(r.stale), r.invocations),
                    range(r.stale_within_four),
                    format!("{} of {}", range(r.ordered_workgroups), r.workgroups),
                ]
            })
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["barrier", "invocations / workgroup", "stale reads", "within a group of 4", "workgroups all arrived before any left"]
                note="Ten runs per size, from data/h100-barrier.json, written by examples/barrier_report.rs on that GPU. A missing \
                      barrier that shows nothing on one GPU is still a bug: another GPU, driver or workgroup size can show it." />
        }
    })
}
