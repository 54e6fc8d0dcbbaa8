//! The spinlock page: model threads taking a bounded lock around `counter++`, beside the three
//! real kernels, with what the reader's GPU counted: entries, give-ups, overlaps, lost updates.

use crate::text::Float;
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::spinlock::gpu::run_spinlock;
use crate::lessons::spinlock::{check, Lock, LockRun, COUNTER, GAVE_UP, MAX_TRIES};
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
pub fn SpinlockLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<Lock>("spinlock");
    let lock = model.variant;
    view! {
        <LessonPage id="spinlock" title="A spinlock, and why not" model=model problems=problems lead=words::LEAD words=words::TEXT
            bar=move || view! { <VariantToggle model=model choices=&[
                (Lock::None, "No lock"),
                (Lock::SpinThenEnter, "Spin, then enter after the loop"),
                (Lock::EnterInLoop, "Enter inside the loop"),
            ] /> }
            start="Start: the lock is free and the counter is 0." outcome=model_outcome
            kernel=Signal::derive(move || lock.get().kernel()) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, (lock, sizes))
            after=gpu_half!(Part::After, ()) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
/// A CUDA lock's handover comes with it: the visibility model and its scene are as heavy as
/// the GPU panel, and below it.
pub fn gpu_half(part: GpuPart) -> AnyView {
    match part.part {
        Part::After => part.view(|(): ()| view! { <CudaLock /> }),
        _ => part.view(|(lock, sizes): (RwSignal<Lock>, SizeFields)| view! { <GpuSpinlock lock=lock sizes=sizes /> <MeasuredElsewhere /> }),
    }
}

/// CUDA's ways of handing a lock on, each as a test of the visibility model: the reader picks
/// which thread steps and which write each load reads.
#[component]
fn CudaLock() -> impl IntoView {
    use crate::lessons::litmus::play::PlayTheMemory;
    use crate::lessons::spinlock::cuda_lock::LOCK_METHODS;
    use crate::ui::panel::Panel;
    let chosen = RwSignal::new(&LOCK_METHODS[0]);
    view! {
        <Panel id="cuda-lock" title="A correct CUDA lock: play the memory">
            <p>"A lock has two jobs: one holder at a time, and each holder seeing what the one before it wrote. The first is the compare-exchange's; the second needs order. Below, T0 leaves the critical section, where it wrote the data "<code>"x"</code>", and lets go of the lock "<code>"y"</code>"; T1 takes the lock and reads "<code>"x"</code>", in another block. In the model "<code>"y"</code>" is 1 once T0 has let go, and T1's successful compare-exchange is its read of that 1. You choose which thread steps and, for each load, which write it reads."</p>
            <PlayTheMemory methods=&LOCK_METHODS chosen=chosen
                then="Then pick a way that the memory model calls right, and try again."
                words=("T1 can hold the lock and still read the data from before T0's critical section", "Once T1 holds the lock, it sees everything T0 wrote before letting go.") />
        </Panel>
    }
}

fn model_outcome(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    let n = m.threads.len() as i64;
    let (counter, gave_up) = (m.memory[COUNTER], m.memory[GAVE_UP]);
    let lost = n - gave_up - counter;
    format!("Finished: counter = {counter}; {gave_up} thread(s) gave up; {lost} increment(s) lost.")
}

/// CUDA can write this lock correctly across blocks, with fences (seed: the CUDA spinlock).
const CUDA: &str = "__device__ int lock = 0;\n__device__ unsigned counter = 0;\n\n__global__ void increment(unsigned max_tries, unsigned *gave_up) {\n    for (unsigned tries = 0; tries < max_tries; tries++) {\n        if (atomicCAS(&lock, 0, 1) == 0) {      // critical section inside the loop\n            __threadfence();                    // see the previous holder's writes\n            counter = counter + 1;\n            __threadfence();                    // publish ours before releasing\n            atomicExch(&lock, 0);\n            return;\n        }\n    }\n    atomicAdd(gave_up, 1);\n}";

#[derive(Clone)]
struct LockResult {
    adapter: AdapterSummary,
    lock: Lock,
    params: GpuParams,
    run: LockRun,
    wall_ms: f64,
}

