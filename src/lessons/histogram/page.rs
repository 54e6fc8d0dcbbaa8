//! The histogram page: model threads counting into four bins three ways, beside the kernels;
//! on the GPU all three counted and timed at the reader's sizes, and swept over how many bins
//! the data hits, with the same sweep measured on an H100.

use crate::text::Float;
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::histogram::gpu::{run_size_sweep, run_sweep, HistogramRun, Input, SweepPoint};
use crate::lessons::histogram::{bins_base, check, model_input, HistogramVariant, DISTINCT, MODEL_BINS, SIZES};
use crate::model::Machine;
use crate::ui::chart::{LineChart, Series};
use crate::ui::download::DownloadJson;
use crate::ui::gpu::now_ms;
use crate::ui::gpu_form::{GpuJob, NumberChoice, RunForm, SizeFields};
use crate::ui::gpu_half::{gpu_half, GpuPart, Part};
use crate::ui::lesson_page::{open_lesson, LessonPage};
use crate::ui::measured::MeasuredDetails;
use crate::ui::model_panel::VariantToggle;
use crate::ui::table::TextTable;
use leptos::prelude::*;
use super::words;

/// Dispatches per timed pass: enough that coarsened browser timestamps still resolve one.
const REPEATS: u32 = 20;

#[component]
pub fn HistogramLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<HistogramVariant>("histogram");
    let variant = model.variant;
    view! {
        <LessonPage id="histogram" title="Histograms and contention" model=model problems=problems lead=words::LEAD words=words::TEXT
            bar=move || view! { <VariantToggle model=model choices=&[
                (HistogramVariant::Plain, "Plain +="),
                (HistogramVariant::Atomic, "atomicAdd on the bins"),
                (HistogramVariant::Private, "Private bins per workgroup"),
            ] /> }
            start="Start: each thread holds one value (its bin); every bin is 0."
            outcome=model_outcome
            kernel=Signal::derive(move || variant.get().kernel()) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, sizes) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
pub fn gpu_half(part: GpuPart) -> AnyView {
    part.view(|sizes: SizeFields| view! { <GpuHistogram sizes=sizes /> <MeasuredElsewhere /> })
}

fn model_outcome(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    let n = m.threads.len();
    let want: Vec<i64> = (0..MODEL_BINS as i64).map(|b| (0..n).filter(|&t| model_input(t) == b).count() as i64).collect();
    let got = &m.memory[bins_base(n)..bins_base(n) + MODEL_BINS];
    let lost: i64 = want.iter().zip(got).map(|(w, g)| w - g).sum();
    if lost == 0 {
        format!("Finished: the bins hold {got:?}, all {n} values counted.")
    } else {
        format!("Finished: the bins hold {got:?} but should hold {want:?}: {lost} count(s) lost.")
    }
}

/// The same three in CUDA (seed: the broken and correct histograms, and the privatized one).
const CUDA: &str = "__global__ void histogram_broken(const unsigned *data, unsigned *bins, unsigned n) {\n    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) bins[data[i]]++;                 // load, add, store: counts lost\n}\n\n__global__ void histogram_atomic(const unsigned *data, unsigned *bins, unsigned n) {\n    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) atomicAdd(&bins[data[i]], 1);\n}\n\n__global__ void histogram_private(const unsigned *data, unsigned *bins, unsigned n) {\n    __shared__ unsigned local[256];\n    for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;\n    __syncthreads();\n    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n        atomicAdd(&local[data[i]], 1);        // shared-memory atomic\n    __syncthreads();\n    for (unsigned b = threadIdx.x; b < 256; b += blockDim.x)\n        if (local[b]) atomicAdd(&bins[b], local[b]);\n}";

#[derive(Clone)]
struct Counted {
    adapter: AdapterSummary,
    params: GpuParams,
    distinct: u32,
    runs: Vec<(HistogramVariant, HistogramRun)>,
    wall_ms: f64,
}

