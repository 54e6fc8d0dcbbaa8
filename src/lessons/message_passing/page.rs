//! The message-passing page: two model threads whose every interleaving is counted (none weak),
//! beside the litmus kernels; on the GPU all four variants over many instances per dispatch,
//! their outcomes counted by the kernel and drawn on a log scale, and the throughput of that
//! against the smallest test per dispatch.

use crate::text::Float;
use crate::gpu::params::GpuParams;
use crate::gpu::{AdapterSummary, GpuError};
use crate::lessons::message_passing::gpu::{compare_throughput, run_litmus, LitmusRun, Throughput};
use crate::lessons::message_passing::{check, every_interleaving, model_outcome, MessagePassingVariant, Outcome};
use crate::model::Machine;
use crate::ui::chart::{LogBarChart, Series};
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

/// Dispatches of the smallest test in the throughput comparison: enough that the per-dispatch
/// cost, not the one readback, sets its rate.
const SMALLEST_DISPATCHES: u32 = 1000;
/// Dispatches of the reader's size in the comparison.
const MANY_DISPATCHES: u32 = 10;
const DISPATCH_CHOICES: [u32; 3] = [1, 10, 100];

#[component]
pub fn MessagePassingLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<MessagePassingVariant>("message-passing");
    let variant = model.variant;
    view! {
        <LessonPage id="message-passing" title="Message passing and memory order" model=model problems=problems lead=words::LEAD words=words::TEXT
            text=move || view! {
                <Interleavings variant=variant />
                <p>
                    <a data-testid="open-in-lab" href=move || lab_link(variant.get())
                        target=crate::site::embed::requested().then_some("_blank")>"Open this test in the litmus lab"</a>
                    ": every outcome with sequential consistency's and WGSL's verdicts and the reason for each, your own variations of it, and its kernel on your GPU."
                </p>
            }
            bar=move || view! { <VariantToggle model=model choices=&[
                (MessagePassingVariant::Relaxed, "Across workgroups, relaxed"),
                (MessagePassingVariant::StorageBarrier, "Across, storageBarrier()"),
                (MessagePassingVariant::WorkgroupBarrier, "Across, workgroupBarrier()"),
                (MessagePassingVariant::SameWorkgroup, "One workgroup, storageBarrier()"),
            ] /> }
            start="Start: data and flag are 0 for both messages. Each thread writes its own message and reads the other's."
            outcome=model_outcome_text
            kernel=Signal::derive(move || variant.get().kernel()) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, (sizes, variant)) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
pub fn gpu_half(part: GpuPart) -> AnyView {
    part.view(|(sizes, variant): (SizeFields, RwSignal<MessagePassingVariant>)| view! { <GpuLitmus sizes=sizes variant=variant /> <MeasuredElsewhere /> })
}

/// The variant as the lab's `mp` preset: where its threads run and the barrier between accesses.
fn lab_link(v: MessagePassingVariant) -> String {
    let (placement, barrier) = match v {
        MessagePassingVariant::Relaxed => ("across", "none"),
        MessagePassingVariant::StorageBarrier => ("across", "storage"),
        MessagePassingVariant::WorkgroupBarrier => ("across", "workgroup"),
        MessagePassingVariant::SameWorkgroup => ("same", "storage"),
    };
    format!("?lesson=litmus&preset=mp&placement={placement}&memory=storage&barrier={barrier}")
}

fn model_outcome_text(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    let said = |t: usize| {
        let o = model_outcome(m, t);
        format!("thread {t} read thread {}'s message: {} ({})", (t + 1) % 2, o.label(), o.class())
    };
    format!("Finished: {}; {}.", said(0), said(1))
}

