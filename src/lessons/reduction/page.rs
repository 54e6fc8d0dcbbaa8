//! The reduction page: the eight-value tree stepped in the model, the same tree traced on the GPU
//! step by step, and a large sum by a tree of workgroups against atomicAdd, timed.

use crate::text::Float;
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::reduction::gpu::{run_comparison, run_trace, Comparison, Ways};
use crate::lessons::reduction::{cells_base, large_sum, strides, trace, Tree, VALUES};
use crate::model::Machine;
use crate::ui::download::DownloadJson;
use crate::ui::figures::{figure, Figures};
use crate::ui::gpu::{now_ms, GpuHandle};
use crate::ui::gpu_form::{GpuJob, RunForm, SizeFields};
use crate::ui::gpu_half::{gpu_half, GpuPart, Part};
use crate::ui::lesson_page::{open_lesson, LessonPage};
use crate::ui::model_panel::ModelState;
use crate::ui::table::TextTable;
use leptos::prelude::*;
use super::words;

/// Repeats of each sum inside one timed pass: enough that a browser's coarsened timestamps
/// (100 µs steps in some) still resolve the time per sum.
const REPEATS: u32 = 20; // the lesson text says 20

#[component]
pub fn ReductionLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<Tree>("reduction");
    view! {
        <LessonPage id="reduction" title="Summing in a tree" model=model problems=problems lead=words::LEAD words=words::TEXT
            start="Start: each thread holds one value of the input; cells is the workgroup's memory."
            outcome=model_outcome
            kernel=Signal::derive(Tree::kernel) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, (model, sizes)) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
pub fn gpu_half(part: GpuPart) -> AnyView {
    part.view(|(model, sizes): (ModelState<Tree>, SizeFields)| view! { <GpuTrace model=model /> <GpuComparison sizes=sizes /> <MeasuredElsewhere /> })
}

fn model_outcome(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    let n = m.threads.len();
    let total: i64 = m.memory[..n].iter().sum();
    let got = m.memory[cells_base(n)];
    if n.is_power_of_two() {
        format!("Finished: cells[0] = {got}, the sum of all {n} values, in {} steps.", strides(n).len())
    } else {
        format!("Finished: cells[0] = {got}, but the values add up to {total}: halving {n} drops a value. The tree needs a power of two (pad with zeros).")
    }
}

/// The usual CUDA reduction, the same tree with __syncthreads().
const CUDA: &str = "__global__ void reduce(const unsigned *input, unsigned *partials, unsigned n) {\n    __shared__ unsigned s[256];\n    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;\n    s[tid] = i < n ? input[i] : 0;\n    __syncthreads();\n    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {\n        if (tid < stride) s[tid] += s[tid + stride];\n        __syncthreads();          // outside the if: every thread reaches it\n    }\n    if (tid == 0) partials[blockIdx.x] = s[0];\n}";

/// The traced tree of one workgroup as wide as the model, read back and set against the table.
#[component]
fn GpuTrace(model: ModelState<Tree>) -> impl IntoView {
    let job = GpuJob::<(usize, Vec<Vec<u32>>, AdapterSummary, f64)>::new();
    crate::ui::gpu::warm(move || vec![(Tree::kernel(), model.threads.get() as u32)]);
    let gpu = expect_context::<GpuHandle>();
    let run = move |_| {
        let n = model.threads.get_untracked();
        job.start_fixed(move |ctx| async move {
            let t0 = now_ms();
            let rows = run_trace(&ctx, n).await?;
            Ok((n, rows, ctx.adapter.clone(), now_ms() - t0))
        });
    };
    view! {
        <h3>"The tree, traced"</h3>
        <p class="muted">"One workgroup as wide as the model; each invocation copies its cell out after every barrier."</p>
        <button data-testid="trace-run" disabled=move || gpu.context().is_none() || job.running.get() on:click=run>"Trace on my GPU"</button>
        {move || job.error.get().map(|e| view! { <p class="notice warn" role="alert">{e}</p> })}
        {move || job.result.get().map(|(n, rows, adapter, wall_ms)| {
            let values: Vec<u32> = (0..n).map(|i| VALUES[i % VALUES.len()]).collect();
            let same = rows == trace(&values);
            let export = {
                let rows = rows.clone();
                move || {
                    let json = crate::lessons::reduction::export::trace_run(&adapter, n, &rows, wall_ms);
                    (format!("syncscope-reduction-trace-{n}.json"), json.to_pretty())
                }
            };
            let labels = std::iter::once("loaded".to_owned()).chain(strides(n).into_iter().map(|s| format!("stride {s}")));
            let headers = std::iter::once("after".to_owned()).chain((0..n).map(|i| format!("cells[{i}]"))).collect();
            let rows = labels.zip(rows).map(|(label, row)| std::iter::once(label).chain(row.iter().map(u32::to_string)).collect()).collect();
            view! {
                <TextTable headers=headers rows=rows test_id="trace-table" />
                <p class=if same { "verdict ok" } else { "verdict bad" } data-testid="trace-verdict" data-ok=same.to_string()>
                    {if same { "Step for step the same table as the model's." } else { "The GPU's table differs from the model's: a barrier did not hold." }}
                </p>
                <DownloadJson make=Box::new(export) test_id="trace-download" />
            }
        })}
    }
}

