//! The arrive-wait page: model threads writing, arriving, working, waiting and reading a
//! neighbour's cell, beside the three real kernels, with what the reader's GPU counted:
//! give-ups, stale reads, the longest wait and every arrival ticket.

use crate::text::Float;
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::arrive_wait::gpu::run_arrive_wait;
use crate::lessons::arrive_wait::{check, ArriveRun, ArriveWait, MAX_TRIES};
use crate::model::Machine;
use crate::site::settings::LessonVariant;
use crate::ui::download::DownloadJson;
use crate::ui::figures::{figure, Figures};
use crate::ui::gpu::now_ms;
use crate::ui::gpu_form::{GpuJob, RunForm, SizeFields};
use crate::ui::gpu_half::{gpu_half, GpuPart, Part};
use crate::ui::lesson_page::{open_lesson, LessonPage};
use crate::ui::measured::{range, MeasuredTable};
use crate::ui::model_panel::VariantToggle;
use leptos::prelude::*;
use super::words;

#[component]
pub fn ArriveWaitLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<ArriveWait>("arrive-wait");
    let variant = model.variant;
    view! {
        <LessonPage id="arrive-wait" title="Arrive, then wait: split barriers and latches" model=model problems=problems lead=words::LEAD words=words::TEXT
            bar=move || view! { <VariantToggle model=model choices=&[
                (ArriveWait::Split, "Split barrier: arrive, work, wait"),
                (ArriveWait::Latch, "Latch: count down, work, wait"),
                (ArriveWait::WorkgroupBarrier, "workgroupBarrier()"),
            ] /> }
            start="Start: set up as CUDA's init and __syncthreads() do: no cell written, nobody arrived, phase 0 (the latch: left = every thread)." outcome=model_outcome
            kernel=Signal::derive(move || variant.get().kernel()) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, (variant, sizes)) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
pub fn gpu_half(part: GpuPart) -> AnyView {
    part.view(|(variant, sizes): (RwSignal<ArriveWait>, SizeFields)| view! { <GpuArriveWait variant=variant sizes=sizes /> <MeasuredElsewhere /> })
}

fn model_outcome(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    let n = m.threads.len();
    let (gave_up, stale) = crate::lessons::arrive_wait::model_outcome(m);
    if gave_up == 0 {
        format!("Finished: all {n} threads waited for the others and read their neighbour's value.")
    } else {
        format!("Finished: {gave_up} thread(s) gave up waiting; {stale} read a neighbour's cell before it was written (0).")
    }
}

/// CUDA's split barrier and latch, as the reference articles write them.
const CUDA: &str = "#include <cuda/barrier>\n#include <cuda/latch>\n\n__global__ void split(float *data) {\n    __shared__ cuda::barrier<cuda::thread_scope_block> bar;\n    if (threadIdx.x == 0) init(&bar, blockDim.x);\n    __syncthreads();\n\n    data[threadIdx.x] = produce();\n    auto token = bar.arrive();     // I am done with my part\n    independent_work();            // needs nobody else\n    bar.wait(std::move(token));    // until everyone has arrived\n    consume(data[(threadIdx.x + 1) % blockDim.x]);\n}\n\n__global__ void once() {\n    __shared__ cuda::latch<cuda::thread_scope_block> done;\n    if (threadIdx.x == 0) init(&done, blockDim.x);\n    __syncthreads();\n\n    do_work();\n    done.count_down();             // never blocks\n    done.wait();                   // until the count reaches 0; spent after\n}";

#[derive(Clone)]
struct ArriveResult {
    adapter: AdapterSummary,
    variant: ArriveWait,
    params: GpuParams,
    run: ArriveRun,
    wall_ms: f64,
}

#[component]
fn GpuArriveWait(variant: RwSignal<ArriveWait>, sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<ArriveResult>::new();
    crate::ui::gpu::warm(move || vec![(variant.get().kernel(), sizes.opened().workgroup_size)]);
    let run = Callback::new(move |()| {
        let variant = variant.get_untracked();
        job.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let run = run_arrive_wait(&ctx, variant, params).await?;
            Ok(ArriveResult { adapter: ctx.adapter.clone(), variant, params, run, wall_ms: now_ms() - t0 })
        })
    });
    view! {
        <RunForm sizes=sizes job=job on_run=run />
        {move || job.result.get().map(|r| view! { <ArriveReport result=r /> })}
    }
}