/// Every order the model's two threads can run in, and where their reads end: counted by
/// running them all, for the variant shown.
#[component]
fn Interleavings(variant: RwSignal<MessagePassingVariant>) -> impl IntoView {
    move || {
        let all = every_interleaving(variant.get());
        let rows = Outcome::ALL.iter().map(|o| vec![o.label().to_owned(), o.class().to_owned(), all.counts[o.slot()].to_string()]).collect();
        view! {
            <TextTable headers=vec!["reads".into(), "kind".into(), "reads ending so".into()] rows=rows
                caption=format!("The model's every interleaving: {} orders of the two threads, {} reads", all.runs, 2 * all.runs)
                test_id="model-interleavings" />
        }
    }
}

/// The usual producer–consumer in CUDA, both ways: fences, and acquire/release.
const CUDA: &str = "__device__ int data;\n__device__ int flag;\n\n// Fences: order the plain stores and loads around an atomic flag.\n__global__ void producer() {\n    data = 42;\n    __threadfence();                      // data visible device-wide before the flag\n    atomicExch(&flag, 1);\n}\n\n__global__ void consumer(int *result) {\n    while (atomicAdd(&flag, 0) == 0) { }  // spin on the flag\n    __threadfence();                      // no load below moves above the spin\n    *result = data;\n}\n\n// Memory orders: the flag itself carries the ordering.\n__device__ cuda::atomic<int, cuda::thread_scope_device> ready{0};\n\n__global__ void producer_release() {\n    data = 42;\n    ready.store(1, cuda::std::memory_order_release);\n}\n\n__global__ void consumer_acquire(int *result) {\n    while (ready.load(cuda::std::memory_order_acquire) == 0) { }\n    *result = data;\n}";

fn variant_label(v: MessagePassingVariant) -> &'static str {
    match v {
        MessagePassingVariant::Relaxed => "across, relaxed",
        MessagePassingVariant::StorageBarrier => "across, storageBarrier",
        MessagePassingVariant::WorkgroupBarrier => "across, workgroupBarrier",
        MessagePassingVariant::SameWorkgroup => "one workgroup, storageBarrier",
    }
}

fn short_label(o: Outcome) -> &'static str {
    match o {
        Outcome::ReaderFirst => "reader first (0, 0)",
        Outcome::WriterFirst => "writer first (1, 1)",
        Outcome::Interleaved => "interleaved (0, 1)",
        Outcome::Weak => "weak (1, 0)",
    }
}

/// One variant's run, or why it could not run at the reader's sizes.
type VariantRun = (MessagePassingVariant, Result<LitmusRun, String>);

#[derive(Clone)]
struct Litmus {
    adapter: AdapterSummary,
    params: GpuParams,
    /// Dispatches per variant, as chosen.
    dispatches: u32,
    runs: Vec<VariantRun>,
    /// The seed of each run's shuffled workgroup order, in `runs`' order.
    seeds: Vec<u64>,
}

fn seed() -> u64 {
    (now_ms() * 1e3) as u64
}

