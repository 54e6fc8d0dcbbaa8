//! The producer-consumer page: model threads writing a message and a flag and waiting for a
//! neighbour's, beside the four real kernels and what the reader's GPU counted (stale reads,
//! give-ups, the longest wait); then CUDA's ways of writing the handoff, each stepped in the
//! visibility model, where the reader plays the memory and can make the stale read happen.

use crate::text::Float;
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::litmus::play::PlayTheMemory;
use crate::lessons::producer_consumer::gpu::run_handoff;
use crate::lessons::producer_consumer::methods::METHODS;
use crate::lessons::producer_consumer::{check, gave_up_cell, stale_cell, Handoff, HandoffRun, SPIN_LIMIT};
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
use crate::ui::panel::Panel;
use leptos::prelude::*;
use super::words;

#[component]
pub fn ProducerConsumerLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<Handoff>("producer-consumer");
    let handoff = model.variant;
    view! {
        <LessonPage id="producer-consumer" title="Producer and consumer: data, then a flag" model=model problems=problems lead=words::LEAD words=words::TEXT
            bar=move || view! { <VariantToggle model=model choices=&[
                (Handoff::Relaxed, "Atomics only"),
                (Handoff::StorageBarrier, "storageBarrier(), across workgroups"),
                (Handoff::SameWorkgroup, "storageBarrier(), one workgroup"),
                (Handoff::TwoDispatches, "Two dispatches"),
            ] /> }
            start="Start: no message written, every flag 0." outcome=model_outcome
            kernel=Signal::derive(move || handoff.get().kernel()) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, (handoff, sizes))
            after=gpu_half!(Part::After, ()) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel. CUDA's methods come with it: the visibility
/// model and its scene are as heavy as the GPU panel, and below it.
pub fn gpu_half(part: GpuPart) -> AnyView {
    match part.part {
        Part::After => part.view(|(): ()| view! { <CudaMethods /> }),
        _ => part.view(|(handoff, sizes): (RwSignal<Handoff>, SizeFields)| view! { <GpuHandoff handoff=handoff sizes=sizes /> <MeasuredElsewhere /> }),
    }
}

fn model_outcome(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    let n = m.threads.len();
    let (gave_up, stale) = (m.memory[gave_up_cell(n)], m.memory[stale_cell(n)]);
    match gave_up {
        0 => format!("Finished: all {n} consumers saw their flag and read 42; {stale} stale read(s). One memory, one order of steps: a flag seen means its data was written first."),
        g => format!("Finished: {g} of {n} consumer(s) gave up, their producer not yet started; the rest read 42. A consumer cannot make its producer run."),
    }
}

/// The handoff in CUDA, the way the tutorial recommends first.
const CUDA: &str = "__device__ int data;\n__device__ cuda::atomic<int, cuda::thread_scope_device> flag{0};\n\n__global__ void producer() {\n    data = 42;\n    flag.store(1, cuda::std::memory_order_release);\n}\n\n__global__ void consumer(int *result) {\n    while (flag.load(cuda::std::memory_order_acquire) == 0);\n    *result = data;    // 42, promised\n}";

#[derive(Clone)]
struct HandoffResult {
    adapter: AdapterSummary,
    handoff: Handoff,
    params: GpuParams,
    run: HandoffRun,
    wall_ms: f64,
}

#[component]
fn GpuHandoff(handoff: RwSignal<Handoff>, sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<HandoffResult>::new();
    crate::ui::gpu::warm(move || vec![(handoff.get().kernel(), sizes.opened().workgroup_size)]);
    let run = Callback::new(move |()| {
        let handoff = handoff.get_untracked();
        job.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let run = run_handoff(&ctx, handoff, params).await?;
            Ok(HandoffResult { adapter: ctx.adapter.clone(), handoff, params, run, wall_ms: now_ms() - t0 })
        })
    });
    view! {
        <RunForm sizes=sizes job=job on_run=run />
        {move || job.result.get().map(|r| view! { <HandoffReport result=r /> })}
    }
}

