//! The litmus lab's page: the editor and its modifiers, every outcome with both verdicts and
//! the reason, the generated kernels as they are compiled, and the GPU's counts beside them.

use crate::text::Float;
use super::generate::{kernels, Kernels};
use super::gpu::{compile, run, Compiled, LitmusCounts, INSTANCES, WORKGROUP_SIZE};
use super::{Scoped, 
    describe_move, export, graph, preset_of, preset_text, rows_timed, why, ScopedEngine, BarrierModifier, LabError, LabModel, LabSettings, Row, SharedResults, Wgsl, MAX_SHARED_COUNTS,
};
use crate::gpu::AdapterSummary;
use crate::model::litmus::sc::Move;
use crate::model::litmus::{LitmusTest, Placement, PRESETS, SCOPED_PRESETS};
use crate::model::Space;
use crate::model::{Machine, Schedule, Session};
use crate::ui::download::DownloadJson;
use crate::ui::gpu::{now_ms, GpuHandle, GpuState, GpuStatus};
use crate::ui::gpu_form::{GpuJob, LinkProblems, NumberChoice, RunForm};
use crate::ui::gpu_half::{gpu_half, GpuPart, Part};
use crate::ui::model_panel::ModelView;
use crate::ui::panel::Panel;
use crate::ui::permalink::{self, CopyLink};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;
use super::words;

const DISPATCH_CHOICES: [u32; 3] = [1, 10, 100];

/// A test read and weighed: what the table, the kernels and the export show.
#[derive(Clone, Debug, PartialEq)]
struct Analysis {
    test: LitmusTest,
    /// What WGSL lacks to say the test, if it cannot: then nothing runs on the GPU.
    beyond_wgsl: Option<String>,
    /// Shared with the visibility scene, which is rebuilt for every test: a table runs to
    /// thousands of rows.
    rows: Arc<Vec<Row>>,
    kernels: Kernels,
    /// How long every verdict on every outcome took, in milliseconds (the bench reads it).
    verdict_ms: f64,
    /// Of which the scoped model's.
    scoped_ms: f64,
}

/// A run's counts, with the test source they belong to (a row shows them only while the test
/// is still the one that ran).
#[derive(Clone, Debug, PartialEq)]
struct LabRun {
    adapter: AdapterSummary,
    source: String,
    counts: LitmusCounts,
}

#[component]
pub fn LitmusLab() -> impl IntoView {
    let (opened, mut problems) = LabSettings::parse(crate::site::query::get);
    // Counts another reader's run put in the link, shown beside this reader's own: they belong
    // to the test and configuration the link opened, so any change there lets them go.
    let shared = RwSignal::new(crate::site::query::get("results").and_then(|v| SharedResults::parse(&v).map_err(|e| problems.push(e)).ok()));
    provide_context(SharedLink(shared));
    let text = RwSignal::new(opened.text.clone());
    let placement = RwSignal::new(opened.placement);
    let memory = RwSignal::new(opened.memory);
    let barrier = RwSignal::new(opened.barrier);
    let settings = Memo::new(move |_| LabSettings { text: text.get(), placement: placement.get(), memory: memory.get(), barrier: barrier.get() });
    Effect::new(move |first: Option<()>| {
        settings.track();
        if first.is_some() {
            shared.set(None);
        }
    });
    // The reader's run of the visibility scene, kept in the link (`watch=`); a new test starts
    // it afresh.
    let watch = RwSignal::new(crate::site::query::get("watch").and_then(|v| {
        let decoded = super::visibility::decode(&v);
        if decoded.is_none() {
            problems.push("watch= was ignored: it should read thread.write pairs, e.g. 0.0,1.1".to_owned());
        }
        decoded
    }).unwrap_or_default());
    Effect::new(move |first: Option<()>| {
        settings.track();
        if first.is_some() {
            watch.set(Vec::new());
        }
    });
    permalink::follow("litmus", move || {
        let mut pairs = settings.with(LabSettings::to_pairs);
        pairs.extend(shared.with(|r| r.as_ref().map(|r| ("results", r.to_value()))));
        pairs.extend(watch.with(|w| (!w.is_empty()).then(|| ("watch", super::visibility::encode(w)))));
        pairs
    });
    // The scoped model's engine comes with the outcome panels, in their chunk (it is too heavy
    // for the page's first load): until then the page weighs the other two verdicts.
    let engine = RwSignal::new(None::<ScopedEngine>);
    provide_context(ScopedEngineSlot(engine));
    let analysis: Memo<Result<Arc<Analysis>, LabError>> = Memo::new(move |_| {
        let engine = engine.get();
        settings.with(|s| {
            let test = s.test()?;
            let start = now_ms();
            let (rows, scoped) = rows_timed(&test, engine, now_ms);
            let (verdict_ms, scoped_ms) = (now_ms() - start, scoped.ms);
            // Beyond WGSL, only the scoped model speaks: a test it declines has no verdicts.
            if let (Some(why), Some(_)) = (scoped.declined, test.beyond_wgsl()) {
                return Err(LabError { line: None, message: format!("{why}. WGSL cannot say this test, so it has no other verdict.") });
            }
            let kernels = kernels(&test, &s.text, WORKGROUP_SIZE);
            Ok(Arc::new(Analysis { beyond_wgsl: test.beyond_wgsl(), test, rows: Arc::new(rows), kernels, verdict_ms, scoped_ms }))
        })
    });
    let job = GpuJob::<LabRun>::new();
    let compiled = RwSignal::new_local(None::<Result<Compiled, String>>);
    // The lab's GPU half includes its model and outcome panels, the first of them below the
    // first screen: it comes as the reader nears that one.
    crate::ui::gpu_half::want_when_near(".lab-model-panel");
    let gpu = gpu_half!(Part::Panel, (analysis, compiled, job, settings, text));
    // The model of the test shown, scheduled by hand; a new test starts it afresh.
    let fresh = move |a: &Result<Arc<Analysis>, LabError>| {
        let machine = match a {
            Ok(a) => LabModel::of(&a.test).machine(),
            Err(_) => Machine::new(std::sync::Arc::new(empty_program()), 1, Vec::new()),
        };
        Session::new(machine, Schedule::Manual)
    };
    let session = RwSignal::new(analysis.with_untracked(fresh));
    provide_context(LabSession(session));
    Effect::new(move |first: Option<()>| {
        let a = analysis.get();
        if first.is_some() && a.is_ok() {
            session.set(fresh(&a));
        }
    });
    let replay = Callback::new(move |moves: Vec<Move>| {
        if let Ok(a) = analysis.get_untracked() {
            session.set(LabModel::of(&a.test).replay(&moves));
        }
    });
    let lab_model = gpu_half!(Part::LabModel, (analysis, session));
    let outcomes = gpu_half!(Part::LabOutcomes, (analysis, job, replay, settings));
    let visibility = gpu_half!(Part::LabVisibility, (analysis, watch));

    view! {
        <article class="lesson litmus">
            <h1>"The litmus lab"</h1>
            <LinkProblems problems=problems />
            <div class="prose lead" data-testid="lead" inner_html=crate::site::glossary::gloss(words::LEAD)></div>
            <div class="lesson-bar">
                <span></span>
                <CopyLink />
            </div>
            <div class="lesson-grid">
                <Panel id="model" title="The test">
                    <Editor text=text placement=placement memory=memory barrier=barrier labelled=Signal::derive(move || analysis.with(|a| a.as_ref().is_ok_and(|a| a.test.labelled))) />
                    <Problem analysis=analysis text=text />
                    <BeyondWgsl analysis=analysis text=text />
                </Panel>
                <Panel id="code" title="The kernel">
                    <KernelSource analysis=analysis compiled=compiled />
                </Panel>
            </div>
            <details class="background" data-testid="background">
                <summary>"More on litmus tests: what the lab checks, and how it runs them"</summary>
                <div class="prose" inner_html=crate::site::glossary::gloss(words::TEXT)></div>
            </details>
            <Panel id="lab-model" title="Step it as sequential consistency">
                {lab_model.run()}
            </Panel>
            <Panel id="outcomes" title="Every outcome">
                {outcomes.run()}
            </Panel>
            <Panel id="visibility" title="Be the scheduler and the memory">
                <p class="muted">"Each location's writes in the order all threads agree on, each thread's view (▲) of how far along it has seen. Step any thread; for a load, choose which write it reads: any at or after its view. A release carries its thread's view; an acquire that reads it takes that view in."</p>
                {visibility.run()}
            </Panel>
            <Panel id="gpu" title="Your GPU">
                <GpuStatus />
                {gpu.run()}
            </Panel>
        </article>
    }
}

