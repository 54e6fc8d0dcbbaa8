//! The compare-exchange maximum page: a few model threads racing to swap in the largest
//! value beside the real f32 kernel, with every invocation's retries counted.

use crate::text::Float;
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::cas_max::gpu::{run_cas_max, CasRun};
use crate::lessons::cas_max::sum::{self, run_sum, SumCheck, SumRun};
use crate::lessons::cas_max::{check, kernels, CasInputs, BEST, INPUT, MODEL_START};
use crate::model::Machine;
use crate::site::settings::LessonVariant;
use crate::ui::download::DownloadJson;
use crate::ui::figures::{figure, Figures};
use crate::ui::gpu::now_ms;
use crate::ui::gpu_form::{GpuJob, RunForm, SizeFields};
use crate::ui::gpu_half::{gpu_half, GpuPart, Part};
use crate::ui::histogram::Histogram;
use crate::ui::lesson_page::{open_lesson, LessonPage};
use crate::ui::measured::MeasuredTable;
use crate::ui::model_panel::VariantToggle;
use leptos::prelude::*;
use super::words;

#[component]
pub fn CasMaxLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<CasInputs>("cas-max");
    let inputs = model.variant;
    view! {
        <LessonPage id="cas-max" title="A float maximum from compare-exchange" model=model problems=problems lead=words::LEAD words=words::TEXT
            bar=move || view! { <VariantToggle model=model choices=&[
                (CasInputs::Mixed, "Inputs of both signs"),
                (CasInputs::NonPositive, "Inputs ≤ 0, with −0.0 and +0.0"),
                (CasInputs::WithNan, "With a NaN every fifth"),
                (CasInputs::Sum, "A float sum: 2^24 and ones"),
            ] /> }
            start="Start: best is below every input (for the sum, total is 0.0); each thread is about to read its own input." outcome=model_outcome
            kernel=Signal::derive(move || inputs.get().kernel_of()) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, (inputs, sizes)) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
pub fn gpu_half(part: GpuPart) -> AnyView {
    part.view(|(inputs, sizes): (RwSignal<CasInputs>, SizeFields)| view! { <GpuCasMax inputs=inputs sizes=sizes /> <MeasuredElsewhere /> <MeasuredSum /> })
}

fn model_outcome(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    let n = m.threads.len();
    let retries: i64 = m.memory[INPUT + n..].iter().sum();
    if m.program().memory_names.first().is_some_and(|name| name == "total") {
        let total = crate::model::f32_of(m.memory[BEST]);
        // Whole numbers, written as integers: an f64's formatting would weigh on the page.
        let exact = sum::LARGE as u64 + (n as u64 - 1);
        // The fewest ones before the large value that give this total (one 1.0 first rounds
        // the same as none).
        let before = (0..n as u32).find(|&before| sum::total_with(n as u32, before).to_bits() == total.to_bits());
        let why = match before {
            Some(0) => " That is the total when 16777216.0 goes first: every 1.0 after it rounds away.".to_owned(),
            Some(b) => format!(" That is the total when {b} one(s) go before 16777216.0: they count, and the ones after it round."),
            None => String::new(),
        };
        return format!(
            "Finished: total is {}, the sum of the inputs is {exact}; the threads retried {retries} time(s) in all.{why}",
            m.program().cell_text(BEST, m.memory[BEST])
        );
    }
    let best = m.memory[BEST];
    let shown = if best == MODEL_START { "unchanged".to_owned() } else { m.program().cell_text(BEST, best) };
    format!("Finished: best is {shown}, the largest input; the threads retried {retries} time(s) in all.")
}