#[component]
fn GpuSpinlock(lock: RwSignal<Lock>, sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<LockResult>::new();
    crate::ui::gpu::warm(move || vec![(lock.get().kernel(), sizes.opened().workgroup_size)]);
    let run = Callback::new(move |()| {
        let lock = lock.get_untracked();
        job.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let run = run_spinlock(&ctx, lock, params).await?;
            Ok(LockResult { adapter: ctx.adapter.clone(), lock, params, run, wall_ms: now_ms() - t0 })
        })
    });
    view! {
        <RunForm sizes=sizes job=job on_run=run />
        {move || job.result.get().map(|r| view! { <LockReport result=r /> })}
    }
}

#[component]
fn LockReport(result: LockResult) -> impl IntoView {
    let LockResult { adapter, lock, params, run, wall_ms } = result;
    let c = check(lock, params, run);
    // Said in the lesson's terms: a lock that held while most waiters starved is the lesson's
    // point, not a success, so only a run where everyone got in, one at a time, reads as ok.
    let n = params.invocations;
    let (verdict, tone) = match (c.consistent, lock, c.excluded) {
        (false, _, _) => ("The counts break what atomics guarantee: this GPU's atomics misbehaved.".to_owned(), "bad"),
        (true, Lock::None, _) => (
            format!("No lock: {} of {n} increments lost, the lost update of the first lesson: nothing here keeps two invocations apart.", c.lost),
            "warn",
        ),
        (true, _, true) if run.gave_up == 0 => (
            format!("All {n} invocations got the lock, one at a time: no overlap, no increment lost. That is what this GPU did this time; WGSL promises neither that every waiter gets its turn nor that the lock excludes."),
            "ok",
        ),
        (true, _, true) => (
            format!(
                "{} of {n} invocations gave up after {MAX_TRIES} tries without ever getting the lock. The {} that got in did exclude each other (no overlap, nothing lost), but a spinning lock on a GPU starves its waiters: nothing promises any of them a turn.",
                run.gave_up, run.entered
            ),
            "warn",
        ),
        (true, _, false) => (
            format!(
                "The lock did not exclude: {} time(s) an invocation entered while another was inside, and {} increment(s) were lost; {} of {n} gave up. Relaxed atomics order nothing around the lock.",
                run.overlaps, c.lost, run.gave_up
            ),
            "warn",
        ),
    };
    let export = {
        let adapter = adapter.clone();
        move || {
            let json = crate::lessons::spinlock::export::run(&adapter, lock, params, run, wall_ms);
            (format!("syncscope-spinlock-{}-{}.json", lock.name(), params.invocations), json.to_pretty())
        }
    };
    view! {
        <div class="run-report" data-testid="gpu-report">
            <Figures items=vec![
                figure("Invocations × workgroup", format!("{} in {} workgroups of {}", params.invocations, params.workgroups(), params.workgroup_size)),
                figure("Entered", run.entered.to_string()).id("gpu-entered"),
                figure("Gave up", run.gave_up.to_string()).id("gpu-gave-up"),
                figure("Counter", run.counter.to_string()).id("gpu-counter"),
                figure("Increments lost", c.lost.to_string()).id("gpu-lost"),
                figure("Entered while another was inside", run.overlaps.to_string()).id("gpu-overlaps"),
                figure("Round trip", format!("{wall_ms:.1} ms wall clock", wall_ms = Float(wall_ms))).timed_on(&adapter),
            ] />
            <p class=format!("verdict {tone}") data-testid="gpu-verdict" data-ok=c.consistent.to_string()>{verdict}</p>
            <p class="muted">{format!("Adapter: {}.", crate::ui::figures::timed_adapter(&adapter))}</p>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
        </div>
    }
}

/// The same kernels on a data-centre GPU, from `data/h100-spinlock.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::spinlock::measured::{parse_spinlock_report, H100_SPINLOCK};
    parse_spinlock_report(H100_SPINLOCK).map(|(adapter, rows)| {
        let rows = rows
            .into_iter()
            .map(|r| {
                vec![
                    r.lock,
                    format!("{} / {}", r.invocations, r.workgroup_size),
                    range(r.entered),
                    range(r.gave_up),
                    range(r.lost),
                    range(r.overlaps),
                    format!("{} of {}", r.excluded, r.runs),
                ]
            })
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["kernel", "invocations / workgroup", "entered", "gave up", "lost", "overlaps", "runs the lock held"]
                note="Ten runs per size, the same kernels run natively on that GPU. Compare the \
                      entries of the two locked kernels: spinning before entering shuts out whole groups of lanes waiting on \
                      one of their own." />
        }
    })
}