#[component]
fn ArriveReport(result: ArriveResult) -> impl IntoView {
    let ArriveResult { adapter, variant, params, run, wall_ms } = result;
    let c = check(variant, params, &run);
    let n = params.invocations;
    let (verdict, tone) = match (c.consistent, variant, c.clean) {
        (false, _, _) => ("The counts break what atomics guarantee (every invocation released or gave up, each ticket once per workgroup, one phase per workgroup): this GPU's atomics misbehaved.".to_owned(), "bad"),
        (true, ArriveWait::WorkgroupBarrier, true) => (format!("All {n} invocations left the barrier together and found their neighbour's value: what workgroupBarrier() promises, on every GPU."), "ok"),
        (true, ArriveWait::WorkgroupBarrier, false) => (
            format!("{} stale read(s) after workgroupBarrier(), which promises none: a bug of this GPU or its driver.", run.stale),
            "bad",
        ),
        (true, _, true) => (
            format!("This time all {n} invocations were released and found their neighbour's value. That is what this GPU did: it ran the waiting invocations' neighbours meanwhile. WGSL promises neither."),
            "warn",
        ),
        (true, _, false) if run.gave_up == n => (
            format!("All {n} invocations gave up after {MAX_TRIES} tries: this adapter never ran the others while one waited, which WGSL allows. {} neighbour read(s) found a cell not yet written.", run.stale),
            "warn",
        ),
        (true, _, false) => (
            format!(
                "{} of {n} invocations gave up after {MAX_TRIES} tries and {} neighbour read(s) were stale: WGSL promises neither progress to a waiting invocation nor that its atomics order the neighbour's write.",
                run.gave_up, run.stale
            ),
            "warn",
        ),
    };
    let tickets = match variant {
        _ if c.consistent => format!("1 to {} in every workgroup, each once", params.workgroup_size.min(n)),
        _ => "not 1 to the size once each (see the download)".to_owned(),
    };
    let export = {
        let adapter = adapter.clone();
        let run = run.clone();
        move || {
            let json = crate::lessons::arrive_wait::export::run(&adapter, variant, params, &run, wall_ms);
            (format!("syncscope-arrive-wait-{}-{}.json", variant.name(), params.invocations), json.to_pretty())
        }
    };
    view! {
        <div class="run-report" data-testid="gpu-report">
            <Figures items=vec![
                figure("Invocations × workgroup", format!("{} in {} workgroup(s) of {}", params.invocations, params.workgroups(), params.workgroup_size)),
                figure("Released", run.released.to_string()).id("gpu-released"),
                figure("Gave up", run.gave_up.to_string()).id("gpu-gave-up"),
                figure("Stale neighbour reads", run.stale.to_string()).id("gpu-stale"),
                figure("Longest wait", format!("{} tries", run.longest_wait)).id("gpu-longest"),
                figure("Phases opened", run.opened.to_string()).id("gpu-opened"),
                figure("Arrival tickets", tickets).id("gpu-tickets"),
                figure("Round trip", format!("{wall_ms:.1} ms wall clock", wall_ms = Float(wall_ms))).timed_on(&adapter),
            ] />
            <p class=format!("verdict {tone}") data-testid="gpu-verdict" data-ok=c.consistent.to_string() data-clean=c.clean.to_string()>{verdict}</p>
            <p class="muted">{format!("Adapter: {}.", crate::ui::figures::timed_adapter(&adapter))}</p>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
        </div>
    }
}

/// The same kernels on a data-centre GPU, from `data/h100-arrive-wait.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::arrive_wait::measured::{parse_arrive_wait_report, H100_ARRIVE_WAIT};
    parse_arrive_wait_report(H100_ARRIVE_WAIT).map(|(adapter, rows)| {
        let rows = rows
            .into_iter()
            .map(|r| {
                vec![
                    r.variant,
                    format!("{} / {}", r.invocations, r.workgroup_size),
                    range(r.gave_up),
                    range(r.stale),
                    range(r.longest_wait),
                    format!("{} of {}", r.clean, r.runs),
                ]
            })
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["kernel", "invocations / workgroup", "gave up", "stale reads", "longest wait (tries)", "runs with neither"]
                note="Ten runs per size, the same kernels run natively on that GPU. The hand-built waits are \
                      counted, not promised; the barrier's zeros are promised." />
        }
    })
}