#[component]
fn GpuHistogram(sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<Counted>::new();
    crate::ui::gpu::warm(move || HistogramVariant::ALL.iter().map(|v| (v.kernel(), sizes.opened().workgroup_size)).collect());
    let sweep = GpuJob::<(AdapterSummary, GpuParams, Vec<SweepPoint>, f64)>::new();
    let distinct = RwSignal::new(256u32);
    // The values the last run counted, kept for the next run with the same sizes; uploaded for
    // the sizes the page opened with as soon as the GPU is ready, as the pipelines are compiled,
    // so the first click only counts.
    let uploaded = StoredValue::new_local(None::<Input>);
    let gpu = expect_context::<crate::ui::GpuHandle>();
    Effect::new(move |_| {
        let Some(ctx) = gpu.context() else { return };
        let params = sizes.opened();
        if crate::gpu::params::check_params(params, &crate::gpu::params::ComputeLimits::from(ctx.adapter.limits)).is_ok() {
            uploaded.set_value(Input::upload(&ctx, params, distinct.get_untracked()).ok());
        }
    });
    let run = Callback::new(move |()| {
        let distinct = distinct.get_untracked();
        job.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let input = match uploaded.get_value().filter(|i| i.params == params && i.distinct == distinct) {
                Some(input) => input,
                None => Input::upload(&ctx, params, distinct)?,
            };
            uploaded.set_value(Some(input.clone()));
            // One dispatch of the first way, shown at once: the whole run takes seconds where
            // the GPU is slow.
            let first = HistogramVariant::ALL[0];
            let run = input.count(&ctx, first, 1).await?;
            job.show_first(Counted { adapter: ctx.adapter.clone(), params, distinct, runs: vec![(first, run)], wall_ms: now_ms() - t0 });
            let t0 = now_ms();
            let mut runs = Vec::new();
            for variant in HistogramVariant::ALL {
                runs.push((variant, input.count(&ctx, variant, REPEATS).await?));
            }
            Ok(Counted { adapter: ctx.adapter.clone(), params, distinct, runs, wall_ms: now_ms() - t0 })
        })
    });
    let run_sweep_job = Callback::new(move |()| {
        sweep.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let points = run_sweep(&ctx, params, REPEATS, &mut |done, of| sweep.progress.set(Some((done, of)))).await?;
            Ok((ctx.adapter.clone(), params, points, now_ms() - t0))
        })
    });
    let size_sweep = GpuJob::<(AdapterSummary, GpuParams, Vec<SweepPoint>, f64)>::new();
    let run_size_sweep_job = Callback::new(move |()| {
        let distinct = distinct.get_untracked();
        size_sweep.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let points =
                run_size_sweep(&ctx, params.workgroup_size, distinct, &SIZES, REPEATS, &mut |done, of| size_sweep.progress.set(Some((done, of)))).await?;
            Ok((ctx.adapter.clone(), params, points, now_ms() - t0))
        })
    });
    view! {
        <div class="gpu-form">
            <NumberChoice label="Bins the data hits" choices=&DISTINCT value=distinct test_id="histogram-distinct" />
        </div>
        <p class="muted">"Invocations below is the number of values; each invocation counts 16 of them."</p>
        <RunForm sizes=sizes job=job on_run=run />
        // `partial` changes with the result, before it (see `GpuJob::show_first`).
        {move || job.result.get().map(|r| view! { <CountReport result=r partial=job.partial.get_untracked() /> })}
        <h3>"Contention sweep"</h3>
        <p class="muted">"All three at the sizes above, for data hitting 1, 2, 4 … 256 bins: 27 timed passes."</p>
        <RunForm job=sweep on_run=run_sweep_job name="sweep" label="Run the sweep on my GPU" />
        {move || sweep.result.get().map(|(adapter, params, points, wall_ms)| view! { <SweepReport adapter=adapter params=params points=points by_size=false wall_ms=wall_ms /> })}
        <h3>"Size sweep"</h3>
        <p class="muted">"All three for 4,096, 16,384, 65,536, 262,144 and 1,048,576 values hitting the bins chosen above, in workgroups of the size above: 15 timed passes."</p>
        <RunForm job=size_sweep on_run=run_size_sweep_job name="size-sweep" label="Run the size sweep on my GPU" />
        {move || size_sweep.result.get().map(|(adapter, params, points, wall_ms)| view! { <SweepReport adapter=adapter params=params points=points by_size=true wall_ms=wall_ms /> })}
    }
}

fn label(v: HistogramVariant) -> &'static str {
    match v {
        HistogramVariant::Plain => "plain +=",
        HistogramVariant::Atomic => "atomicAdd on the bins",
        HistogramVariant::Private => "private bins, merged",
    }
}

fn ms(ns: Option<f64>) -> String {
    ns.map_or("— (no timestamp queries)".to_owned(), |ns| format!("{:.4}", Float(ns / 1e6)))
}