/// Where the outcome panels' chunk puts the scoped model's engine when it comes.
#[derive(Clone, Copy)]
struct ScopedEngineSlot(RwSignal<Option<ScopedEngine>>);

/// The counts a link carries (`results=`), for the outcome table and the GPU panel.
#[derive(Clone, Copy)]
struct SharedLink(RwSignal<Option<SharedResults>>);

/// The model player's run, for the execution graph to outline the statement it just carried out.
#[derive(Clone, Copy)]
struct LabSession(RwSignal<Session>);

/// The signals the lab's GPU half is built from.
type LabSignals =
    (Memo<Result<Arc<Analysis>, LabError>>, RwSignal<Option<Result<Compiled, String>>, LocalStorage>, GpuJob<LabRun>, Memo<LabSettings>, RwSignal<String>);

/// The lab's GPU half (see [`crate::ui::gpu_half`]): compiling the test's kernels, running
/// them, and the H100's counts; in the built site a chunk of its own.
pub fn gpu_half(part: GpuPart) -> AnyView {
    type Tested = Memo<Result<Arc<Analysis>, LabError>>;
    match part.part {
        Part::LabModel => part.view(|(analysis, session): (Tested, RwSignal<Session>)| {
            view! {
                <ModelView session=session start=MODEL_START outcome=|_| String::new() />
                <ModelOutcome analysis=analysis session=session />
            }
        }),
        Part::LabVisibility => part.view(|(analysis, watch): (Tested, RwSignal<Vec<(usize, usize)>>)| {
            view! {
                {move || analysis.get().ok().map(|a| view! { <super::scene::VisibilityScene test=a.test.clone() verdicts=super::scene::SceneVerdicts::of_rows(&a.test, &a.rows) choices=watch /> })}
            }
        }),
        Part::LabOutcomes => part.view(|(analysis, job, replay, settings): (Tested, GpuJob<LabRun>, Callback<Vec<Move>>, Memo<LabSettings>)| {
            // The scoped model's engine is referred to here only, so it comes in this chunk.
            if let Some(ScopedEngineSlot(slot)) = use_context::<ScopedEngineSlot>() {
                if slot.get_untracked().is_none() {
                    slot.set(Some(crate::model::litmus::scoped::verdicts));
                }
            }
            view! { <OutcomeTable analysis=analysis job=job replay=replay settings=settings /> }
        }),
        _ => part.view(|(analysis, compiled, job, settings, text): LabSignals| {
            warm_kernels(analysis, compiled);
            view! {
                <GpuLab analysis=analysis compiled=compiled job=job settings=settings />
                <MeasuredOnH100 text=text />
            }
        }),
    }
}

/// Compiles the kernels of the test shown as soon as the GPU is ready, and again whenever the
/// test changes, so a run finds them compiled; a compile error is shown at once.
fn warm_kernels(analysis: Memo<Result<Arc<Analysis>, LabError>>, compiled: RwSignal<Option<Result<Compiled, String>>, LocalStorage>) {
    let gpu = expect_context::<GpuHandle>();
    Effect::new(move |_| {
        let GpuState::Ready(ctx) = gpu.state.get() else { return };
        let Ok(a) = analysis.get() else {
            compiled.set(None);
            return;
        };
        compiled.set(None);
        // A test WGSL cannot say has no kernel to compile.
        if a.beyond_wgsl.is_some() {
            return;
        }
        gpu.warming.update(|n| *n += 1);
        spawn_local(async move {
            let result = compile(&ctx, a.kernels.clone()).await.map_err(|e| e.to_string());
            // Only if the test is still the one compiled: a slower compile of an older text
            // must not replace a newer one's.
            let current = analysis.try_with_untracked(|now| now.as_ref().is_ok_and(|now| now.kernels == a.kernels));
            if current == Some(true) {
                compiled.try_set(Some(result));
            }
            gpu.warming.try_update(|n| *n = n.saturating_sub(1));
        });
    });
}