#[derive(Clone)]
struct ComparisonResult {
    adapter: AdapterSummary,
    params: GpuParams,
    run: Comparison,
    wall_ms: f64,
}

#[component]
fn GpuComparison(sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<ComparisonResult>::new();
    crate::ui::gpu::warm(move || {
        let w = sizes.opened().workgroup_size;
        use crate::lessons::reduction::kernels::{ATOMIC, TREE, TREE_ATOMIC};
        vec![(TREE, w), (ATOMIC, w), (TREE_ATOMIC, w)]
    });
    let run = Callback::new(move |()| {
        job.start(sizes, move |ctx, params| async move {
            // atomicAdd once, shown at once: the whole run takes seconds where barriers are
            // slow, and there one tree alone takes longer than a reader waits for a click.
            let t0 = now_ms();
            let first = run_comparison(&ctx, params, 1, Ways::AtomicOnly).await?;
            job.show_first(ComparisonResult { adapter: ctx.adapter.clone(), params, run: first, wall_ms: now_ms() - t0 });
            let t0 = now_ms();
            let run = run_comparison(&ctx, params, REPEATS, Ways::All).await?;
            Ok(ComparisonResult { adapter: ctx.adapter.clone(), params, run, wall_ms: now_ms() - t0 })
        })
    });
    view! {
        <h3>"A large array three ways: a tree of dispatches, atomicAdd per value, a tree in each workgroup then one atomicAdd"</h3>
        <RunForm sizes=sizes job=job on_run=run />
        // `partial` changes with the result, before it (see `GpuJob::show_first`).
        {move || job.result.get().map(|r| view! { <ComparisonReport result=r partial=job.partial.get_untracked() /> })}
    }
}

