//! The semaphore page: model threads taking and giving back slots of a count, beside the two
//! real kernels, with what the reader's GPU counted: entries, give-ups, the most ever inside.

use crate::text::Float;
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::semaphore::gpu::run_semaphore;
use crate::lessons::semaphore::{check, Semaphore, SemaphoreRun, COUNT, GAVE_UP, MAX_TRIES, PEAK};
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
pub fn SemaphoreLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<Semaphore>("semaphore");
    let semaphore = model.variant;
    view! {
        <LessonPage id="semaphore" title="A semaphore: at most four inside" model=model problems=problems lead=words::LEAD words=words::TEXT
            bar=move || view! { <VariantToggle model=model choices=&[
                (Semaphore::Counting, "Four slots, one exchange"),
                (Semaphore::Binary, "One slot: a mutex"),
                (Semaphore::CheckThenTake, "Read, then take (wrong)"),
            ] /> }
            start="Start: every slot free (count = 4, or 1 for the mutex), nobody inside." outcome=model_outcome
            kernel=Signal::derive(move || semaphore.get().kernel()) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, (semaphore, sizes)) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
pub fn gpu_half(part: GpuPart) -> AnyView {
    part.view(|(semaphore, sizes): (RwSignal<Semaphore>, SizeFields)| view! { <GpuSemaphore semaphore=semaphore sizes=sizes /> <MeasuredElsewhere /> })
}

fn model_outcome(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    let n = m.threads.len() as i64;
    let (peak, gave_up) = (m.memory[PEAK], m.memory[GAVE_UP]);
    // Every take is given back by the end of a run, so the count is where it started: the limit.
    let limit = m.memory[COUNT];
    let verdict = if peak > limit { format!("more than the {limit} the semaphore allows") } else { format!("within the limit of {limit}") };
    format!("Finished: {} of {n} thread(s) got a slot, {gave_up} gave up; at most {peak} inside at once, {verdict}.", n - gave_up)
}

/// CUDA's semaphores, as the reference articles write them.
const CUDA: &str = "#include <cuda/semaphore>\n\n// At most four threads inside at once.\n__device__ cuda::counting_semaphore<cuda::thread_scope_device, 4> slots{4};\n\n__global__ void limited() {\n    slots.acquire();        // waits while all four slots are taken\n    // ... at most four threads here ...\n    slots.release();        // gives the slot back\n}\n\n// One slot: a mutex.\n__device__ cuda::binary_semaphore<cuda::thread_scope_device> mutex{1};\n\n__global__ void increment(int *counter) {\n    mutex.acquire();\n    (*counter)++;           // one thread at a time\n    mutex.release();        // the next holder sees this write\n}";

#[derive(Clone)]
struct SemaphoreResult {
    adapter: AdapterSummary,
    semaphore: Semaphore,
    params: GpuParams,
    run: SemaphoreRun,
    wall_ms: f64,
}

#[component]
fn GpuSemaphore(semaphore: RwSignal<Semaphore>, sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<SemaphoreResult>::new();
    crate::ui::gpu::warm(move || vec![(semaphore.get().kernel(), sizes.opened().workgroup_size)]);
    let run = Callback::new(move |()| {
        let semaphore = semaphore.get_untracked();
        job.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let run = run_semaphore(&ctx, semaphore, params).await?;
            Ok(SemaphoreResult { adapter: ctx.adapter.clone(), semaphore, params, run, wall_ms: now_ms() - t0 })
        })
    });
    view! {
        <RunForm sizes=sizes job=job on_run=run />
        {move || job.result.get().map(|r| view! { <SemaphoreReport result=r /> })}
    }
}