#[component]
fn Editor(
    text: RwSignal<String>,
    placement: RwSignal<Placement>,
    memory: RwSignal<Space>,
    barrier: RwSignal<BarrierModifier>,
    /// Whether the test's text places its threads itself (`T0@wg0:`), which the setting then does not.
    labelled: Signal<bool>,
) -> impl IntoView {
    let preset = move || preset_of(&text.get()).unwrap_or("");
    view! {
        <div class="litmus-editor">
            <div class="gpu-form">
                <label>"Preset "
                    <select data-testid="litmus-preset" on:change=move |e| {
                        let name = event_target_value(&e);
                        if !name.is_empty() {
                            text.set(preset_text(&name));
                        }
                    }>
                        <option value="" selected=move || preset().is_empty()>"(your own)"</option>
                        <optgroup label="WGSL">
                            {PRESETS.iter().map(|(name, _)| view! {
                                <option value=*name selected=move || preset() == *name>{*name}</option>
                            }).collect_view()}
                        </optgroup>
                        <optgroup label="Beyond WGSL: CUDA's orders, scopes, fences">
                            {SCOPED_PRESETS.iter().map(|(name, _)| view! {
                                <option value=*name selected=move || preset() == *name>{*name}</option>
                            }).collect_view()}
                        </optgroup>
                    </select>
                </label>
                <label title=move || labelled.get().then_some("The test's labels (T0@wg0: …) place its threads")>"Threads "
                    <select data-testid="litmus-placement" prop:disabled=move || labelled.get() on:change=move |e| {
                        placement.set(if event_target_value(&e) == "same" { Placement::Same } else { Placement::Across });
                    }>
                        <option value="across" selected=move || placement.get() == Placement::Across>"each in its own workgroup"</option>
                        <option value="same" selected=move || placement.get() == Placement::Same>"all in one workgroup"</option>
                    </select>
                </label>
                <label>"Memory "
                    <select data-testid="litmus-memory" on:change=move |e| {
                        memory.set(if event_target_value(&e) == "workgroup" { Space::Workgroup } else { Space::Storage });
                    }>
                        <option value="storage" selected=move || memory.get() == Space::Storage>"storage buffer"</option>
                        <option value="workgroup" selected=move || memory.get() == Space::Workgroup>"workgroup memory"</option>
                    </select>
                </label>
                <label>"Barrier between accesses "
                    <select data-testid="litmus-barrier" on:change=move |e| {
                        barrier.set(match event_target_value(&e).as_str() {
                            "workgroup" => BarrierModifier::Workgroup,
                            "storage" => BarrierModifier::Storage,
                            _ => BarrierModifier::None,
                        });
                    }>
                        <option value="none" selected=move || barrier.get() == BarrierModifier::None>"none"</option>
                        <option value="workgroup" selected=move || barrier.get() == BarrierModifier::Workgroup>"workgroupBarrier()"</option>
                        <option value="storage" selected=move || barrier.get() == BarrierModifier::Storage>"storageBarrier()"</option>
                    </select>
                </label>
            </div>
            <label class="litmus-text-label" for="litmus-text">"One thread per line (or threads separated by |): stores "<code>"x = 1"</code>", loads "<code>"r0 = y"</code>", "
                <code>"r0 = atomicAdd(x, 1)"</code>", "<code>"atomicExchange"</code>", "<code>"atomicCompareExchangeWeak(x, 0, 1)"</code>", "
                <code>"workgroupBarrier()"</code>", "<code>"storageBarrier()"</code>"; statements separated by ;. "
                "Beyond WGSL, for the scoped model: "<code>"x.store(1, release, device)"</code>", "<code>"r0 = y.load(acquire, workgroup)"</code>", "
                <code>"x.store(1, plain)"</code>", "<code>"fence(acq_rel, device)"</code>", "<code>"__threadfence()"</code>", and "<code>"T0@wg0:"</code>" to place a thread."</label>
            <textarea id="litmus-text" data-testid="litmus-text" rows="5" spellcheck="false" prop:value=move || text.get()
                on:input=move |e| text.set(event_target_value(&e))></textarea>
        </div>
    }
}

/// What is wrong with the test, pointing at the place in its text.
#[component]
fn Problem(analysis: Memo<Result<Arc<Analysis>, LabError>>, text: RwSignal<String>) -> impl IntoView {
    move || {
        analysis.get().err().map(|e| {
            let pointer = e.line.and_then(|(line, column)| {
                let shown = text.with_untracked(|t| t.lines().nth(line - 1).map(str::to_owned))?;
                Some(format!("{shown}\n{}^", " ".repeat(column.saturating_sub(1))))
            });
            view! {
                <div class="notice warn" role="alert" data-testid="litmus-error"
                    data-line=e.line.map(|l| l.0) data-column=e.line.map(|l| l.1)>
                    <p>{e.to_string()}</p>
                    {pointer.map(|p| view! { <pre class="litmus-pointer">{p}</pre> })}
                </div>
            }
        })
    }
}

/// For a test WGSL cannot say: what it lacks, and the nearest test it can say, one click away.
#[component]
fn BeyondWgsl(analysis: Memo<Result<Arc<Analysis>, LabError>>, text: RwSignal<String>) -> impl IntoView {
    move || {
        let a = analysis.get().ok()?;
        let lacks = a.beyond_wgsl.clone()?;
        let nearest = super::text_of(&a.test.nearest_wgsl());
        let shown = nearest.replace('\n', " | ");
        Some(view! {
            <div class="notice" data-testid="litmus-beyond-wgsl">
                <p>{format!("WGSL cannot say this test: it has {lacks}. Its atomics are all relaxed, and it has no fences. The table gives sequential consistency's and the scoped model's verdicts; nothing runs on your GPU.")}</p>
                <p>"The nearest test WGSL can say drops the orders and the fences: "<code>{shown}</code></p>
                <button type="button" data-testid="litmus-nearest-wgsl" on:click=move |_| text.set(nearest.clone())>"Open the nearest WGSL test"</button>
            </div>
        })
    }
}