#[component]
fn ComparisonReport(
    result: ComparisonResult,
    /// A first look (atomicAdd once) while the whole run goes on.
    partial: bool,
) -> impl IntoView {
    let ComparisonResult { adapter, params, run, wall_ms } = result;
    let want = large_sum(params.invocations);
    // A first look has no tree yet: only what ran is judged.
    let tree_ok = run.tree_sum.is_none_or(|sum| u64::from(sum) == want);
    let repeated = (want * u64::from(run.repeats)) & 0xFFFF_FFFF;
    let atomic_ok = u64::from(run.atomic_total) == repeated;
    let tree_atomic_ok = run.tree_atomic_total.is_none_or(|t| u64::from(t) == repeated);
    let ok = tree_ok && atomic_ok && tree_atomic_ok;
    let ms = |ns: Option<f64>| ns.map_or("— (no timestamp queries)".to_owned(), |ns| format!("{:.3} ms", Float(ns / 1e6)));
    let ratio = match (run.tree_ns, run.atomic_ns) {
        (Some(t), Some(a)) if t > 0.0 && a >= t => format!("{:.1}× slower", Float(a / t)),
        (Some(t), Some(a)) if a > 0.0 => format!("{:.1}× faster", Float(t / a)),
        _ => "—".to_owned(),
    };
    let export = {
        let (adapter, run) = (adapter.clone(), run.clone());
        move || {
            let json = crate::lessons::reduction::export::comparison(&adapter, params, &run, wall_ms);
            (format!("syncscope-reduction-{}.json", params.invocations), json.to_pretty())
        }
    };
    let verdict = if partial {
        format!(
            "A first look: atomicAdd once, its sum {}, read back while the tree runs and both run {REPEATS} times in one timed pass each.",
            if atomic_ok { "right" } else { "wrong" }
        )
    } else if ok {
        let fastest = [("the tree of dispatches", run.tree_ns), ("atomicAdd per value", run.atomic_ns), ("the tree in each workgroup with one atomicAdd", run.tree_atomic_ns)]
            .into_iter()
            .filter_map(|(name, ns)| ns.map(|ns| (name, ns)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(String::new(), |(name, _)| format!(" Fastest here: {name}."));
        format!("All three sums are right: {want}. A common estimate puts atomicAdd at about 5,000× slower than the tree, assuming one add at a time; here atomicAdd was {ratio}.{fastest}")
    } else {
        let shown = |t: Option<u32>| t.map_or("not run".to_owned(), |t| t.to_string());
        format!(
            "Wrong sum: tree {}, atomicAdd {} and tree-then-atomicAdd {} over {} repeats, expected {want} each ({repeated} after all repeats, modulo 2³²).",
            shown(run.tree_sum),
            run.atomic_total,
            shown(run.tree_atomic_total),
            run.repeats
        )
    };
    view! {
        <div class="run-report" data-testid="gpu-report" data-partial=partial.to_string()>
            <Figures items=vec![
                figure("Values", format!("{} in workgroups of {}", params.invocations, params.workgroup_size)),
                figure("Sum (CPU)", want.to_string()).id("gpu-expected"),
                figure("Tree sum (GPU)", run.tree_sum.map_or("running…".to_owned(), |sum| sum.to_string())).id("gpu-tree-sum"),
                figure("Tree dispatches per sum", run.levels.to_string()),
                figure("Tree, per sum", if run.tree_sum.is_some() { ms(run.tree_ns) } else { "running…".to_owned() }).id("gpu-tree-ms").timed_on(&adapter),
                figure("atomicAdd, per sum", ms(run.atomic_ns)).id("gpu-atomic-ms").timed_on(&adapter),
                figure("atomicAdd against the tree", ratio).id("gpu-ratio"),
                figure("Tree in each workgroup, one atomicAdd each, per sum", if run.tree_atomic_total.is_some() { ms(run.tree_atomic_ns) } else { "running…".to_owned() })
                    .id("gpu-tree-atomic-ms")
                    .timed_on(&adapter),
                figure("Round trip", if run.tree_sum.is_some() {
                    format!("{wall_ms:.1} ms wall clock, {} repeats each", run.repeats, wall_ms = Float(wall_ms))
                } else {
                    format!("{wall_ms:.1} ms wall clock, atomicAdd once", wall_ms = Float(wall_ms))
                }).timed_on(&adapter),
            ] />
            <p class=if partial { "notice" } else if ok { "verdict ok" } else { "verdict bad" } data-testid=if partial { "gpu-first-look" } else { "gpu-verdict" } data-ok=ok.to_string()>{verdict}</p>
            <p class="muted">{format!("Adapter: {}.", crate::ui::figures::timed_adapter(&adapter))}</p>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
        </div>
    }
}

/// The same sums on a data-centre GPU, from `data/h100-reduction.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::reduction::measured::{parse_reduction_report, H100_REDUCTION};
    use crate::ui::measured::MeasuredTable;
    parse_reduction_report(H100_REDUCTION).map(|(adapter, rows)| {
        let ms = |x: Option<f64>| x.map_or("—".to_owned(), |ms| format!("{ms:.4}", ms = Float(ms)));
        let rows = rows
            .into_iter()
            .map(|r| {
                let ratio = match (r.tree_ms, r.atomic_ms) {
                    (Some(t), Some(a)) if t > 0.0 => format!("{:.2}", Float(a / t)),
                    _ => "—".to_owned(),
                };
                vec![
                    format!("{} / {}", r.invocations, r.workgroup_size),
                    format!("{} of {}", r.right, r.runs),
                    r.levels.to_string(),
                    ms(r.tree_ms),
                    ms(r.atomic_ms),
                    ratio,
                    ms(r.tree_atomic_ms),
                ]
            })
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["values / workgroup", "sums right", "tree dispatches", "tree ms per sum", "atomicAdd ms per sum", "atomicAdd ÷ tree", "tree in workgroup + one atomicAdd, ms per sum"]
                note="Medians of five runs of 20 repeats each, the same kernels run natively on \
                      that GPU. The common 5,000× is an estimate from cycle counts that assumes one add at a time; the last \
                      column shows how far real hardware is from it." />
        }
    })
}