/// CUDA has atomicCAS on 32-bit words and __float_as_int / __int_as_float for the bits.
const CUDA: &str = "__device__ bool above(float a, float b) {\n    return a > b || (a == b && __float_as_uint(a) == 0u && __float_as_uint(b) == 0x80000000u);\n}\n\n__device__ unsigned atomic_max_float(unsigned *best, float value) {\n    // Read with an atomic, not *best: a plain load racing the atomicCAS of others is a data race.
    unsigned old = atomicAdd(best, 0u), retries = 0;\n    while (above(value, __uint_as_float(old))) {\n        unsigned seen = atomicCAS(best, old, __float_as_uint(value));\n        if (seen == old) break;  // swapped\n        old = seen;              // someone else was first\n        retries++;\n    }\n    return retries;\n}";

#[derive(Clone)]
struct CasResult {
    adapter: AdapterSummary,
    inputs: CasInputs,
    params: GpuParams,
    run: CasOutcome,
    wall_ms: f64,
}

/// A run of the maximum, or of the sum.
#[derive(Clone)]
enum CasOutcome {
    Max(CasRun),
    Sum(SumRun),
}

#[component]
fn GpuCasMax(inputs: RwSignal<CasInputs>, sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<CasResult>::new();
    crate::ui::gpu::warm(move || {
        let w = sizes.opened().workgroup_size;
        vec![(kernels::CAS_MAX, w), (kernels::CAS_ADD, w)]
    });
    let run = Callback::new(move |()| {
        let inputs = inputs.get_untracked();
        job.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let run = match inputs {
                CasInputs::Sum => CasOutcome::Sum(run_sum(&ctx, params).await?),
                _ => CasOutcome::Max(run_cas_max(&ctx, inputs, params).await?),
            };
            Ok(CasResult { adapter: ctx.adapter.clone(), inputs, params, run, wall_ms: now_ms() - t0 })
        })
    });
    view! {
        <RunForm sizes=sizes job=job on_run=run />
        {move || job.result.get().map(|r| match r.run.clone() {
            CasOutcome::Max(run) => view! { <CasReport result=r run=run /> }.into_any(),
            CasOutcome::Sum(run) => view! { <SumReport adapter=r.adapter params=r.params run=run wall_ms=r.wall_ms /> }.into_any(),
        })}
    }
}

#[component]
fn CasReport(result: CasResult, run: CasRun) -> impl IntoView {
    let CasResult { adapter, inputs, params, wall_ms, .. } = result;
    let c = check(inputs, params, run.best_bits, &run.retries);
    let ok = c.exact && run.gave_up == 0;
    let float = |x: f32| format!("{x:?} (bits {:#010x})", x.to_bits());
    let verdict = if ok {
        format!("The result is exactly the true maximum, {}.", float(c.expected))
    } else if run.gave_up > 0 {
        format!("{} invocation(s) gave up at the bound on tries; the result is {}.", run.gave_up, float(c.observed))
    } else {
        format!("The result is {}, but the maximum is {}: this GPU broke compare-exchange's promise.", float(c.observed), float(c.expected))
    };
    let mean = c.total_retries as f64 / f64::from(params.invocations.max(1));
    let allowed = 0..=u32::MAX;
    let export = {
        let (adapter, run) = (adapter.clone(), run.clone());
        move || {
            let json = crate::lessons::cas_max::export::run(&adapter, inputs, params, &run, wall_ms);
            (format!("syncscope-cas-max-{}-{}.json", inputs.name(), params.invocations), json.to_pretty())
        }
    };
    view! {
        <div class="run-report" data-testid="gpu-report">
            <Figures items=vec![
                figure("Inputs", format!("{} × {}", params.invocations, match inputs {
                    CasInputs::NonPositive => "≤ 0",
                    CasInputs::WithNan => "both signs, a NaN every fifth",
                    _ => "both signs",
                })),
                figure("Expected (CPU)", format!("{:?}", c.expected)).id("gpu-expected"),
                figure("Observed (GPU)", format!("{:?}", c.observed)).id("gpu-observed").raw(format!("{:#010x}", run.best_bits)),
                figure("Retries in all", c.total_retries.to_string()).id("gpu-retries"),
                figure("Most by one invocation", c.most_retries.to_string()).id("gpu-most-retries"),
                figure("Gave up", run.gave_up.to_string()).id("gpu-gave-up"),
                figure("Round trip", format!("{wall_ms:.1} ms wall clock", wall_ms = Float(wall_ms))).timed_on(&adapter),
            ] />
            <p class=if ok { "verdict ok" } else { "verdict bad" } data-testid="gpu-verdict" data-ok=ok.to_string()>{verdict}</p>
            <p class="muted">{format!("{mean:.3} retries per invocation on average. Adapter: {}.", adapter.name, mean = Float(mean))}</p>
            <Histogram bins=c.histogram.clone() x_label="failed swaps (retries)" y_label="invocations" allowed=allowed />
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
            <pre class="raw" hidden data-testid="gpu-retry-list">{run.retries.iter().map(u32::to_string).collect::<Vec<_>>().join(",")}</pre>
        </div>
    }
}