/// The generated kernels, numbered by line, with the compiler's messages under the lines they name.
#[component]
fn KernelSource(analysis: Memo<Result<Arc<Analysis>, LabError>>, compiled: RwSignal<Option<Result<Compiled, String>>, LocalStorage>) -> impl IntoView {
    let gpu = expect_context::<GpuHandle>();
    let state = move || match (gpu.context().is_some(), compiled.with(|c| c.as_ref().map(Result::is_ok))) {
        (false, _) => "no-gpu",
        (true, None) => "compiling",
        (true, Some(true)) => "ok",
        (true, Some(false)) => "error",
    };
    let messages = move || compiled.with(|c| c.as_ref().and_then(|r| r.as_ref().err().cloned())).unwrap_or_default();
    let listing = move |file: &'static str, source: String| {
        let lines = source
            .lines()
            .enumerate()
            .map(|(i, line)| {
                let n = i + 1;
                let needle = format!("{file}:{n}:");
                let said = Memo::new(move |_| messages().lines().filter(|m| m.starts_with(&needle)).map(str::to_owned).collect::<Vec<_>>());
                let said = move || said.get();
                view! {
                    <span class="code-line" class:error=move || !said().is_empty() data-line=n>
                        <span class="gutter" aria-hidden="true">{format!("{n:>3}")}</span>
                        <span class="text">{line.to_owned()}</span>
                    </span>
                    {move || said().into_iter().map(|m| view! { <span class="compile-message" role="note">{m}</span> }).collect_view()}
                }
            })
            .collect_view();
        view! {
            <figure class="code-view" data-testid=format!("kernel-{file}")>
                <figcaption><code>{file}</code></figcaption>
                <pre tabindex="0"><code>{lines}</code></pre>
            </figure>
        }
    };
    view! {
        <p class="muted" data-testid="litmus-compile" data-state=state>{move || match state() {
            "no-gpu" => "Generated from the test. Compiled once a GPU is found.".to_owned(),
            "compiling" => "Compiling with your browser's WebGPU compiler…".to_owned(),
            "ok" => "Compiled by your browser's WebGPU compiler, exactly as shown.".to_owned(),
            _ => format!("Your browser's compiler refused it:\n{}", messages()),
        }}</p>
        {move || analysis.get().ok().filter(|a| a.beyond_wgsl.is_none()).map(|a| view! {
            {listing("litmus_test.wgsl", a.kernels.test.source.clone())}
            <details>
                <summary>"The kernel that counts the outcomes"</summary>
                {listing("litmus_count.wgsl", a.kernels.count.source.clone())}
            </details>
        })}
    }
}

/// The observed counts of the run, if it ran the test now shown.
fn observed(analysis: &Result<Arc<Analysis>, LabError>, run: &Option<LabRun>) -> Option<(Vec<u64>, u64)> {
    let (Ok(a), Some(r)) = (analysis, run) else { return None };
    (a.kernels.test.source == r.source).then(|| (r.counts.counts.clone(), r.counts.unlisted))
}

/// Rows of the outcome table built at first: a test of two threads has tens of outcomes, the
/// largest thousands.
const ROWS_AT_FIRST: usize = 256;

#[component]
fn OutcomeTable(
    analysis: Memo<Result<Arc<Analysis>, LabError>>,
    job: GpuJob<LabRun>,
    replay: Callback<Vec<Move>>,
    settings: Memo<LabSettings>,
) -> impl IntoView {
    // What the H100 counted for this preset in this configuration, beside the reader's counts:
    // its report read once, not on every keystroke in the editor.
    let report = StoredValue::new(super::measured::parse_litmus_report(super::measured::H100_LITMUS));
    let h100 = Memo::new(move |_| report.with_value(|r| settings.with(|s| h100_run(r.as_ref()?, s))));
    let shared = use_context::<SharedLink>().map(|SharedLink(s)| s);
    // The row whose execution graph is drawn, by its outcome's name (kept while the same
    // outcome is in the next test's table too).
    let drawn = RwSignal::new(None::<String>);
    // Each row asks whether it is the one drawn: only the two whose answer changes wake, not
    // every row of a table that can run to thousands.
    let selected = leptos::reactive::computed::Selector::new(move || drawn.get());
    // A forbidden outcome the GPU produced is drawn at once: the graph of what was seen.
    Effect::new(move |_| {
        let Ok(a) = analysis.get() else { return };
        let seen = job.result.with(|r| observed(&Ok(Arc::clone(&a)), r));
        let Some((counts, _)) = seen else { return };
        if let Some(row) = a.rows.iter().zip(&counts).find(|(row, &c)| !row.allowed() && c > 0).map(|(row, _)| row) {
            drawn.set(Some(row.name.clone()));
        }
    });
    // Whether a long table shows every row; a new test starts short again.
    let show_every = RwSignal::new(false);
    Effect::new(move |_| {
        analysis.track();
        show_every.set(false);
    });
    let table = move || {
        let a = analysis.get().ok()?;
        let seen = job.result.with(|r| observed(&Ok(Arc::clone(&a)), r));
        let most = seen.as_ref().map_or(0, |(c, _)| c.iter().copied().max().unwrap_or(0));
        let sc_count = a.rows.iter().filter(|r| r.sc.is_some()).count();
        let allowed = a.rows.iter().filter(|r| r.allowed()).count();
        let scoped_allowed = a.rows.iter().filter(|r| r.scoped_allowed() == Some(true)).count();
        let on_h100 = if h100.with(Option::is_some) { " “Seen on an H100”: the same kernels, in this configuration, on a data-centre GPU." } else { "" };
        let scoped = if a.rows.iter().any(|r| r.scoped.is_some()) {
            format!(" {scoped_allowed} allowed by the scoped model (CUDA's, by the PTX memory model).")
        } else {
            " The scoped model did not weigh this test: too many candidate executions.".to_owned()
        };
        let caption = match a.beyond_wgsl {
            None => format!(
                "{} outcomes: {sc_count} reached by some interleaving (sequential consistency), {allowed} allowed by WGSL's memory model, {} forbidden.{scoped}{on_h100}",
                a.rows.len(),
                a.rows.len() - allowed
            ),
            Some(_) => format!(
                "{} outcomes: {sc_count} reached by some interleaving (sequential consistency), {allowed} allowed by the scoped model (CUDA's, by the PTX memory model), {} forbidden. WGSL cannot say this test.",
                a.rows.len(),
                a.rows.len() - allowed
            ),
        };
        // A long table is shown in part until the reader asks for all of it: building
        // thousands of rows at once would hold the page for a second. Rows the GPU produced
        // and the row whose graph is drawn are always shown.
        let every = show_every.get() || a.rows.len() <= ROWS_AT_FIRST;
        let picked = drawn.get_untracked();
        // The link's counts, where they are as many as this test's outcomes.
        let from_link = shared.and_then(|s| s.get());
        let mismatch = from_link.as_ref().filter(|r| r.counts.len() != a.rows.len()).map(|r| {
            let text = format!("The link carries {} counts from {}, but this test has {} outcomes: they are not shown.", r.counts.len(), r.adapter, a.rows.len());
            view! { <p class="notice warn" data-testid="litmus-linked-mismatch">{text}</p> }
        });
        let linked = from_link.filter(|r| r.counts.len() == a.rows.len());
        let rows = a
            .rows
            .iter()
            .enumerate()
            .filter_map(|(i, row)| {
                let count = seen.as_ref().map(|(c, _)| c.get(i).copied().unwrap_or(0));
                let on_h100 = h100.with(|h| h.as_ref().map(|(_, c)| c.outcomes.iter().find(|o| o.outcome == row.name).map_or(0, |o| o.count)));
                let linked = linked.as_ref().map(|r| r.counts[i]);
                let shown = every
                    || i < ROWS_AT_FIRST
                    || count.is_some_and(|c| c > 0)
                    || on_h100.is_some_and(|c| c > 0)
                    || linked.is_some_and(|c| c > 0)
                    || picked.as_ref() == Some(&row.name);
                shown.then(|| outcome_row(&a.test, row, Counts { yours: count, most, h100: on_h100, linked }, replay, drawn, selected.clone()))
            })
            .collect_view();
        let left = (!every).then(|| {
            let all = a.rows.len();
            view! {
                <button type="button" class="show-all" data-testid="litmus-show-every" on:click=move |_| show_every.set(true)>
                    {format!("Show all {all} outcomes (the first {ROWS_AT_FIRST} are shown, and every one your GPU produced)")}
                </button>
            }
        });
        let linked_head = linked.as_ref().map(|r| {
            let title = format!("Counts put in the link by a reader whose GPU is {}", r.adapter);
            view! { <th scope="col" title=title data-testid="litmus-linked-column">{format!("observed on {} (from the link)", r.adapter)}</th> }
        });
        let h100_head = h100.with(|h| {
            h.as_ref().map(|(adapter, c)| {
                let title = format!(
                    "The same kernels in this configuration ({}) on an {adapter}, natively over Vulkan: {} instances",
                    c.configuration(),
                    c.instances
                );
                view! { <th scope="col" title=title data-testid="litmus-h100-column">"seen on an H100"</th> }
            })
        });
        Some(view! {
            <div class="returned-wrap">
                <table class="returned litmus-outcomes" data-testid="litmus-outcomes" data-verdict-ms=format!("{:.2}", Float(a.verdict_ms)) data-scoped-ms=format!("{:.2}", Float(a.scoped_ms))>
                    <caption>{caption}</caption>
                    <thead><tr>
                        <th scope="col">"outcome"</th>
                        <th scope="col">"sequential consistency"</th>
                        <th scope="col">"WGSL"</th>
                        <th scope="col" title="CUDA's promise, by the PTX memory model: orders, scopes, fences">"scoped (CUDA)"</th>
                        <th scope="col">"why"</th>
                        <th scope="col">"seen on your GPU"</th>
                        {h100_head}
                        {linked_head}
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            {left}
            {mismatch}
        })
    };
    view! {
        {table}
        <ExecutionGraph analysis=analysis drawn=drawn job=job />
    }
}

