//! The grid-barrier page: model workgroups taking the GPU's slots, writing their parts and
//! spinning at an arrival count, beside the kernel; the reader's GPU swept over grid sizes with
//! the first give-up marked, and two dispatches beside it.

use crate::text::Float;
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::grid_barrier::gpu::sweep;
use crate::lessons::grid_barrier::{check, crossover, GpuWay, GridRun, GridSync, ARRIVED, GAVE_UP};
use crate::model::Machine;
use crate::ui::download::DownloadJson;
use crate::ui::gpu::now_ms;
use crate::ui::gpu_form::{GpuJob, RunForm, SizeFields};
use crate::ui::gpu_half::{gpu_half, GpuPart, Part};
use crate::ui::lesson_page::{open_lesson, LessonPage};
use crate::ui::measured::{range, MeasuredTable};
use crate::ui::model_panel::VariantToggle;
use crate::ui::table::TextTable;
use leptos::prelude::*;
use super::words;

#[component]
pub fn GridBarrierLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<GridSync>("grid-barrier");
    view! {
        <LessonPage id="grid-barrier" title="A grid barrier, and why it deadlocks" model=model problems=problems lead=words::LEAD words=words::TEXT
            bar=move || view! { <VariantToggle model=model choices=&[
                (GridSync::Resident, "A slot for every workgroup"),
                (GridSync::TwoSlots, "Two slots"),
                (GridSync::TwoDispatches, "Two slots, two dispatches"),
            ] /> }
            start="Start: every slot free, nobody arrived, no part written." outcome=model_outcome
            kernel=Signal::derive(|| crate::lessons::grid_barrier::kernels::GRID_BARRIER) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, sizes) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
pub fn gpu_half(part: GpuPart) -> AnyView {
    part.view(|sizes: SizeFields| view! { <GpuSweep sizes=sizes /> <MeasuredElsewhere /> })
}

fn model_outcome(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    let n = m.threads.len();
    match m.memory[GAVE_UP] {
        0 if m.memory[ARRIVED] == 0 => format!("Finished: all {n} workgroups wrote their parts and read their neighbour's, the first dispatch's end between."),
        0 => format!("Finished: all {n} workgroups arrived and passed the barrier."),
        g => format!("Finished: {g} of {n} workgroups gave up spinning. They held the slots the others needed to start: unbounded, the spin would never have ended."),
    }
}

/// The same barrier in CUDA, as the articles warn against writing it.
const CUDA: &str = "__device__ unsigned arrived = 0;\n\n__global__ void phases(int *part) {\n    part[blockIdx.x * blockDim.x + threadIdx.x] = work();\n    __syncthreads();\n    if (threadIdx.x == 0) {\n        __threadfence();\n        atomicAdd(&arrived, 1);\n        while (atomicAdd(&arrived, 0) < gridDim.x);   // hangs if the grid is not all resident\n        __threadfence();   // the reader's own fence: the spin's relaxed reads acquire nothing\n    }\n    __syncthreads();\n    use(part[((blockIdx.x + 1) % gridDim.x) * blockDim.x + threadIdx.x]);\n}\n\n// The promised way: cooperative_groups::this_grid().sync(), in a kernel launched with\n// cudaLaunchCooperativeKernel and a grid no larger than the GPU holds at once.";

#[derive(Clone)]
struct SweepResult {
    adapter: AdapterSummary,
    params: GpuParams,
    runs: Vec<(GpuWay, GridRun)>,
    wall_ms: f64,
}

#[component]
fn GpuSweep(sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<SweepResult>::new();
    // Rows as they come, for a sweep that takes a while on a software adapter.
    let so_far = RwSignal::new(Vec::<(GpuWay, GridRun)>::new());
    crate::ui::gpu::warm(move || vec![(crate::lessons::grid_barrier::kernels::GRID_BARRIER, sizes.opened().workgroup_size)]);
    let run = Callback::new(move |()| {
        so_far.set(Vec::new());
        job.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let mut runs = Vec::new();
            sweep(&ctx, params, |way, run| {
                runs.push((way, run));
                so_far.update(|r| r.push((way, run)));
            })
            .await?;
            Ok(SweepResult { adapter: ctx.adapter.clone(), params, runs, wall_ms: now_ms() - t0 })
        })
    });
    view! {
        <p class="muted">"The sweep runs the barrier with 1, 2, 4 … workgroups, up to the invocations below, then the same work as two dispatches at the largest size."</p>
        <RunForm sizes=sizes job=job on_run=run />
        {move || match job.result.get() {
            Some(r) => view! { <SweepReport result=r /> }.into_any(),
            // The sizes done so far, each shown as it comes: a first look within moments.
            None => (!so_far.with(Vec::is_empty))
                .then(|| view! {
                    <div class="run-report" data-testid="gpu-report" data-partial="true">
                        <p class="notice" data-testid="gpu-first-look">"A first look: the grid sizes run so far, each shown as it comes back."</p>
                        <SweepTable runs=so_far.get() workgroup_size=sizes.opened().workgroup_size />
                    </div>
                })
                .into_any(),
        }}
    }
}