#[component]
fn SemaphoreReport(result: SemaphoreResult) -> impl IntoView {
    let SemaphoreResult { adapter, semaphore, params, run, wall_ms } = result;
    let c = check(semaphore, params, run);
    let (n, limit) = (params.invocations, semaphore.limit());
    let groups = match params.workgroups() {
        1 => "in one workgroup".to_owned(),
        w => format!("across {w} workgroups"),
    };
    let (verdict, tone) = match (c.consistent, semaphore, c.limit_held) {
        (false, _, _) => ("The counts break what atomics guarantee (every invocation entered or gave up, and the count and inside balance): this GPU's atomics misbehaved.".to_owned(), "bad"),
        (true, Semaphore::CheckThenTake, false) => (
            format!("Up to {} invocations were inside a semaphore of {limit}, {groups}; {} entries found the limit already reached. Reading the count and then taking a slot are two atomics: others take the same slot in between.", run.peak, run.over),
            "warn",
        ),
        (true, Semaphore::CheckThenTake, true) => (
            format!("This time no more than {limit} were inside at once ({groups}), but nothing here prevents more: the read and the take are two atomics. Where invocations really run at once, as on the H100 below, far more get in."),
            "warn",
        ),
        (true, _, true) if run.gave_up == 0 => (
            format!("All {n} invocations took a slot and gave it back, {groups}, never more than {limit} inside at once (at most {}). That is what this GPU did this time; WGSL does not promise every waiter a turn.", run.peak),
            "ok",
        ),
        (true, _, true) => (
            format!(
                "Never more than {limit} inside at once (at most {}), {groups}, but {} of {n} invocations gave up after {MAX_TRIES} tries without a slot: nothing in WGSL promises a waiting invocation its turn.",
                run.peak, run.gave_up
            ),
            "warn",
        ),
        (true, _, false) => (
            format!(
                "The counter of who is inside reached {} with {limit} slot(s). Each slot was taken by one exchange, but `inside` is another address, counted with relaxed atomics that WGSL does not order against the count: allowed, not a GPU bug.",
                run.peak
            ),
            "warn",
        ),
    };
    let export = {
        let adapter = adapter.clone();
        move || {
            let json = crate::lessons::semaphore::export::run(&adapter, semaphore, params, run, wall_ms);
            (format!("syncscope-semaphore-{}-{}.json", semaphore.name(), params.invocations), json.to_pretty())
        }
    };
    view! {
        <div class="run-report" data-testid="gpu-report">
            <Figures items=vec![
                figure("Invocations × workgroup", format!("{} in {} workgroup(s) of {}", params.invocations, params.workgroups(), params.workgroup_size)),
                figure("Slots", limit.to_string()),
                figure("Entered", run.entered.to_string()).id("gpu-entered"),
                figure("Gave up", run.gave_up.to_string()).id("gpu-gave-up"),
                figure("Most inside at once", run.peak.to_string()).id("gpu-peak"),
                figure("Entries over the limit", run.over.to_string()).id("gpu-over"),
                figure("Count at the end", run.count.to_string()).id("gpu-count"),
                figure("Round trip", format!("{wall_ms:.1} ms wall clock", wall_ms = Float(wall_ms))).timed_on(&adapter),
            ] />
            <p class=format!("verdict {tone}") data-testid="gpu-verdict" data-ok=c.consistent.to_string() data-limit-held=c.limit_held.to_string()>{verdict}</p>
            <p class="muted">{format!("Adapter: {}.", crate::ui::figures::timed_adapter(&adapter))}</p>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
        </div>
    }
}

/// The same kernels on a data-centre GPU, from `data/h100-semaphore.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::semaphore::measured::{parse_semaphore_report, H100_SEMAPHORE};
    parse_semaphore_report(H100_SEMAPHORE).map(|(adapter, rows)| {
        let rows = rows
            .into_iter()
            .map(|r| {
                vec![
                    format!("{} ({})", r.semaphore, r.limit),
                    format!("{} / {}", r.invocations, r.workgroup_size),
                    range(r.entered),
                    range(r.gave_up),
                    range(r.peak),
                    range(r.over),
                    format!("{} of {}", r.limit_held, r.runs),
                ]
            })
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["kernel (slots)", "invocations / workgroup", "entered", "gave up", "most inside", "entries over the limit", "runs within the limit"]
                note="Ten runs per size, the same kernels run natively on that GPU. Compare the most \
                      inside at once: one exchange per slot against a read and then a take." />
        }
    })
}