/// The float sum on the reader's GPU: its total beside the totals two orders give, how many
/// ones came before the large value, and whether the additions form one chain.
#[component]
fn SumReport(adapter: AdapterSummary, params: GpuParams, run: SumRun, wall_ms: f64) -> impl IntoView {
    let n = params.invocations;
    let c: SumCheck = sum::check(n, &run);
    let ok = c.promise_held(run.gave_up);
    let float = |x: f32| crate::model::float_text(x);
    let verdict = if ok {
        format!(
            "Every addition replaced the total another left, in one chain from 0.0 to {}. The GPU served {} of the {} ones before 16777216.0; in that order the CPU's rounding gives the same total, bit for bit.",
            float(c.total),
            c.ones_before,
            n.saturating_sub(1)
        )
    } else if run.gave_up > 0 {
        format!("{} invocation(s) gave up at the bound on tries; the total is {}.", run.gave_up, float(c.total))
    } else {
        format!("The additions do not form one chain ending at {}: this GPU broke compare-exchange's promise.", float(c.total))
    };
    let mean = c.total_retries as f64 / f64::from(n.max(1));
    view! {
        <div class="run-report" data-testid="gpu-report">
            <Figures items=vec![
                figure("Inputs", format!("16777216.0 and {} × 1.0", n.saturating_sub(1))),
                figure("Total (GPU)", float(c.total)).id("gpu-sum-total").raw(format!("{:#010x}", run.total_bits)),
                figure("Ones added before 16777216.0", format!("{} of {}", c.ones_before, n.saturating_sub(1))).id("gpu-ones-before"),
                figure("In input order (CPU)", float(c.input_order)).id("gpu-sum-input-order"),
                figure("Every one first (CPU)", float(c.ones_first)).id("gpu-sum-ones-first"),
                figure("Without rounding", (c.exact as u64).to_string()).id("gpu-sum-exact"),
                figure("Retries in all", c.total_retries.to_string()).id("gpu-retries"),
                figure("Round trip", format!("{wall_ms:.1} ms wall clock", wall_ms = Float(wall_ms))).timed_on(&adapter),
            ] />
            <p class=if ok { "verdict ok" } else { "verdict bad" } data-testid="gpu-verdict" data-ok=ok.to_string()>{verdict}</p>
            <p class="muted">{format!("{mean:.3} retries per invocation on average. Adapter: {}.", adapter.name, mean = Float(mean))}</p>
        </div>
    }
}

/// The float sum on a data-centre GPU, from `data/h100-cas-add.json`.
#[component]
fn MeasuredSum() -> impl IntoView {
    use crate::lessons::cas_max::measured::{parse_sum_report, H100_CAS_ADD};
    parse_sum_report(H100_CAS_ADD).map(|(adapter, rows)| {
        let rows = rows
            .into_iter()
            .map(|r| {
                vec![
                    format!("{} / {}", r.invocations, r.workgroup_size),
                    format!("{} of {}", r.runs_one_chain, r.runs),
                    format!("{}–{}", r.ones_before_min, r.ones_before_max),
                    format!("{}–{}", r.total_min as u64, r.total_max as u64),
                    (r.exact_sum as u64).to_string(),
                    r.retries_in_all_median.to_string(),
                ]
            })
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["invocations / workgroup", "runs in one chain", "ones before 2^24", "totals", "without rounding", "retries (median run)"]
                note="The float sum: ten runs per size after a warm-up, the same kernel run natively on that GPU." />
        }
    })
}

/// The same kernel on a data-centre GPU, from `data/h100-cas-max.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::cas_max::measured::{parse_cas_report, H100_CAS};
    parse_cas_report(H100_CAS).map(|(adapter, rows)| {
        let rows = rows
            .into_iter()
            .map(|r| {
                vec![
                    r.inputs,
                    r.invocations.to_string(),
                    r.workgroup_size.to_string(),
                    format!("{} of {}", r.exact, r.runs),
                    r.gave_up.to_string(),
                    format!("{}–{} (median {})", r.retries.0, r.retries.2, r.retries.1),
                    r.most_by_one.to_string(),
                ]
            })
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["inputs", "invocations", "workgroup", "exact runs", "gave up", "retries in a run", "most by one invocation"]
                note="Ten runs per size after a warm-up, the same kernels run natively on that GPU." />
        }
    })
}