#[component]
fn GpuLitmus(sizes: SizeFields, variant: RwSignal<MessagePassingVariant>) -> impl IntoView {
    let job = GpuJob::<Litmus>::new();
    crate::ui::gpu::warm(move || MessagePassingVariant::ALL.iter().map(|v| (v.kernel(), sizes.opened().workgroup_size)).collect());
    let throughput = GpuJob::<(AdapterSummary, MessagePassingVariant, GpuParams, Throughput)>::new();
    let dispatches = RwSignal::new(10u32);
    let run = Callback::new(move |()| {
        let dispatches = dispatches.get_untracked();
        job.start(sizes, move |ctx, params| async move {
            // One dispatch of the relaxed variant first, shown at once: the whole run takes
            // seconds where the GPU is slow.
            if dispatches > 1 {
                let seed = seed();
                match run_litmus(&ctx, MessagePassingVariant::Relaxed, params, 1, seed, now_ms).await {
                    Ok(first) => {
                        let runs = vec![(MessagePassingVariant::Relaxed, Ok(first))];
                        job.show_first(Litmus { adapter: ctx.adapter.clone(), params, dispatches: 1, runs, seeds: vec![seed] });
                    }
                    // Sizes the variant cannot pair: no first look; the whole run's row says why.
                    Err(GpuError::BadParams(_)) => {}
                    Err(e) => return Err(e),
                }
            }
            let (mut runs, mut seeds) = (Vec::new(), Vec::new());
            for v in MessagePassingVariant::ALL {
                let seed = seed();
                seeds.push(seed);
                match run_litmus(&ctx, v, params, dispatches, seed, now_ms).await {
                    Ok(r) => runs.push((v, Ok(r))),
                    // A size one variant cannot pair is that variant's row, not the whole run.
                    Err(GpuError::BadParams(why)) => runs.push((v, Err(why))),
                    Err(e) => return Err(e),
                }
            }
            Ok(Litmus { adapter: ctx.adapter.clone(), params, dispatches, runs, seeds })
        })
    });
    // Whether the weak outcome showed across workgroups with nothing but relaxed atomics.
    let weak = Signal::derive(move || {
        job.result.get().filter(|_| !job.partial.get()).and_then(|l| {
            l.runs.iter().find(|(v, _)| *v == MessagePassingVariant::Relaxed).and_then(|(_, r)| r.as_ref().ok()).map(|r| r.counts[Outcome::Weak.slot()] as i64)
        })
    });
    let compare = Callback::new(move |()| {
        let v = variant.get_untracked();
        throughput.start(sizes, move |ctx, params| async move {
            let t = compare_throughput(&ctx, v, params, MANY_DISPATCHES, SMALLEST_DISPATCHES, seed(), now_ms).await?;
            Ok((ctx.adapter.clone(), v, params, t))
        })
    });
    view! {
        <div class="gpu-form">
            <NumberChoice label="Dispatches per variant" choices=&DISPATCH_CHOICES value=dispatches test_id="litmus-dispatches" />
        </div>
        <p class="muted">"Invocations below is the number of test instances in each dispatch: every invocation writes one and reads another. All four variants run."</p>
        <crate::ui::prediction::Prediction test_id="predict-weak" guess=crate::ui::prediction::Guess::YesNo actual=weak
            question="with relaxed atomics across workgroups, will your GPU show the weak outcome (flag 1, data 0) at least once?" />
        <RunForm sizes=sizes job=job on_run=run />
        // `partial` changes with the result, before it (see `GpuJob::show_first`).
        {move || job.result.get().map(|r| view! { <LitmusReport result=r partial=job.partial.get_untracked() /> })}
        <h3>"Instances per second"</h3>
        <p class="muted">{format!(
            "The variant chosen above, {MANY_DISPATCHES} dispatches at the sizes above, against the smallest test a dispatch can hold (two invocations, each writing one instance and reading the other's) dispatched {SMALLEST_DISPATCHES} times. Both in one submission each, timed from encoding to the counts read back."
        )}</p>
        <RunForm job=throughput on_run=compare name="throughput" label="Compare with the smallest test per dispatch" />
        {move || throughput.result.get().map(|(adapter, v, params, t)| view! { <ThroughputReport adapter=adapter variant=v params=params result=t /> })}
    }
}

fn per_second(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.1} M", Float(x / 1e6))
    } else if x >= 1e3 {
        format!("{:.1} k", Float(x / 1e3))
    } else {
        format!("{x:.0}", x = Float(x))
    }
}