#[component]
fn CountReport(
    result: Counted,
    /// A first look (one dispatch of the first way) while the whole run goes on.
    partial: bool,
) -> impl IntoView {
    let Counted { adapter, params, distinct, runs, wall_ms } = result;
    let repeats = runs.first().map_or(REPEATS, |(_, r)| r.repeats);
    let n = params.invocations;
    let checks: Vec<_> = runs.iter().map(|(v, r)| (*v, check(n, distinct, r.repeats, &r.bins), r.ns_per_dispatch)).collect();
    let ok = checks.iter().all(|(v, c, _)| c.possible && (c.exact || !v.exact()));
    let rows = checks
        .iter()
        .map(|(v, c, ns)| {
            vec![label(*v).to_owned(), format!("{} of {}", c.sum, c.expected_sum), c.lost().to_string(), if c.exact { "yes" } else { "no" }.to_owned(), ms(*ns)]
        })
        .collect();
    let time = |v: HistogramVariant| checks.iter().find(|c| c.0 == v).and_then(|c| c.2);
    let ratio = match (time(HistogramVariant::Atomic), time(HistogramVariant::Private)) {
        (Some(a), Some(p)) if p > 0.0 => {
            format!(" Private bins took {:.2}× the time of atomicAdd on the storage bins ({}).", Float(p / a), if p < a { "faster" } else { "not faster" })
        }
        _ => String::new(),
    };
    let lost = checks.iter().find(|c| c.0 == HistogramVariant::Plain).map_or(0, |c| c.1.lost());
    let export = {
        let (adapter, runs) = (adapter.clone(), runs.clone());
        move || {
            let json = crate::lessons::histogram::export::run(&adapter, params, distinct, repeats, &runs, wall_ms);
            (format!("syncscope-histogram-{n}-{distinct}.json"), json.to_pretty())
        }
    };
    let verdict = if partial {
        format!("A first look: one dispatch of {}, read back while all three ways run {REPEATS} dispatches each.", label(HistogramVariant::ALL[0]))
    } else if ok {
        format!("Both atomic ways equal the CPU's histogram ({REPEATS} dispatches, {} values each); the plain += lost {lost} count(s).{ratio}", n)
    } else {
        if checks.iter().any(|(v, c, _)| v.exact() && !(c.possible && c.exact)) {
            "An atomic way missed or added counts: this GPU broke atomicAdd's promise.".to_owned()
        } else {
            // Plain += races on the bins: a data race, for which WGSL promises no value.
            "The plain += holds a count no run of whole increments can produce. Its invocations race on the bins, and WGSL promises no value for a racing read: no promise broken, only a histogram to distrust.".to_owned()
        }
    };
    view! {
        <div class="run-report" data-testid="gpu-report" data-partial=partial.to_string()>
            <TextTable headers=vec!["way".into(), "sum of the bins".into(), "lost".into(), "equals the CPU's".into(), "ms per dispatch".into()]
                rows=rows caption=format!("{n} values hitting {distinct} bin(s), workgroups of {}, {repeats} dispatch(es) into the same bins", params.workgroup_size) test_id="histogram-table" />
            <p class=if partial { "notice" } else if ok { "verdict ok" } else { "verdict bad" } data-testid=if partial { "gpu-first-look" } else { "gpu-verdict" } data-ok=ok.to_string()>{verdict}</p>
            <p class="muted">{format!("Adapter: {}.", crate::ui::figures::timed_adapter(&adapter))}</p>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
        </div>
    }
}

/// One point of a sweep as charted: the x value, and each way's time there (none where it
/// was not timed).
type Timed = (u32, Vec<(HistogramVariant, Option<f64>)>);

/// A sweep as a chart of ms per dispatch against bins hit, one line per way.
fn sweep_chart(title: String, x_title: &'static str, points: &[Timed], test_id: &'static str) -> impl IntoView {
    let series = HistogramVariant::ALL
        .iter()
        .map(|&v| Series { name: label(v), values: points.iter().map(|(_, runs)| runs.iter().find(|r| r.0 == v).and_then(|r| r.1)).collect() })
        .collect();
    view! {
        <LineChart title=title x_labels=points.iter().map(|p| p.0.to_string()).collect() x_title=x_title y_unit="ms per dispatch" series=series test_id=test_id />
    }
}

