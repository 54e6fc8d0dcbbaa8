//! The scopes page: model threads writing a cell, meeting a barrier and reading a neighbour's,
//! beside the two barrier kernels and what the reader's GPU counted with the neighbour in the
//! same workgroup and in the next; then the scope tree, drawn, with message passing at
//! workgroup and device scope stepped in the visibility model.

use crate::text::Float;
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::litmus::method::Method;
use crate::lessons::litmus::play::PlayTheMemory;
use crate::lessons::scopes::cases::CASES;
use crate::lessons::scopes::gpu::run_reach;
use crate::lessons::scopes::{check, stale_cell, BarrierReach, ReachRun};
use crate::model::litmus::Scope;
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
pub fn ScopesLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<BarrierReach>("scopes");
    let reach = model.variant;
    view! {
        <LessonPage id="scopes" title="Scopes: who a barrier or a release reaches" model=model problems=problems lead=words::LEAD words=words::TEXT
            bar=move || view! { <VariantToggle model=model choices=&[
                (BarrierReach::StorageBarrier, "storageBarrier(), same workgroup"),
                (BarrierReach::WorkgroupBarrier, "workgroupBarrier(), same workgroup"),
                (BarrierReach::StorageBarrierAcross, "storageBarrier(), next workgroup"),
                (BarrierReach::WorkgroupBarrierAcross, "workgroupBarrier(), next workgroup"),
            ] /> }
            start="Start: every cell 0." outcome=model_outcome
            kernel=Signal::derive(move || reach.get().kernel()) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, (reach, sizes))
            after=gpu_half!(Part::After, ()) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel. The scope tree and its memory come with it.
pub fn gpu_half(part: GpuPart) -> AnyView {
    match part.part {
        Part::After => part.view(|(): ()| view! { <ScopesDrawn /> }),
        _ => part.view(|(reach, sizes): (RwSignal<BarrierReach>, SizeFields)| view! { <GpuReach reach=reach sizes=sizes /> <MeasuredElsewhere /> }),
    }
}

fn model_outcome(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    let n = m.threads.len();
    match m.memory[stale_cell(n)] {
        0 => format!("Finished: all {n} threads read their neighbour's value."),
        s => format!("Finished: {s} of {n} thread(s) read their neighbour's cell before it was written: nothing held them back."),
    }
}

/// Scopes in CUDA, as the reference articles write them.
const CUDA: &str = "__global__ void exchange(int *cells) {\n    cells[i] = i + 1;\n    __syncthreads();                 // waits for, and orders memory in, this block only\n    int seen = cells[neighbour];     // fresh if the neighbour is in this block\n}\n\n// A flag for the threads of one block, and one for the whole GPU.\n__shared__ cuda::atomic<int, cuda::thread_scope_block> near;\n__device__ cuda::atomic<int, cuda::thread_scope_device> far;";

#[derive(Clone)]
struct ReachResult {
    adapter: AdapterSummary,
    reach: BarrierReach,
    params: GpuParams,
    run: ReachRun,
    wall_ms: f64,
}

#[component]
fn GpuReach(reach: RwSignal<BarrierReach>, sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<ReachResult>::new();
    crate::ui::gpu::warm(move || vec![(reach.get().kernel(), sizes.opened().workgroup_size)]);
    let run = Callback::new(move |()| {
        let reach = reach.get_untracked();
        job.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let run = run_reach(&ctx, reach, params).await?;
            Ok(ReachResult { adapter: ctx.adapter.clone(), reach, params, run, wall_ms: now_ms() - t0 })
        })
    });
    view! {
        <RunForm sizes=sizes job=job on_run=run />
        {move || job.result.get().map(|r| view! { <ReachReport result=r /> })}
    }
}

#[component]
fn ReachReport(result: ReachResult) -> impl IntoView {
    let ReachResult { adapter, reach, params, run, wall_ms } = result;
    let c = check(reach, params, run);
    let n = params.invocations;
    let (verdict, tone) = match (c.consistent, c.promise_held, reach) {
        (false, _, _) => ("Some reads found neither 0 nor the neighbour's value, or were not counted: this GPU's atomics misbehaved.".to_owned(), "bad"),
        (true, false, _) => (format!("{} of {n} reads were stale after storageBarrier() with the neighbour in the same workgroup, which WGSL promises never happens: a bug of this GPU or its driver.", run.stale), "bad"),
        (true, true, BarrierReach::StorageBarrier) => (format!("All {n} reads found the neighbour's value: the barrier waited for the neighbour and ordered its write, as WGSL promises."), "ok"),
        (true, true, BarrierReach::WorkgroupBarrier) => (
            format!("{} of {n} reads were stale. workgroupBarrier() waited for the neighbour, but orders workgroup memory, and these cells are in a storage buffer: WGSL promises no fresh read here, whatever this GPU did.", run.stale),
            if run.stale == 0 { "warn" } else { "bad" },
        ),
        (true, true, _) if run.stale > 0 => (
            format!("{} of {n} reads found the neighbour's cell not yet written: the barrier waited for nobody in the next workgroup, which may not even have started.", run.stale),
            "warn",
        ),
        (true, true, _) => (
            "No read was stale this time: the next workgroup had written its cells first. Nothing made it: a barrier reaches its own workgroup only.".to_owned(),
            "warn",
        ),
    };
    let export = {
        let adapter = adapter.clone();
        move || {
            let json = crate::lessons::scopes::export::run(&adapter, reach, params, run, wall_ms);
            (format!("syncscope-scopes-{}-{}.json", reach.name(), params.invocations), json.to_pretty())
        }
    };
    view! {
        <div class="run-report" data-testid="gpu-report">
            <Figures items=vec![
                figure("Invocations × workgroup", format!("{} in {} workgroup(s) of {}", params.invocations, params.workgroups(), params.workgroup_size)),
                figure("Neighbour", if reach.across_workgroups() { "in the next workgroup" } else { "in the same workgroup" }.to_owned()),
                figure("Fresh reads", run.fresh.to_string()).id("gpu-fresh"),
                figure("Stale reads", run.stale.to_string()).id("gpu-stale"),
                figure("Round trip", format!("{wall_ms:.1} ms wall clock", wall_ms = Float(wall_ms))).timed_on(&adapter),
            ] />
            <p class=format!("verdict {tone}") data-testid="gpu-verdict" data-ok=c.consistent.to_string() data-promise-held=c.promise_held.to_string()>{verdict}</p>
            <p class="muted">{format!("Adapter: {}.", crate::ui::figures::timed_adapter(&adapter))}</p>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
        </div>
    }
}