/// The execution graph of the row the reader picked: the events, the relations between them,
/// the cycle the verdict rests on lit, and the same said in words.
#[component]
fn ExecutionGraph(analysis: Memo<Result<Arc<Analysis>, LabError>>, drawn: RwSignal<Option<String>>, job: GpuJob<LabRun>) -> impl IntoView {
    // The statement the model player carried out last, if it is on one.
    let owner = Memo::new(move |_| analysis.with(|a| a.as_ref().ok().map(|a| LabModel::of(&a.test).owner)).unwrap_or_default());
    let session = use_context::<LabSession>();
    let now = Memo::new(move |_| {
        let LabSession(session) = session?;
        let pc = session.with(|s| s.last_events().first().map(|e| e.pc))?;
        owner.with(|o| o.get(pc).copied().flatten())
    });
    move || {
        let a = analysis.get().ok()?;
        let name = drawn.get()?;
        let index = a.rows.iter().position(|r| r.name == name)?;
        let row = &a.rows[index];
        let seen = job.result.with(|r| observed(&Ok(Arc::clone(&a)), r)).and_then(|(counts, _)| counts.get(index).copied()).filter(|&c| c > 0);
        let w = why(&a.test, row);
        let verdict = match (row.allowed(), row.sc.is_some()) {
            (true, true) => "allowed: an interleaving reaches it",
            (true, false) => "allowed, and weak: no interleaving reaches it",
            (false, _) => "forbidden",
        };
        let label = format!("Execution graph of {name}, {verdict}. {}", w.sentence);
        let start = now_ms();
        let drawing = graph::draw(&a.test, w.execution.as_ref(), &w.cycle, now.get_untracked(), &label);
        let draw_ms = now_ms() - start;
        // A step of the model player draws the graph again with its statement outlined; the
        // verdict's reasons above are not worked out again.
        let (test, execution, cycle) = (Arc::clone(&a), w.execution.clone(), w.cycle.clone());
        let first = std::cell::Cell::new(Some(drawing.svg));
        let svg = move || {
            now.track();
            first.take().unwrap_or_else(|| graph::draw(&test.test, execution.as_ref(), &cycle, now.get_untracked(), &label).svg)
        };
        let edges = drawing
            .edges
            .iter()
            .map(|e| {
                let (from, to) = (describe_move(&a.test, e.from), describe_move(&a.test, e.to));
                let text = format!("{from} → {to}: {}{}", e.relation.name(), if e.lit { ", in the cycle" } else { "" });
                view! { <li>{text}</li> }
            })
            .collect_view();
        let kind = if !row.allowed() { "forbidden" } else if row.sc.is_some() { "sc" } else { "weak" };
        Some(view! {
            <figure class=format!("exec-graph-figure {kind}") data-testid="litmus-graph" data-outcome=name.clone() data-draw-ms=format!("{draw_ms:.2}", draw_ms = Float(draw_ms))>
                <style>{graph::STYLE}</style>
                <figcaption><strong>{name.clone()}</strong>{format!(": {verdict}")}</figcaption>
                <div class="exec-graph-wrap" inner_html=svg></div>
                <p class="graph-legend" aria-hidden="true">
                    <span class="g-key g-po">"po"</span>" program order · "
                    <span class="g-key g-rf">"rf"</span>" reads-from · "
                    <span class="g-key g-co">"co"</span>" coherence · "
                    <span class="g-key g-fr">"fr"</span>" from-read · "
                    <span class="g-key g-barrier">"barrier"</span>" happens-before through a barrier · "
                    <span class="g-key g-sync">"sync"</span>" synchronises-with (scoped model); thick: the cycle or the synchronisation; outlined: the statement the model player carried out last"
                </p>
                {a.test.beyond_wgsl().is_some().then(|| view! {
                    <p class="graph-legend" data-testid="litmus-graph-modes">
                        "Under each access, its order and scope: "
                        <span class="g-key">"rlx"</span>" relaxed · "<span class="g-key">"acq"</span>" acquire · "
                        <span class="g-key">"rel"</span>" release · "<span class="g-key">"acq_rel"</span>" · "
                        <span class="g-key">"sc"</span>" seq_cst · "<span class="g-key">"plain"</span>" not atomic; "
                        <span class="g-key">"wg"</span>" workgroup · "<span class="g-key">"dev"</span>" device · "
                        <span class="g-key">"sys"</span>" system."
                    </p>
                })}
                <p class="graph-why" data-testid="litmus-graph-why" inner_html=crate::site::glossary::gloss(&crate::text::escape(&w.sentence))></p>
                {seen.map(|count| if row.allowed() {
                    view! { <p data-testid="litmus-graph-seen">{format!("Your GPU ended {count} instance(s) this way.")}</p> }.into_any()
                } else {
                    view! {
                        <p class="verdict bad" data-testid="litmus-graph-alarm">
                            {format!("Your GPU ended {count} instance(s) this way, which WGSL forbids: the graph is of such an execution, and the cycle is why none may happen. ")}
                            "The verdict rests on WGSL's memory model as this lab reads it, checked against a second, independent reading on thousands of random tests, against the WebGPU conformance tests and against the Vulkan memory model's own tests. If it holds, this is a bug in the GPU, its driver or the compiler: the GPU panel's download has the run's details to report it."
                        </p>
                    }.into_any()
                })}
                <details>
                    <summary>"The graph as a list"</summary>
                    <ul class="graph-edges">{edges}</ul>
                </details>
            </figure>
        })
    }
}