#[component]
fn SweepReport(adapter: AdapterSummary, params: GpuParams, points: Vec<SweepPoint>, by_size: bool, wall_ms: f64) -> impl IntoView {
    let ok = points.iter().all(|p| {
        p.runs.iter().all(|(v, r)| {
            let c = check(p.values, p.distinct, r.repeats, &r.bins);
            c.possible && (c.exact || !v.exact())
        })
    });
    let times: Vec<Timed> = points
        .iter()
        .map(|p| (if by_size { p.values } else { p.distinct }, p.runs.iter().map(|(v, r)| (*v, r.ns_per_dispatch.map(|ns| ns / 1e6))).collect()))
        .collect();
    let rows = times
        .iter()
        .map(|(x, runs)| std::iter::once(x.to_string()).chain(runs.iter().map(|r| r.1.map_or("—".into(), |ms| format!("{ms:.4}", ms = Float(ms))))).collect())
        .collect();
    let (name, title, x_title, first) = if by_size {
        let distinct = points.first().map_or(0, |p| p.distinct);
        (
            "size-sweep",
            format!("{distinct} bin(s) hit, workgroups of {}, on {}", params.workgroup_size, crate::ui::figures::timed_adapter(&adapter)),
            "values",
            "values",
        )
    } else {
        (
            "sweep",
            format!("{} values, workgroups of {}, on {}", params.invocations, params.workgroup_size, crate::ui::figures::timed_adapter(&adapter)),
            "bins the data hits",
            "bins hit",
        )
    };
    let export = move || {
        let json = crate::lessons::histogram::export::sweep(&adapter, params, &points, by_size, REPEATS, wall_ms);
        let file = if by_size {
            format!("syncscope-histogram-size-sweep-{}.json", points.first().map_or(0, |p| p.distinct))
        } else {
            format!("syncscope-histogram-sweep-{}.json", params.invocations)
        };
        (file, json.to_pretty())
    };
    view! {
        <div class="run-report" data-testid=format!("{name}-report")>
            {sweep_chart(title, x_title, &times, if by_size { "size-sweep-chart" } else { "sweep-chart" })}
            <TextTable headers=vec![first.into(), "plain ms".into(), "atomicAdd ms".into(), "private ms".into()] rows=rows test_id=if by_size { "size-sweep-table" } else { "sweep-table" } />
            <p class=if ok { "verdict ok" } else { "verdict bad" } data-testid=format!("{name}-verdict") data-ok=ok.to_string()>
                {if ok { "At every point both atomic ways equal the CPU's histogram." } else { "At some point an atomic way missed counts." }}
            </p>
            <DownloadJson make=Box::new(export) test_id=if by_size { "size-sweep-download" } else { "sweep-download" } />
        </div>
    }
}

/// The sweep on a data-centre GPU, from `data/h100-histogram.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::histogram::measured::{parse_histogram_report, H100_HISTOGRAM};
    parse_histogram_report(H100_HISTOGRAM).map(|(adapter, rows)| {
        let mut sizes: Vec<u32> = rows.iter().map(|r| r.values).collect();
        sizes.dedup();
        let charts = sizes
            .into_iter()
            .map(|n| {
                let points: Vec<Timed> = DISTINCT
                    .iter()
                    .map(|&d| {
                        let runs = HistogramVariant::ALL
                            .iter()
                            .map(|&v| (v, rows.iter().find(|r| r.values == n && r.distinct == d && r.variant == crate::site::settings::LessonVariant::name(v)).and_then(|r| r.ms)))
                            .collect();
                        (d, runs)
                    })
                    .collect();
                sweep_chart(format!("{n} values, measured on an {adapter} (native wgpu, Vulkan)"), "bins the data hits", &points, "measured-histogram-chart")
            })
            .collect_view();
        let exact = rows.iter().filter(|r| r.variant != "plain").all(|r| r.exact);
        // How many times faster private bins were than atomicAdd on the storage bins, over
        // every size and number of bins measured: the common estimate is about 10×.
        let ratios: Vec<f64> = rows
            .iter()
            .filter(|r| r.variant == "atomic")
            .filter_map(|a| {
                let p = rows.iter().find(|p| p.variant == "private" && p.values == a.values && p.distinct == a.distinct)?;
                Some(a.ms? / p.ms.filter(|&ms| ms > 0.0)?)
            })
            .collect();
        let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ratios.iter().copied().fold(0.0, f64::max);
        view! {
            <MeasuredDetails adapter=adapter>
                {charts}
                <p class="muted">{format!(
                    "Medians of five timed passes of 20 dispatches, the same kernels run natively on that GPU; the atomic ways equalled the CPU's histogram {}. There, private bins were {lo:.1}× to {hi:.0}× faster than atomicAdd on the storage bins, depending on how many bins the data hits. That compares whole kernels, not one workgroup-memory atomic with one global atomic as the common estimate of 10× does.",
                    if exact { "every time" } else { "NOT every time" },
                    lo = Float(lo),
                    hi = Float(hi),
                )}</p>
            </MeasuredDetails>
        }
    })
}