#[component]
fn LitmusReport(
    result: Litmus,
    /// A first look (one dispatch of the relaxed variant) while the whole run goes on.
    partial: bool,
) -> impl IntoView {
    let Litmus { adapter, params, dispatches: chosen, runs, seeds } = result;
    let export = {
        let adapter = adapter.clone();
        let each: Vec<_> = runs.iter().zip(seeds).map(|((v, r), seed)| (*v, seed, r.clone())).collect();
        move || {
            let json = crate::lessons::message_passing::export::runs(&adapter, params, chosen, &each);
            (format!("syncscope-message-passing-{}-{chosen}.json", params.invocations), json.to_pretty())
        }
    };
    let ran: Vec<(MessagePassingVariant, &LitmusRun)> = runs.iter().filter_map(|(v, r)| r.as_ref().ok().map(|r| (*v, r))).collect();
    let checks: Vec<_> = ran.iter().map(|(v, r)| (*v, check(*v, &r.counts, r.instances()))).collect();
    let ok = checks.iter().all(|(_, c)| c.ok());
    let series =
        ran.iter().map(|(v, r)| Series { name: variant_label(*v), values: Outcome::ALL.iter().map(|o| Some(r.counts[o.slot()] as f64)).collect() }).collect();
    let rows = runs
        .iter()
        .map(|(v, r)| match r {
            Ok(r) => {
                let c = check(*v, &r.counts, r.instances());
                let mut row = vec![variant_label(*v).to_owned()];
                row.extend(Outcome::ALL.iter().map(|o| r.counts[o.slot()].to_string()));
                row.push(per_second(r.per_second()));
                row.push(if *v == MessagePassingVariant::SameWorkgroup { "no" } else { "yes" }.to_owned());
                row.push(if c.ok() { "yes".to_owned() } else { format!("NO: {} forbidden, {} of {} counted", c.forbidden, c.total, c.expected_total) });
                row
            }
            Err(why) => vec![
                variant_label(*v).to_owned(),
                format!("not run: {why}"),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            ],
        })
        .collect();
    let weak: Vec<String> =
        ran.iter().filter(|(v, _)| v.across_workgroups()).map(|(v, r)| format!("{} {}", variant_label(*v), r.counts[Outcome::Weak.slot()])).collect();
    let any_weak = ran.iter().any(|(_, r)| r.counts[Outcome::Weak.slot()] > 0);
    let verdict = if !ok {
        "A variant lost instances or showed an outcome its barriers forbid: this GPU broke a promise.".to_owned()
    } else if any_weak {
        format!("Every instance counted once, and no forbidden outcome. Weak outcomes seen across workgroups — {}: the flag arrived before the data, as WGSL allows.", weak.join(", "))
    } else {
        format!("Every instance counted once, and no forbidden outcome. No weak outcome in these runs ({}): allowed but not promised, and this GPU did not show it here.", weak.join(", "))
    };
    // What the outcome counts of the relaxed variant say in words, from its own numbers: an
    // "interleaved 0" means the two halves never overlapped in time, not that they cannot.
    let reading = ran.iter().find(|(v, _)| *v == MessagePassingVariant::Relaxed).map(|(_, r)| {
        let count = |o: Outcome| r.counts[o.slot()];
        let (reader, writer, mixed, weak) = (count(Outcome::ReaderFirst), count(Outcome::WriterFirst), count(Outcome::Interleaved), count(Outcome::Weak));
        let overlap = if mixed == 0 {
            "none read flag 0 with data 1, which needs the reader's two loads to fall between the writer's two stores: here the two halves of an instance never overlapped in time, so the outcome that needs it never came up".to_owned()
        } else {
            format!("{mixed} read flag 0 with data 1: the reader's loads fell between the writer's stores, the two halves running at once")
        };
        format!(
            "Reading the relaxed row: {reader} reader(s) looked before the writer wrote anything (0, 0); {writer} looked after it wrote both (1, 1); {overlap}; and {weak} saw the flag without the data (1, 0), the weak outcome."
        )
    });
    let dispatches = ran.first().map_or(0, |(_, r)| r.dispatches);
    let instances = ran.first().map_or(0, |(_, r)| r.layout.instances());
    let mut headers = vec!["variant".to_owned()];
    headers.extend(Outcome::ALL.iter().map(|o| short_label(*o).to_owned()));
    headers.extend(["instances/s".into(), "weak allowed".into(), "promise kept".into()]);
    view! {
        <div class="run-report" data-testid="gpu-report" data-partial=partial.to_string()>
            {partial.then(|| view! { <p class="notice" data-testid="gpu-first-look">"A first look: the relaxed variant's first dispatch, read back while all four variants run."</p> })}
            <LogBarChart title=format!("{instances} instances × {dispatches} dispatches per variant, workgroups of {}, on {}", params.workgroup_size, crate::ui::figures::timed_adapter(&adapter))
                groups=Outcome::ALL.iter().map(|o| short_label(*o)).collect() series=series test_id="litmus-chart" />
            <TextTable headers=headers rows=rows test_id="litmus-table" />
            {reading.map(|text| view! { <p data-testid="litmus-reading">{text}</p> })}
            <p class=if ok { "verdict ok" } else { "verdict bad" } data-testid="gpu-verdict" data-ok=ok.to_string()>{verdict}</p>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
        </div>
    }
}