#[component]
fn SweepTable(runs: Vec<(GpuWay, GridRun)>, workgroup_size: u32) -> impl IntoView {
    let first = crossover(&runs.iter().filter(|(w, _)| *w == GpuWay::GridBarrier).map(|(_, r)| *r).collect::<Vec<_>>());
    let rows = runs
        .iter()
        .map(|(way, r)| {
            let mark = if *way == GpuWay::TwoDispatches {
                "two dispatches".to_owned()
            } else if Some(r.workgroups) == first {
                "grid barrier ◀ first give-up".to_owned()
            } else {
                "grid barrier".to_owned()
            };
            vec![mark, format!("{} × {workgroup_size}", r.workgroups), r.passed.to_string(), r.gave_up.to_string(), r.stale.to_string(), r.longest_wait.to_string()]
        })
        .collect();
    view! {
        <TextTable headers=["way", "workgroups", "passed", "gave up", "stale reads", "longest wait (loads)"].map(str::to_owned).to_vec() rows=rows test_id="gpu-sweep" />
    }
}

#[component]
fn SweepReport(result: SweepResult) -> impl IntoView {
    let SweepResult { adapter, params, runs, wall_ms } = result;
    let barrier: Vec<GridRun> = runs.iter().filter(|(w, _)| *w == GpuWay::GridBarrier).map(|(_, r)| *r).collect();
    let checks: Vec<_> = runs.iter().map(|(way, r)| check(*way, GpuParams { invocations: r.workgroups * params.workgroup_size, workgroup_size: params.workgroup_size }, *r)).collect();
    let consistent = checks.iter().all(|c| c.consistent);
    let held = checks.iter().all(|c| c.promise_held);
    let first = crossover(&barrier);
    let largest = barrier.last().map_or(0, |r| r.workgroups);
    let (verdict, tone) = match (consistent, held, first) {
        (false, _, _) => ("Some counts break what atomics guarantee (every workgroup passed or gave up): this GPU's atomics misbehaved.".to_owned(), "bad"),
        (true, false, _) => ("Two dispatches, which promise every workgroup a written part, gave up or read stale: a bug of this GPU or its driver.".to_owned(), "bad"),
        (true, true, Some(1)) => (
            format!("Even one workgroup gave up: with a single workgroup the count reaches 1 at its own arrival, so this needs a look at the counts. Two dispatches passed at {largest} workgroups."),
            "warn",
        ),
        (true, true, Some(w)) => (
            format!(
                "The barrier held with {} of {} and first gave up at {w}: from there this GPU did not run every workgroup at once, and without the bound of 4,096 loads the dispatch would have hung. Two dispatches passed at {largest}.",
                workgroups(w / 2),
                params.workgroup_size
            ),
            "warn",
        ),
        (true, true, None) => (
            format!("The barrier held at every size up to {largest} workgroups: this GPU ran them all at once. Raise the invocations to pass what it holds; two dispatches work at any size."),
            "warn",
        ),
    };
    let export = {
        let (adapter, runs) = (adapter.clone(), runs.clone());
        move || (format!("syncscope-grid-barrier-{}.json", params.invocations), crate::lessons::grid_barrier::export::sweep(&adapter, params, &runs, wall_ms).to_pretty())
    };
    view! {
        <div class="run-report" data-testid="gpu-report" data-partial="false">
            <SweepTable runs=runs.clone() workgroup_size=params.workgroup_size />
            <p class=format!("verdict {tone}") data-testid="gpu-verdict" data-ok=consistent.to_string() data-promise-held=held.to_string()
                data-first-give-up=first.map_or(String::new(), |w| w.to_string())>{verdict}</p>
            <p class="muted">{format!("Adapter: {}. The sweep took {wall_ms:.0} ms.", crate::ui::figures::timed_adapter(&adapter), wall_ms = Float(wall_ms))}</p>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
        </div>
    }
}

/// "1 workgroup", "2 workgroups".
fn workgroups(n: u32) -> String {
    if n == 1 {
        "1 workgroup".to_owned()
    } else {
        format!("{n} workgroups")
    }
}

/// The same sweep on a data-centre GPU, from `data/h100-grid-barrier.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::grid_barrier::measured::{parse_grid_report, H100_GRID_BARRIER};
    parse_grid_report(H100_GRID_BARRIER).map(|(adapter, rows)| {
        let rows = rows.into_iter().map(|r| vec![r.way.clone(), format!("{} × {}", r.workgroups, r.workgroup_size), range(r.gave_up), range(r.stale), format!("{} of {}", r.promise_held, r.runs)]).collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["way", "workgroups", "gave up", "stale reads", "runs keeping the promise"]
                note="Five runs per size, the same kernel run natively on that GPU." />
        }
    })
}