/// A row's counts: the reader's GPU's (once run), the most any row has, and the H100's where
/// its report ran this preset in this configuration.
struct Counts {
    yours: Option<u64>,
    most: u64,
    h100: Option<u64>,
    /// From the link (`results=`).
    linked: Option<u64>,
}

/// The H100's run of the preset shown in the configuration chosen, and the GPU's name.
fn h100_run((adapter, configs): &(String, Vec<super::measured::MeasuredConfig>), settings: &LabSettings) -> Option<(String, super::measured::MeasuredConfig)> {
    let preset = preset_of(&settings.text)?;
    let config = configs.iter().find(|c| {
        c.preset == preset
            && c.placement == super::placement_name(settings.placement)
            && c.memory == super::memory_name(settings.memory)
            && c.barrier == settings.barrier.name()
    })?;
    Some((adapter.clone(), config.clone()))
}

fn outcome_row(
    test: &LitmusTest,
    row: &Row,
    Counts { yours: count, most, h100, linked }: Counts,
    replay: Callback<Vec<Move>>,
    drawn: RwSignal<Option<String>>,
    selected: leptos::reactive::computed::Selector<Option<String>>,
) -> impl IntoView {
    let sc = row.sc.as_ref().map(|moves| {
        // The interleaving's steps are written out when the reader opens them, not for every
        // row of the table up front.
        let opened = RwSignal::new(false);
        let steps = {
            let (test, moves) = (test.clone(), moves.clone());
            move || opened.get().then(|| moves.iter().map(|m| view! { <li>{describe_move(&test, *m)}</li> }).collect_view())
        };
        let moves = moves.clone();
        view! {
            <details on:toggle=move |_| opened.set(true)>
                <summary>"yes"</summary>
                <ol class="interleaving">{steps}</ol>
                <button class="small" data-testid="litmus-replay" on:click=move |_| replay.run(moves.clone())>"Step through it in the model"</button>
            </details>
        }
    });
    let verdict = match &row.wgsl {
        Wgsl::Allowed(_) => "allowed",
        Wgsl::Forbidden(_) => "forbidden",
        Wgsl::Inexpressible => "inexpressible",
    };
    let scoped = match &row.scoped {
        Some(Scoped::Allowed(_)) => "allowed",
        Some(Scoped::Forbidden(_)) => "forbidden",
        None => "unweighed",
    };
    // Where WGSL speaks, the scoped model's reason for a verdict it does not share with WGSL.
    let scoped_why = match (&row.wgsl, &row.scoped) {
        (Wgsl::Allowed(_), Some(Scoped::Forbidden(r))) => Some(r.why.clone()),
        _ => None,
    };
    let scoped_kind = match (row.scoped_allowed(), row.sc.is_some()) {
        (Some(true), true) => "sc",
        (Some(true), false) => "weak",
        (Some(false), _) => "forbidden",
        (None, _) => "unweighed",
    };
    let why = why(test, row).sentence;
    let name = row.name.clone();
    let showing = {
        let name = Some(name.clone());
        move || selected.selected(&name)
    };
    let draw = {
        let name = name.clone();
        move |_| {
            drawn.set(Some(name.clone()));
            // Bring the graph into view once it is drawn, unless it already is.
            request_animation_frame(|| {
                let Some(window) = web_sys::window() else { return };
                let figure = window.document().and_then(|d| d.query_selector("[data-testid=litmus-graph]").ok().flatten());
                let height = window.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
                if let Some(figure) = figure {
                    let rect = figure.get_bounding_client_rect();
                    if rect.top() < 0.0 || rect.bottom() > height {
                        figure.scroll_into_view_with_bool(true);
                    }
                }
            });
        }
    };
    let alarm = !row.allowed() && count.is_some_and(|c| c > 0);
    let kind = match (row.allowed(), row.sc.is_some()) {
        (true, true) => "sc",
        (true, false) => "weak",
        (false, _) => "forbidden",
    };
    // Log scale, as counts run from 0 to millions: a bar's length is log(1 + count).
    let width = count.map(|c| if most == 0 { 0.0 } else { 100.0 * (c as f64).ln_1p() / (most as f64).ln_1p() });
    view! {
        <tr class=format!("outcome {kind}") class:alarm=alarm data-outcome=row.name.clone()
            data-sc=if row.sc.is_some() { "yes" } else { "no" } data-wgsl=verdict data-scoped=scoped data-observed=count.map(|c| c.to_string())>
            <th scope="row"><code>{row.name.clone()}</code></th>
            <td>{sc.map_or_else(|| view! { <span>"no"</span> }.into_any(), IntoAny::into_any)}</td>
            <td>{if matches!(row.wgsl, Wgsl::Inexpressible) {
                view! { <span class="muted" title="WGSL cannot say this test">"—"</span> }.into_any()
            } else {
                view! { <span class=format!("verdict-tag {kind}")>{verdict}</span> }.into_any()
            }}</td>
            <td class="scoped"><span class=format!("verdict-tag {scoped_kind}")>{scoped}</span>
                {scoped_why.map(|w| view! { <span class="scoped-why">{w}</span> })}</td>
            <td class="why">
                <span inner_html=crate::site::glossary::gloss(&crate::text::escape(&why))></span>" "
                <button class="small" data-testid=format!("litmus-why-{name}") aria-pressed=move || showing().to_string() on:click=draw>"graph"</button>
            </td>
            <td class="observed">{count.map(|c| view! {
                <span class="bar-track" aria-hidden="true"><span class=format!("bar {kind}") style=format!("width: {:.1}%", Float(width.unwrap_or(0.0)))></span></span>
                <span class="count">{c.to_string()}</span>
            })}</td>
            {h100.map(|c| view! { <td class="observed h100" data-testid="litmus-h100-count">{c.to_string()}</td> })}
            {linked.map(|c| view! { <td class="observed linked" data-testid="litmus-linked-count">{c.to_string()}</td> })}
        </tr>
    }
}