#[component]
fn ThroughputReport(adapter: AdapterSummary, variant: MessagePassingVariant, params: GpuParams, result: Throughput) -> impl IntoView {
    let row = |name: &str, r: &LitmusRun| {
        vec![
            name.to_owned(),
            r.layout.instances().to_string(),
            r.dispatches.to_string(),
            r.counts.iter().sum::<u64>().to_string(),
            format!("{:.1}", Float(r.wall_ms)),
            per_second(r.per_second()),
        ]
    };
    let ratio = result.ratio();
    let met = ratio >= 1000.0;
    let export = {
        let (adapter, result) = (adapter.clone(), result.clone());
        move || {
            let json = crate::lessons::message_passing::export::throughput(&adapter, variant, params, &result);
            (
                format!("syncscope-message-passing-throughput-{}-{}.json", crate::site::settings::LessonVariant::name(variant), params.invocations),
                json.to_pretty(),
            )
        }
    };
    view! {
        <div class="run-report" data-testid="throughput-report" data-ratio=format!("{ratio:.1}", ratio = Float(ratio))>
            <TextTable headers=vec!["way".into(), "instances per dispatch".into(), "dispatches".into(), "instances counted".into(), "wall ms".into(), "instances/s".into()]
                rows=vec![row("many per dispatch", &result.many), row("smallest test per dispatch", &result.smallest)]
                caption=format!("{} on {}", variant_label(variant), crate::ui::figures::timed_adapter(&adapter)) test_id="throughput-table" />
            <p class="verdict" data-testid="throughput-verdict">{format!(
                "{ratio:.0}× more instances per second with many per dispatch; the goal is at least 1000×, {} on this GPU.",
                if met { "met" } else { "not met" },
                ratio = Float(ratio),
            )}</p>
            <DownloadJson make=Box::new(export) test_id="throughput-download" />
        </div>
    }
}