/// The same kernels on a data-centre GPU, from `data/h100-scopes.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::scopes::measured::{parse_reach_report, H100_SCOPES};
    parse_reach_report(H100_SCOPES).map(|(adapter, rows)| {
        let rows = rows
            .into_iter()
            .map(|r| vec![r.variant.clone(), format!("{} / {}", r.invocations, r.workgroup_size), range(r.stale), format!("{} of {}", r.promise_held, r.runs)])
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["variant", "invocations / workgroup", "stale reads", "runs keeping WGSL's promise"]
                note="Ten runs per size, the same kernels run natively on that GPU. The largest size is far more workgroups than the GPU holds at once." />
        }
    })
}

/// The scope tree, with the chosen case's threads in it and its release's reach marked; and
/// the case stepped in the visibility model.
#[component]
fn ScopesDrawn() -> impl IntoView {
    let chosen = RwSignal::new(&CASES[0]);
    view! {
        <Panel id="scope-tree" title="The scope tree: play the memory">
            <ScopeTree case=chosen />
            <p>"Pick a case. T0 writes "<code>"x"</code>", then releases the flag "<code>"y"</code>"; T1 acquires it, then reads "<code>"x"</code>". You choose which thread steps and which write each load reads."</p>
            <PlayTheMemory methods=&CASES chosen=chosen then="Then pick a case whose scope holds both threads, and try again." />
        </Panel>
    }
}

/// Nested boxes, outermost the system: each level names the memory its threads share. The box
/// the release reaches is marked, and the caption says whether the consumer is inside it.
#[component]
fn ScopeTree(case: RwSignal<&'static Method>) -> impl IntoView {
    let level = |name: &'static str, shares: &'static str| {
        view! {
            <span class="scope-name">{name}</span>
            <span class="scope-shares">{shares}</span>
        }
    };
    move || {
        let m = case.get();
        let test = m.litmus();
        let scope = m.release_scope().unwrap_or(Scope::Device);
        let group_of = |t: usize| test.groups.get(t).copied().unwrap_or(t);
        let covers = scope != Scope::Workgroup || test.together(0, 1);
        // Each workgroup box holds two subgroups; T1 sits in the second when it shares T0's
        // workgroup (another warp of the block, as in the CUDA), else in the first of its own.
        let threads_in = |wg: usize, sub: usize| -> Vec<&'static str> {
            let mut here = Vec::new();
            if group_of(0) == wg && sub == 0 {
                here.push("T0 · producer");
            }
            let t1_sub = if test.together(0, 1) { 1 } else { 0 };
            if group_of(1) == wg && sub == t1_sub {
                here.push("T1 · consumer");
            }
            here
        };
        let workgroups = (0..2)
            .map(|wg| {
                let reached = scope == Scope::Workgroup && group_of(0) == wg;
                let subgroups = (0..2)
                    .map(|sub| {
                        let chips = threads_in(wg, sub)
                            .into_iter()
                            .map(|t| view! { <span class="scope-thread" data-testid=format!("scope-thread-{}", &t[..2])>{t}<small>" registers: its own"</small></span> })
                            .collect_view();
                        view! {
                            <div class="scope scope-subgroup">
                                {level("Subgroup", "subgroup operations: no memory of its own")}
                                <div class="scope-threads">{chips}</div>
                            </div>
                        }
                    })
                    .collect_view();
                view! {
                    <div class="scope scope-workgroup" class:reach=reached data-testid=format!("scope-workgroup-{wg}")>
                        {level(if wg == 0 { "Workgroup 0" } else { "Workgroup 1" }, "var<workgroup> memory; workgroupBarrier(), storageBarrier()")}
                        {reached.then(|| view! { <span class="scope-reach-label">"◆ T0's release reaches this workgroup"</span> })}
                        <div class="scope-row">{subgroups}</div>
                    </div>
                }
            })
            .collect_view();
        let device_reached = scope != Scope::Workgroup;
        let caption = if covers {
            format!("The release is at {} scope, and T1 is inside it: an acquire that reads the flag synchronises with it.", scope.name())
        } else {
            format!("The release is at {} scope, and T1 is outside it: its acquire synchronises with nothing, and stale data may follow the flag.", scope.name())
        };
        view! {
            <figure class="scope-tree" data-testid="scope-tree" data-scope=scope.name() data-covers=covers.to_string()>
                <div class="scope scope-system">
                    {level("System", "the CPU and every GPU: mapped buffers")}
                    <div class="scope scope-device" class:reach=device_reached>
                        {level("Device", "every workgroup of every dispatch: storage buffers, atomics")}
                        {device_reached.then(|| view! { <span class="scope-reach-label">"◆ T0's release reaches the whole device"</span> })}
                        <div class="scope-row">{workgroups}</div>
                    </div>
                </div>
                <figcaption data-testid="scope-caption">{caption}</figcaption>
            </figure>
        }
    }
}