#[component]
fn HandoffReport(result: HandoffResult) -> impl IntoView {
    let HandoffResult { adapter, handoff, params, run, wall_ms } = result;
    let c = check(handoff, params, run);
    let n = params.invocations;
    let where_ = if handoff.across_workgroups() { "in another workgroup" } else { "in its own workgroup" };
    let (verdict, tone) = match (c.consistent, c.promise_held, handoff.promises_data()) {
        (false, _, _) => ("The counts break what atomics guarantee (every consumer read or gave up, no more stale reads than reads): this GPU's atomics misbehaved.".to_owned(), "bad"),
        (true, false, _) => (
            format!("WGSL promises this handoff, and {} stale read(s) and {} give-up(s) broke it: a bug of this GPU or its driver.", run.stale, run.gave_up),
            "bad",
        ),
        (true, true, true) => (
            format!(
                "Every one of the {} consumer(s) that saw its flag read 42{}: what WGSL promises here, on every GPU.",
                run.consumed,
                if run.gave_up > 0 { format!("; {} gave up waiting, which only two dispatches rule out", run.gave_up) } else { String::new() }
            ),
            "ok",
        ),
        (true, true, false) if run.stale > 0 => (
            format!("{} of {} consumers saw the flag and still read old data: the flag arrived first. WGSL allows it with a producer {where_}; {} gave up waiting.", run.stale, run.consumed, run.gave_up),
            "warn",
        ),
        (true, true, false) if run.gave_up == n => (
            format!("All {n} consumers gave up after {SPIN_LIMIT} loads of the flag: this adapter did not run their producers meanwhile, which WGSL allows. Nothing was read, so nothing could be stale."),
            "warn",
        ),
        (true, true, false) => (
            format!(
                "No stale read this time: {} consumers read 42, {} gave up waiting. That is what this GPU did; with a producer {where_} WGSL promises neither the data nor that a wait ends.",
                run.consumed, run.gave_up
            ),
            "warn",
        ),
    };
    let export = {
        let adapter = adapter.clone();
        move || {
            let json = crate::lessons::producer_consumer::export::run(&adapter, handoff, params, run, wall_ms);
            (format!("syncscope-producer-consumer-{}-{}.json", handoff.name(), params.invocations), json.to_pretty())
        }
    };
    view! {
        <div class="run-report" data-testid="gpu-report">
            <Figures items=vec![
                figure("Invocations × workgroup", format!("{} in {} workgroup(s) of {}", params.invocations, params.workgroups(), params.workgroup_size)),
                figure("Read the data", run.consumed.to_string()).id("gpu-consumed"),
                figure("Stale reads", run.stale.to_string()).id("gpu-stale"),
                figure("Gave up waiting", run.gave_up.to_string()).id("gpu-gave-up"),
                figure("Longest wait", format!("{} loads", run.longest_wait)).id("gpu-longest-wait"),
                figure("Round trip", format!("{wall_ms:.1} ms wall clock", wall_ms = Float(wall_ms))).timed_on(&adapter),
            ] />
            <p class=format!("verdict {tone}") data-testid="gpu-verdict" data-ok=c.consistent.to_string() data-promise-held=c.promise_held.to_string()>{verdict}</p>
            <p class="muted">{format!("Adapter: {}.", crate::ui::figures::timed_adapter(&adapter))}</p>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
        </div>
    }
}

/// The same kernels on a data-centre GPU, from `data/h100-producer-consumer.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::producer_consumer::measured::{parse_handoff_report, H100_PRODUCER_CONSUMER};
    parse_handoff_report(H100_PRODUCER_CONSUMER).map(|(adapter, rows)| {
        let rows = rows
            .into_iter()
            .map(|r| {
                vec![
                    r.variant.clone(),
                    format!("{} / {}", r.invocations, r.workgroup_size),
                    range(r.consumed),
                    range(r.stale),
                    range(r.gave_up),
                    range(r.longest_wait),
                    format!("{} of {}", r.promise_held, r.runs),
                ]
            })
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["variant", "invocations / workgroup", "read the data", "stale reads", "gave up", "longest wait (loads)", "runs keeping WGSL's promise"]
                note="Ten runs per size, the same kernels run natively on that GPU." />
        }
    })
}

/// CUDA's ways of writing the handoff, each as a test of the visibility model: the reader
/// picks which thread steps and which write each load reads.
#[component]
fn CudaMethods() -> impl IntoView {
    let chosen = RwSignal::new(&METHODS[0]);
    view! {
        <Panel id="cuda-methods" title="What CUDA promises: play the memory">
            <p>"Pick a way of writing the handoff. Below it, T0 produces and T1 consumes, in two blocks; the consumer's wait is one load of the flag "<code>"y"</code>", and the data is "<code>"x"</code>". You choose which thread steps and, for each load, which write it reads: any its thread has not yet seen past."</p>
            <PlayTheMemory methods=&METHODS chosen=chosen then="Then pick a way that the memory model calls safe, and try again." />
        </Panel>
    }
}