/// The same test on a data-centre GPU, from `data/h100-message-passing.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::message_passing::measured::{parse_message_passing_report, H100_MESSAGE_PASSING};
    parse_message_passing_report(H100_MESSAGE_PASSING).map(|report| {
        let rows = report
            .rows
            .iter()
            .map(|r| {
                use crate::site::settings::LessonVariant;
                let name = MessagePassingVariant::from_name(&r.variant).map_or_else(|| r.variant.clone(), |v| variant_label(v).to_owned());
                let mut row = vec![name, r.instances.to_string(), r.workgroup_size.to_string(), r.dispatches.to_string()];
                row.extend(r.counts.iter().map(u64::to_string));
                row.push(per_second(r.per_second));
                row
            })
            .collect();
        let mut headers = vec!["variant".to_owned(), "instances per dispatch".into(), "workgroup".into(), "dispatches".into()];
        headers.extend(Outcome::ALL.iter().map(|o| short_label(*o).to_owned()));
        headers.push("instances/s".into());
        // Weak outcomes there, per variant over every size: read from the file, never typed in.
        let weak = Outcome::ALL.iter().position(|o| *o == Outcome::Weak).unwrap_or(3);
        let weak_of = |v: MessagePassingVariant| {
            let name = crate::site::settings::LessonVariant::name(v);
            let of = |f: &dyn Fn(&crate::lessons::message_passing::measured::MeasuredLitmus) -> u64| report.rows.iter().filter(|r| r.variant == name).map(f).sum::<u64>();
            (of(&|r| r.counts[weak]), of(&|r| u64::from(r.instances) * u64::from(r.dispatches)))
        };
        let totals: Vec<String> = MessagePassingVariant::ALL
            .iter()
            .map(|&v| {
                let (seen, of) = weak_of(v);
                format!("{} {seen} of {of}", variant_label(v))
            })
            .collect();
        let allowed_unseen: Vec<&str> =
            MessagePassingVariant::ALL.iter().filter(|v| v.allows(Outcome::Weak) && weak_of(**v).0 == 0).map(|v| variant_label(*v)).collect();
        let relaxed_weak = weak_of(MessagePassingVariant::Relaxed).0;
        let seed = if relaxed_weak > 0 {
            " The usual warning, that without a fence a reader may see the flag set and the data stale, held there."
        } else {
            " The usual warning, that without a fence a reader may see the flag set and the data stale, never came true there."
        };
        let unseen = if allowed_unseen.is_empty() {
            String::new()
        } else {
            // wgpu's SPIR-V writer gives storageBarrier() device memory scope, stronger than the
            // workgroup scope WGSL asks for: what that variant did there is the compiler's choice.
            let storage = variant_label(MessagePassingVariant::StorageBarrier);
            let compiler = if allowed_unseen.contains(&storage) {
                " wgpu's compiler emits storageBarrier() with device-wide memory scope, stronger than the workgroup scope WGSL asks for, so no weak outcome with it is that compiler's choice, not the hardware's."
            } else {
                ""
            };
            format!(" Allowed but never seen there: {}. That is what this GPU and its compiler did, not a promise: WGSL gives none across workgroups.{compiler}", allowed_unseen.join(", "))
        };
        // One chart per size and workgroup size, the variants side by side as on the reader's.
        let mut shapes: Vec<(u32, u32, u32)> = Vec::new();
        for r in &report.rows {
            if !shapes.iter().any(|s| (s.0, s.1) == (r.instances, r.workgroup_size)) {
                shapes.push((r.instances, r.workgroup_size, r.dispatches));
            }
        }
        let charts = shapes
            .into_iter()
            .map(|(instances, workgroup, dispatches)| {
                let series = report
                    .rows
                    .iter()
                    .filter(|r| (r.instances, r.workgroup_size) == (instances, workgroup))
                    .filter_map(|r| {
                        use crate::site::settings::LessonVariant;
                        let v = MessagePassingVariant::from_name(&r.variant)?;
                        // The file's counts follow Outcome::ALL, as the chart's groups do.
                        Some(Series { name: variant_label(v), values: r.counts.iter().map(|&n| Some(n as f64)).collect() })
                    })
                    .collect();
                view! {
                    <LogBarChart title=format!("{instances} instances × {dispatches} dispatches per variant, workgroups of {workgroup}, on an {}", report.adapter)
                        groups=Outcome::ALL.iter().map(|o| short_label(*o)).collect() series=series test_id="measured-litmus-chart" />
                }
            })
            .collect_view();
        view! {
            <MeasuredDetails adapter=report.adapter.clone()>
                {charts}
                <TextTable headers=headers rows=rows test_id="measured-litmus-table" />
                <p class="muted" data-testid="measured-weak">{format!("Weak outcomes there: {}.{seed}{unseen}", totals.join("; "))}</p>
                <p class="muted">{format!(
                    "The same kernels, run natively on that GPU. Throughput there: {} instances/s with {} per dispatch against {} with the smallest test per dispatch: {:.0}×.",
                    per_second(report.many_per_second), report.many_instances, per_second(report.smallest_per_second), Float(report.many_per_second / report.smallest_per_second.max(1e-9))
                )}</p>
            </MeasuredDetails>
        }
    })
}