fn per_second(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2} M", Float(x / 1e6))
    } else if x >= 1e3 {
        format!("{:.1} k", Float(x / 1e3))
    } else {
        format!("{x:.0}", x = Float(x))
    }
}

#[component]
fn GpuLab(
    analysis: Memo<Result<Arc<Analysis>, LabError>>,
    compiled: RwSignal<Option<Result<Compiled, String>>, LocalStorage>,
    job: GpuJob<LabRun>,
    settings: Memo<LabSettings>,
) -> impl IntoView {
    let dispatches = RwSignal::new(10u32);
    let run_it = Callback::new(move |()| {
        let Ok(a) = analysis.get_untracked() else { return };
        let dispatches = dispatches.get_untracked();
        let ready = compiled.get_untracked().and_then(Result::ok).filter(|c| c.kernels == a.kernels);
        job.start_fixed(move |ctx| async move {
            let compiled = match ready {
                Some(c) => c,
                None => compile(&ctx, a.kernels.clone()).await?,
            };
            let seed = (now_ms() * 1e3) as u64;
            // One dispatch first, shown at once: the counts of a whole batch take a few
            // dispatches' time, and more than a reader waits for a click where the GPU is slow.
            if dispatches > 1 {
                let first = run(&ctx, &a.test, &compiled, INSTANCES, 1, seed ^ 0x9E37_79B9, now_ms).await?;
                job.show_first(LabRun { adapter: ctx.adapter.clone(), source: a.kernels.test.source.clone(), counts: first });
            }
            let counts = run(&ctx, &a.test, &compiled, INSTANCES, dispatches, seed, now_ms).await?;
            Ok(LabRun { adapter: ctx.adapter.clone(), source: a.kernels.test.source.clone(), counts })
        })
    });
    let report = move || {
        let a = analysis.get().ok()?;
        let r = job.result.get()?;
        // Set with the result, before it: read once, when the result changes.
        let partial = job.partial.get_untracked();
        (r.source == a.kernels.test.source).then(|| {
            let forbidden: Vec<String> = a
                .rows
                .iter()
                .zip(&r.counts.counts)
                .filter(|(row, &c)| !row.allowed() && c > 0)
                .map(|(row, c)| format!("{} ({c}×)", row.name))
                .collect();
            let weak: u64 = a.rows.iter().zip(&r.counts.counts).filter(|(row, _)| row.allowed() && row.sc.is_none()).map(|(_, c)| c).sum();
            let counted: u64 = r.counts.counts.iter().sum::<u64>() + r.counts.unlisted;
            let bad = !forbidden.is_empty() || r.counts.unlisted > 0 || counted != r.counts.instances();
            // The counts into the link, for another reader to set beside theirs.
            let share = use_context::<SharedLink>().filter(|_| !partial && r.counts.counts.len() <= MAX_SHARED_COUNTS).map(|SharedLink(shared)| {
                let run = SharedResults { adapter: r.adapter.name.clone(), counts: r.counts.counts.clone() };
                view! {
                    <p>
                        <button type="button" data-testid="litmus-share" on:click=move |_| shared.set(Some(run.clone()))>"Put these counts in the link"</button>
                        " Then “Copy link” at the top: whoever opens it sees them beside their own GPU's."
                    </p>
                }
            });
            let export = {
                let (a, r, s) = (Arc::clone(&a), r.clone(), settings.get_untracked());
                move || {
                    let json = export(&s, &a.test, &a.rows, Some((&r.adapter, &r.counts)));
                    ("syncscope-litmus.json".to_owned(), json.to_pretty())
                }
            };
            let summary = format!(
                "{} instances ({} per dispatch × {} dispatches, {} workgroups of {WORKGROUP_SIZE}, waits of at most {} loads) on {}: {} counted, {weak} weak (allowed, not sequentially consistent). {} instances per second.",
                r.counts.instances(),
                r.counts.shape.instances,
                r.counts.dispatches,
                r.counts.shape.workgroups,
                r.counts.spin_limit,
                r.adapter.name,
                counted,
                per_second(r.counts.per_second())
            );
            view! {
                <div class="run-report" data-testid="gpu-report" data-partial=partial.to_string() data-rate=format!("{:.0}", Float(r.counts.per_second())) data-weak=weak.to_string()>
                    <p data-testid="litmus-summary">{summary}</p>
                    {partial.then(|| view! {
                        <p class="notice" data-testid="gpu-first-look">"A first look: one dispatch, read back while the whole batch runs."</p>
                    })}
                    {bad.then(|| view! {
                        <div class="notice alarm" role="alert" data-testid="litmus-alarm">
                            <p><strong>"Forbidden behaviour observed."</strong>{format!(
                                " {}{}{} WGSL's memory model forbids this for every GPU: it is a bug in this GPU, its driver or the browser's compiler. Download the run's details below and report them.",
                                if forbidden.is_empty() { String::new() } else { format!("Outcomes: {}.", forbidden.join(", ")) },
                                if r.counts.unlisted > 0 { format!(" {} instances ended with values no outcome lists.", r.counts.unlisted) } else { String::new() },
                                if counted != r.counts.instances() { format!(" {counted} instances counted of {}.", r.counts.instances()) } else { String::new() },
                            )}</p>
                        </div>
                    })}
                    {(!bad && !partial).then(|| view! {
                        <p class="verdict ok" data-testid="gpu-verdict">"Every instance counted once, and nothing the memory model forbids."</p>
                    })}
                    <DownloadJson make=Box::new(export) test_id="gpu-download" />
                    {share}
                </div>
            }
        })
    };
    view! {
        <p class="muted">{format!(
            "Each dispatch runs at least {INSTANCES} instances of the test at once, each on locations of its own, and the second kernel counts how each ended; the counts are read back once, after every dispatch."
        )}</p>
        {move || {
            let beyond = analysis.with(|a| a.as_ref().ok().and_then(|a| a.beyond_wgsl.clone()));
            match beyond {
                Some(lacks) => view! {
                    <p class="notice" data-testid="litmus-gpu-beyond-wgsl">{format!("Nothing to run: WGSL cannot say this test ({lacks}). Open the nearest WGSL test, under the editor, to run it on your GPU.")}</p>
                }.into_any(),
                None => view! {
                    <div class="gpu-form">
                        <NumberChoice label="Dispatches" choices=&DISPATCH_CHOICES value=dispatches test_id="litmus-dispatches" />
                    </div>
                    <RunForm job=job on_run=run_it />
                }.into_any(),
            }
        }}
        {report}
    }
}

/// What a data-centre GPU counted for the preset shown, in every configuration the report ran
/// it in, from `data/h100-litmus.json`. The frame stays while the reader changes preset (so an
/// opened one stays open); only its table follows the text.
#[component]
fn MeasuredOnH100(text: RwSignal<String>) -> impl IntoView {
    measured_on_h100(text)
}

fn measured_on_h100(text: RwSignal<String>) -> Option<impl IntoView> {
    use super::measured::{parse_litmus_report, Observed, H100_LITMUS};
    use crate::ui::measured::MeasuredDetails;
    use crate::ui::table::TextTable;
    let (adapter, configs) = parse_litmus_report(H100_LITMUS)?;
    let gpu = adapter.clone();
    let listed = |outcomes: &[Observed], pick: fn(&Observed) -> bool| {
        let seen: Vec<String> = outcomes.iter().filter(|o| pick(o) && o.count > 0).map(|o| format!("{}: {}", o.outcome, o.count)).collect();
        if seen.is_empty() {
            "none".to_owned()
        } else {
            seen.join(", ")
        }
    };
    let table = move || {
        let Some(preset) = preset_of(&text.get()) else {
            return view! { <p class="muted">"Your own test: the figures there are for the presets."</p> }.into_any();
        };
        let rows: Vec<Vec<String>> = configs
            .iter()
            .filter(|c| c.preset == preset)
            .map(|c| {
                let mut forbidden = listed(&c.outcomes, |o| !o.allowed);
                if c.unlisted > 0 {
                    forbidden = format!("{forbidden}; {} unlisted", c.unlisted);
                }
                vec![
                    c.configuration(),
                    format!("{} ({} × {})", c.instances, c.dispatches, c.instances_per_dispatch),
                    per_second(c.per_second),
                    listed(&c.outcomes, Observed::weak),
                    forbidden,
                ]
            })
            .collect();
        let headers = ["configuration", "instances", "per second", "weak outcomes seen", "forbidden seen"].map(str::to_owned).to_vec();
        view! {
            <TextTable headers=headers rows=rows test_id="litmus-h100" caption=format!("{preset} on the {gpu}") />
        }
        .into_any()
    };
    Some(view! {
        <MeasuredDetails adapter=adapter.clone()>
            {table}
            <p class="muted">"The same kernels, run natively on that GPU. Each configuration as the lab runs it (at least 65,536 instances per dispatch, placement, memory, barrier), about ten million instances each; weak: allowed by WGSL, reached by no interleaving."</p>
        </MeasuredDetails>
    })
}

const MODEL_START: &str =
    "Every thread waits for you: click the lane of the thread that moves next (or keys 1–4), or open an interleaving in the table below and step through it.";

/// An empty program, for the moment before the first test is read.
fn empty_program() -> crate::model::Program {
    crate::model::Program { lines: Vec::new(), memory_names: Vec::new(), register_names: Vec::new(), grids: Vec::new(), workgroup: &[], floats: &[], packed: &[], masks: &[], mask_lanes: 0, spans: Vec::new(), lowered: None }
}

/// Where the model's run ended, and what both models say of that outcome.
#[component]
fn ModelOutcome(analysis: Memo<Result<Arc<Analysis>, LabError>>, session: RwSignal<Session>) -> impl IntoView {
    move || {
        let a = analysis.get().ok()?;
        let (finished, name) = session.with(|s| (s.is_finished(), LabModel::outcome(&a.test, s.current())));
        let row = a.rows.iter().find(|r| r.name == name);
        // The stepped model's barrier holds every thread: with some threads together and some
        // apart, it leaves the barriers out (the verdicts above keep them).
        let barriers_left_out = a.test.placement == crate::model::litmus::Placement::Mixed && a.test.threads.iter().flatten().any(|op| matches!(op, crate::model::litmus::Op::Barrier(_)));
        Some(view! {
            {barriers_left_out.then(|| view! { <p class="notice" data-testid="lab-model-no-barriers">"This player steps the threads without their barriers: it holds every thread at a barrier, and here only some share a workgroup. The table's verdicts, and the scene below, keep them."</p> })}
            <p class="outcome" data-testid="lab-model-outcome" data-outcome=finished.then(|| name.clone())>{
                if finished {
                    let allowed = row.is_some_and(Row::allowed);
                    let also = match row.map(|r| &r.wgsl) {
                        Some(Wgsl::Inexpressible) if allowed => ", and so does the scoped model",
                        Some(Wgsl::Inexpressible) => "",
                        _ if allowed => ", and so does WGSL",
                        _ => "",
                    };
                    format!("Finished: {name}. Reached by this interleaving, so sequential consistency allows it{also}.")
                } else {
                    String::new()
                }
            }</p>
        })
    }
}
