//! The playground's page: the reader's kernel in a text area, what naga and the browser's own
//! compiler say of it, what one run to the end found, the model stepping it beside its lines,
//! and the GPU running it.
//!
//! Its link carries the kernel (`wgsl`), the workgroups, each buffer's fill (`buffers`,
//! `name=fill;…`), the elements of runtime-sized arrays, the schedule and the step; `embed=1`
//! works as on every page.

use super::gpu::{Outcomes, MAX_RUNS};
use super::{kernels, open, words, Analysis, Choices, Fill, Kind, Opened, Reachable, Refusal, MAX_ELEMENTS, MAX_INVOCATIONS, MAX_WORKGROUPS, SAMPLES};
use crate::model::{Machine, Schedule, Session};
use crate::site::param::in_range;
use crate::ui::code_view::CodeView;
use crate::ui::gpu::GpuStatus;
use crate::ui::gpu_form::{GpuJob, LinkProblems, RunForm};
use crate::ui::gpu_half::{gpu_half, GpuPart, Part};
use crate::ui::model_panel::ModelView;
use crate::ui::panel::Panel;
use crate::ui::permalink::{self, CopyLink};
use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use std::collections::BTreeMap;

/// Quiet time after a keystroke before the kernel is read again.
const SETTLE_MS: u32 = 250;

/// Where the page stands with the reader's text.
#[derive(Clone)]
enum Reading {
    /// Not read yet (the first reading is under way).
    Waiting,
    Refused(Refusal),
    Read { opened: Opened, analysis: Analysis },
}

/// Work for one slice of the search for final memories (see [`Search::advance`]): a few
/// milliseconds, after which the browser may draw and take input.
const SLICE: usize = 50_000;

/// What the link asks for, and a message for each part of it refused.
struct Asked {
    source: String,
    choices: Choices,
    schedule: Schedule,
    step: usize,
    /// Steps chosen by hand (or an outcome's order), the threads of each tick.
    ticks: Vec<Vec<usize>>,
    problems: Vec<String>,
}

/// A value of the page's link, in its query or after its `#` (where a long kernel travels).
fn link_value(name: &str) -> Option<String> {
    crate::site::query::get_or_after_hash(name)
}

fn read_link() -> Asked {
    let mut problems = Vec::new();
    let mut choices = Choices::default();
    let source = link_value("wgsl").unwrap_or_else(|| kernels::STARTER.source().to_owned());
    if let Some(v) = link_value("workgroups") {
        match in_range("workgroups", &v, 1..=u64::from(MAX_WORKGROUPS)) {
            Ok(n) => choices.workgroups = Some(n as u32),
            Err(e) => problems.push(e),
        }
    }
    if let Some(v) = link_value("elements") {
        match in_range("elements", &v, 1..=u64::from(MAX_ELEMENTS)) {
            Ok(n) => choices.elements = Some(n as u32),
            Err(e) => problems.push(e),
        }
    }
    if let Some(v) = link_value("buffers") {
        for pair in v.split(';').filter(|p| !p.trim().is_empty()) {
            let Some((name, fill)) = pair.split_once('=') else {
                problems.push(format!("buffers: \"{pair}\" is not name=fill"));
                continue;
            };
            match Fill::parse(fill) {
                Ok(fill) => choices.fills.push((name.trim().to_owned(), fill)),
                Err(e) => problems.push(format!("buffers: {}: {e}", name.trim())),
            }
        }
    }
    let seed = link_value("seed").and_then(|s| s.parse().ok()).unwrap_or(1);
    let schedule = match link_value("schedule") {
        Some(name) => Schedule::from_name(&name, seed).unwrap_or_else(|| {
            problems.push(format!("schedule: \"{name}\" is none of {}", Schedule::NAMES.join(", ")));
            Schedule::RoundRobin
        }),
        None => Schedule::RoundRobin,
    };
    let step = match link_value("step").map(|v| in_range("step", &v, 0..=u64::from(u32::MAX))) {
        Some(Ok(n)) => n as usize,
        Some(Err(e)) => {
            problems.push(e);
            0
        }
        None => 0,
    };
    let ticks = match link_value("ticks").map(|v| crate::site::permalink::parse_ticks(&v, MAX_INVOCATIONS as usize)) {
        Some(Ok(t)) => t,
        Some(Err(e)) => {
            problems.push(e);
            Vec::new()
        }
        None => Vec::new(),
    };
    Asked { source, choices, schedule, step, ticks, problems }
}

/// The pairs of the page's link for this state.
fn link_pairs(source: &str, choices: &Choices, schedule: Schedule, step: usize, ticks: &[Vec<usize>]) -> Vec<(&'static str, String)> {
    let mut pairs = Vec::new();
    if source != kernels::STARTER.source() {
        pairs.push(("wgsl", source.to_owned()));
    }
    if let Some(n) = choices.workgroups {
        pairs.push(("workgroups", n.to_string()));
    }
    if let Some(n) = choices.elements {
        pairs.push(("elements", n.to_string()));
    }
    if !choices.fills.is_empty() {
        pairs.push(("buffers", choices.fills.iter().map(|(n, f)| format!("{n}={}", f.text())).collect::<Vec<_>>().join(";")));
    }
    if schedule != Schedule::RoundRobin {
        pairs.push(("schedule", schedule.name().to_owned()));
        if let Schedule::Random { seed } = schedule {
            pairs.push(("seed", seed.to_string()));
        }
    }
    if step > 0 {
        pairs.push(("step", step.to_string()));
    }
    if !ticks.is_empty() {
        pairs.push(("ticks", crate::site::permalink::format_ticks(ticks)));
    }
    pairs
}

/// A session of `model` that takes `ticks` first (ticks it cannot take are dropped), under
/// `schedule` from there.
fn session_with(model: Machine, schedule: Schedule, ticks: &[Vec<usize>]) -> Session {
    let mut s = Session::new(model, schedule);
    for tick in ticks {
        if s.take_tick(tick).is_err() {
            break;
        }
    }
    s.seek(0);
    s
}

/// An empty model, while there is no kernel to step.
fn nothing() -> Machine {
    crate::model::kernel::empty()
}

#[component]
pub fn Playground() -> impl IntoView {
    let Asked { source: asked_source, choices: asked, schedule: asked_schedule, step: asked_step, ticks: asked_ticks, problems } = read_link();
    let source = RwSignal::new(asked_source);
    let workgroups = RwSignal::new(asked.workgroups);
    let elements = RwSignal::new(asked.elements);
    let fills = RwSignal::new(asked.fills);
    let schedule = RwSignal::new(asked_schedule);
    let reading = RwSignal::new(Reading::Waiting);
    // The final memories the model can reach, once the search for them is over.
    let reached = RwSignal::new(None::<Reachable>);
    // Which reading is the latest: a search for an older one stops.
    let reading_count = StoredValue::new(0u64);
    let session = RwSignal::new(Session::new(nothing(), asked_schedule));
    // A finding's lanes, named in the scene at the step that made it, for as long as the run
    // shown is the one that found it: the session's ticks unchanged since (its revision).
    let notes = RwSignal::new(None::<(u64, usize, Vec<(usize, String)>)>);
    let lane_notes = RwSignal::new(Vec::new());
    provide_context(crate::ui::scene::LaneNotes(lane_notes));
    Effect::new(move |_| {
        let (shown, same_run) = notes.with(|n| match n {
            Some((revision, at, lanes)) => session.with(|s| {
                let same = s.revision() == *revision;
                (if same && s.cursor() == *at { lanes.clone() } else { Vec::new() }, same)
            }),
            None => (Vec::new(), true),
        });
        if !same_run {
            notes.set(None);
        }
        if lane_notes.with_untracked(|now| *now != shown) {
            lane_notes.set(shown);
        }
    });
    // The step the link asks for, taken once the kernel is first read.
    let step_asked = StoredValue::new(Some((asked_step, asked_ticks)));

    // The kernel read again once the reader pauses: lowered, laid out, run once to its end, and
    // a new model of it started.
    let pending = StoredValue::new_local(None::<Timeout>);
    Effect::new(move |_| {
        let text = source.get();
        let choices = Choices { workgroups: workgroups.get(), elements: elements.get(), fills: fills.get(), ..Choices::default() };
        let first = matches!(reading.get_untracked(), Reading::Waiting);
        let read_it = move || {
            let read = open(&text, &choices).and_then(|opened| {
                let (analysis, model, search) = super::read(&opened)?;
                Ok((opened, analysis, model, search))
            });
            let generation = reading_count.get_value() + 1;
            reading_count.set_value(generation);
            reached.set(None);
            match read {
                Ok((opened, analysis, model, mut search)) => {
                    let (step, ticks) = step_asked.try_update_value(Option::take).flatten().unwrap_or_default();
                    let mut s = session_with(model, schedule.get_untracked(), &ticks);
                    s.seek(step);
                    session.set(s);
                    reading.set(Reading::Read { opened, analysis });
                    // The final memories, a slice at a time; given up once the text changes.
                    leptos::task::spawn_local(async move {
                        loop {
                            if reading_count.try_get_value() != Some(generation) {
                                return;
                            }
                            if let Some(found) = search.advance(SLICE) {
                                reached.set(Some(found));
                                return;
                            }
                            gloo_timers::future::TimeoutFuture::new(0).await;
                        }
                    });
                }
                Err(refusal) => {
                    session.set(Session::new(nothing(), schedule.get_untracked()));
                    reading.set(Reading::Refused(refusal));
                }
            }
        };
        // The link's kernel is read at once; the reader's edits once they pause.
        if first {
            pending.set_value(None);
            read_it();
        } else {
            pending.set_value(Some(Timeout::new(SETTLE_MS, read_it)));
        }
    });
    permalink::follow_long("playground", move || {
        let choices = Choices { workgroups: workgroups.get(), elements: elements.get(), fills: fills.get(), ..Choices::default() };
        let (step, ticks) = session.with(|s| (s.cursor(), s.chosen_ticks()));
        source.with(|s| link_pairs(s, &choices, schedule.get(), step, &ticks))
    });
    crate::ui::gpu_half::want_when_near(".gpu-panel");
    // The browser's compiler is the second opinion beside naga's: asked for once the reader
    // edits the kernel or asks (the GPU half, and the GPU, come then), never as the page opens.
    let (gpu_wanted, want_gpu) = crate::ui::gpu_half::wanted();
    Effect::new(move |edited: Option<bool>| {
        source.track();
        if edited.is_some() {
            want_gpu.run(());
        }
        true
    });

    let opened = Memo::new(move |_| match reading.get() {
        Reading::Read { opened, .. } => Some(opened),
        _ => None,
    });
    // The model found no end to it: a GPU may spin on it until the browser gives up.
    let unending = Memo::new(move |_| match reading.get() {
        Reading::Read { analysis, .. } => analysis.unfinished.is_some() || analysis.count(Kind::Spin) > 0,
        _ => false,
    });
    let stepped_source = Signal::derive(move || opened.with(|o| o.as_ref().map_or("", |o| o.source)));
    let marks = Memo::new(move |_| {
        let source = stepped_source.get();
        session.with(|s| {
            let m = s.current();
            let mut lines: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
            for (t, th) in m.threads.iter().enumerate() {
                if let Some(line) = m.program().source_line(th.pc, source) {
                    lines.entry(line).or_default().push(t);
                }
            }
            lines.into_iter().collect::<Vec<_>>()
        })
    });
    let editor = NodeRef::<leptos::html::Textarea>::new();
    // An order of steps put in the model by hand, stood at its `at`-th step: where a finding was
    // made, or the end of an order that reaches an outcome.
    // Its lanes' notes (a finding's two invocations) show while the run stands at that step.
    let show_order = Callback::new(move |(order, at, lane_notes): OrderToShow| {
        schedule.set(Schedule::Manual);
        session.update(|s| {
            let ticks: Vec<Vec<usize>> = order.iter().map(|&i| vec![i as usize]).collect();
            *s = session_with(s.start().clone(), Schedule::Manual, &ticks);
            s.seek(at);
        });
        notes.set((!lane_notes.is_empty()).then(|| (session.with_untracked(Session::revision), at, lane_notes)));
    });

    view! {
        <article class="lesson playground">
            <h1>"Your own kernel"</h1>
            <LinkProblems problems=problems />
            <div class="prose lead" data-testid="lead" inner_html=crate::site::glossary::gloss(words::LEAD)></div>
            <div class="lesson-bar"><span></span><CopyLink /></div>
            <Panel id="editor" title="The kernel">
                <Editor source=source editor=editor reading=reading />
                <Sizes workgroups=workgroups elements=elements opened=opened />
                <BufferFills reading=reading fills=fills />
                <div class="lesson-grid">
                    <NagaVerdict reading=reading />
                    <Show when=move || !gpu_wanted.get()>
                        <p class="muted" data-testid="browser-pending">
                            "The browser's compiler has its say once the GPU is up. "
                            <button type="button" data-testid="ask-browser" on:click=move |_| want_gpu.run(())>"Ask it now"</button>
                        </p>
                    </Show>
                    {gpu_half!(Part::After, opened).run()}
                </div>
                <Verdicts reading=reading editor=editor show_order=show_order />
            </Panel>
            <div class="lesson-grid">
                <Panel id="model" title="The model">
                    <ScheduleChoice schedule=schedule session=session />
                    <ModelView session=session outcome=|_| String::new()
                        start="Start: every invocation rests on its first access to shared memory, barrier or subgroup operation." />
                    <ModelOutcomes reached=reached session=session show_order=show_order />
                </Panel>
                <Panel id="code" title="Its lines, stepped">
                    <CodeView file="your kernel" source=stepped_source marks=marks />
                    <p class="muted">"Marked lines: the next step of each invocation (t0, t1, …), as the model stands."</p>
                </Panel>
            </div>
            <details class="background" data-testid="background">
                <summary>"How the page reads your kernel, and what it leaves out"</summary>
                <div class="prose" inner_html=crate::site::glossary::gloss(words::TEXT)></div>
            </details>
            <Panel id="gpu" title="Your GPU">
                <GpuStatus />
                {gpu_half!(Part::Panel, (opened, reached, unending)).run()}
            </Panel>
        </article>
    }
}

/// The text area with its line numbers, the line a message names marked in the gutter.
#[component]
fn Editor(source: RwSignal<String>, editor: NodeRef<leptos::html::Textarea>, reading: RwSignal<Reading>) -> impl IntoView {
    let gutter = NodeRef::<leptos::html::Pre>::new();
    let lines = Memo::new(move |_| source.with(|s| s.lines().count().max(1)));
    let refused_line = Memo::new(move |_| match reading.get() {
        Reading::Refused(r) if r.line > 0 => Some(r.line as usize),
        _ => None,
    });
    let numbers = move || {
        let bad = refused_line.get();
        (1..=lines.get()).map(|n| if Some(n) == bad { format!("▶{n}\n") } else { format!("{n}\n") }).collect::<String>()
    };
    view! {
        <div class="editor">
            <pre class="editor-gutter" aria-hidden="true" node_ref=gutter>{numbers}</pre>
            <textarea node_ref=editor spellcheck="false" autocomplete="off" wrap="off" aria-label="Your WGSL compute kernel"
                data-testid="playground-source" prop:value=move || source.get()
                on:input=move |e| source.set(event_target_value(&e))
                on:scroll=move |_| {
                    if let (Some(g), Some(t)) = (gutter.get(), editor.get()) {
                        g.set_scroll_top(t.scroll_top());
                    }
                }></textarea>
        </div>
    }
}

/// How many workgroups, and the elements of runtime-sized arrays.
#[component]
fn Sizes(workgroups: RwSignal<Option<u32>>, elements: RwSignal<Option<u32>>, opened: Memo<Option<Opened>>) -> impl IntoView {
    // The reader's choice, else what the kernel asked for.
    let shown = move || workgroups.get().or_else(|| opened.with(|o| o.as_ref().map(|o| o.setup.workgroups))).unwrap_or(1);
    view! {
        <div class="model-controls">
            <label>
                "Workgroups "
                <input type="number" min="1" max=MAX_WORKGROUPS prop:value=move || shown().to_string() data-testid="playground-workgroups"
                    on:change=move |e| workgroups.set(Some(event_target_value(&e).trim().parse::<u32>().unwrap_or(1).clamp(1, MAX_WORKGROUPS))) />
            </label>
            <label>
                "Runtime-sized arrays: "
                <input type="number" min="1" max=MAX_ELEMENTS title="one element per invocation unless the kernel or you say" data-testid="playground-elements"
                    prop:value=move || elements.get().or_else(|| opened.with(|o| o.as_ref().map(|o| o.elements))).map(|n| n.to_string()).unwrap_or_default()
                    on:change=move |e| elements.set(event_target_value(&e).trim().parse::<u32>().ok().map(|n| n.clamp(1, MAX_ELEMENTS))) />
                " elements"
            </label>
        </div>
    }
}

/// Each buffer the kernel binds, its size, and how it starts.
#[component]
fn BufferFills(reading: RwSignal<Reading>, fills: RwSignal<Vec<(String, Fill)>>) -> impl IntoView {
    let problem = RwSignal::new(None::<String>);
    let buffers = Memo::new(move |_| match reading.get() {
        Reading::Read { opened, .. } => opened.buffers.iter().map(|b| (b.name.clone(), b.binding, b.words, b.uniform, b.fill.text())).collect(),
        _ => Vec::new(),
    });
    move || {
        let rows = buffers.get();
        (!rows.is_empty()).then(|| {
            view! {
                <table class="returned buffers" data-testid="playground-buffers">
                    <thead><tr><th>"Buffer"</th><th>"Binding"</th><th>"Words"</th><th>"Starts as"</th></tr></thead>
                    <tbody>
                        {rows.into_iter().map(|(name, (group, binding), words, uniform, fill)| {
                            let key = name.clone();
                            view! {
                                <tr>
                                    <td><code>{name.clone()}</code>{uniform.then_some(" (uniform)")}</td>
                                    <td>{format!("@group({group}) @binding({binding})")}</td>
                                    <td>{words}</td>
                                    <td>
                                        <input type="text" value=fill aria-label=format!("how {name} starts: zeros, index, random:<seed> or a list")
                                            data-testid=format!("fill-{name}")
                                            on:change=move |e| match Fill::parse(&event_target_value(&e)) {
                                                Ok(f) => {
                                                    problem.set(None);
                                                    fills.update(|all| {
                                                        all.retain(|(n, _)| *n != key);
                                                        if f != Fill::Zeros {
                                                            all.push((key.clone(), f));
                                                        }
                                                    });
                                                }
                                                Err(e) => problem.set(Some(format!("{key}: {e}"))),
                                            } />
                                    </td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
                {move || problem.get().map(|p| view! { <p class="notice warn" role="alert" data-testid="fill-problem">{p}</p> })}
            }
        })
    }
}

/// naga's verdict: the kernel taken, or its refusal with line, column and words.
#[component]
fn NagaVerdict(reading: RwSignal<Reading>) -> impl IntoView {
    move || match reading.get() {
        Reading::Waiting => view! { <p class="muted" data-testid="naga-verdict">"naga: reading…"</p> }.into_any(),
        Reading::Refused(r) => view! {
            <p class="notice warn" role="alert" data-testid="naga-verdict" data-line=r.line data-column=r.column>
                <strong>"naga: "</strong>{r.to_string()}
            </p>
        }
        .into_any(),
        Reading::Read { .. } => view! { <p class="notice" data-testid="naga-verdict">"naga: taken, and lowered for the model."</p> }.into_any(),
    }
}

/// An order of steps to put in the model by hand, the step to stand at, and the notes its lanes
/// carry there (a finding's two invocations, each with its words).
type OrderToShow = (Vec<u32>, usize, Vec<(usize, String)>);

/// What one run to the end found: the counts as `data-races` and `data-divergence` (for tests
/// and embedding pages), and each finding with its lines, which select them in the editor.
#[component]
fn Verdicts(reading: RwSignal<Reading>, editor: NodeRef<leptos::html::Textarea>, show_order: Callback<OrderToShow>) -> impl IntoView {
    let select_line = move |line: usize| {
        let Some(area) = editor.get() else { return };
        let text = area.value();
        let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(|l| l.encode_utf16().count()).sum();
        let len = text.split_inclusive('\n').nth(line.saturating_sub(1)).map_or(0, |l| l.trim_end_matches('\n').encode_utf16().count());
        let _ = area.focus();
        let _ = area.set_selection_range(start as u32, (start + len) as u32);
    };
    move || match reading.get() {
        Reading::Read { analysis, opened, .. } => {
            let races = analysis.count(Kind::Race);
            let divergence = analysis.count(Kind::Divergence);
            let summary = if analysis.found.is_empty() && analysis.unfinished.is_none() {
                format!(
                    "One run of {} invocation(s) to its end ({} steps) found no data race and no barrier left unreached. Atomics never race: an update lost between an atomic load and an atomic store shows only in the outcomes.",
                    opened.invocations, analysis.steps
                )
            } else {
                format!("One run of {} invocation(s) ({} steps) found:", opened.invocations, analysis.steps)
            };
            let tone = if analysis.found.is_empty() && analysis.unfinished.is_none() { "notice" } else { "notice warn" };
            let (out_of_bounds, spins, unfinished) = (analysis.count(Kind::OutOfBounds), analysis.count(Kind::Spin), analysis.unfinished.is_some());
            view! {
                <div class=format!("verdicts {tone}") data-testid="playground-verdicts" data-races=races data-divergence=divergence
                    data-out-of-bounds=out_of_bounds data-spins=spins data-unfinished=unfinished.to_string()>
                    <p>{summary}</p>
                    <ul>
                        {analysis.found.into_iter().map(|f| {
                            let order = analysis.order.clone();
                            let at = f.at_step;
                            let kind = match f.kind {
                                Kind::Race => "race",
                                Kind::Divergence => "divergence",
                                Kind::OutOfBounds => "out-of-bounds",
                                Kind::Spin => "spin",
                            };
                            let lane_notes = lane_notes(&f);
                            view! {
                                <li data-finding=kind>
                                    {f.text}" "
                                    {f.lines.into_iter().filter(|&l| l > 0).collect::<std::collections::BTreeSet<_>>().into_iter().map(|l| view! {
                                        <button type="button" data-testid=format!("finding-line-{l}")
                                            on:click=move |_| select_line(l)>{format!("line {l}")}</button>" "
                                    }).collect_view()}
                                    {(at > 0).then(|| view! {
                                        <button type="button" data-testid="finding-show" on:click=move |_| show_order.run((order.clone(), at, lane_notes.clone()))>
                                            {format!("show it in the model (step {at})")}
                                        </button>
                                    })}
                                </li>
                            }
                        }).collect_view()}
                        {analysis.unfinished.map(|u| view! { <li data-finding="unfinished">{format!("It did not end: {u}. On a GPU such a kernel may run until the browser stops it.")}</li> })}
                    </ul>
                </div>
            }
            .into_any()
        }
        _ => ().into_any(),
    }
}

/// The words a finding pins on each of its invocations' lanes: what it did, and where.
fn lane_notes(f: &super::Found) -> Vec<(usize, String)> {
    let what = match f.kind {
        Kind::Race => "race",
        Kind::Divergence => "barrier",
        Kind::OutOfBounds => "out of bounds",
        Kind::Spin => "spins",
    };
    f.invocations
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let at = f.lines.get(k).filter(|&&l| l > 0).map_or_else(String::new, |l| format!(", line {l}"));
            let what = if f.kind == Kind::Divergence && k > 0 && f.lines.get(k).is_none() { "never arrives" } else { what };
            (i as usize, format!("⚠ {what}{at}"))
        })
        .collect()
}

/// Every final memory the model can end with (or those a sample of orders reached), each with
/// the order that ends there: a click steps it in the model, and its link keeps it.
#[component]
fn ModelOutcomes(reached: RwSignal<Option<Reachable>>, session: RwSignal<Session>, show_order: Callback<OrderToShow>) -> impl IntoView {
    let names = move || {
        session.with_untracked(|s| {
            let program = s.start().program().clone();
            program.lowered.as_ref().map_or_else(Vec::new, |l| l.kernel.vars.iter().filter(|v| matches!(v.space, stepper::ir::Space::Storage { .. }) && v.binding.is_some()).map(|v| v.name.to_string()).collect::<Vec<_>>())
        })
    };
    let show = move |order: Vec<u32>| show_order.run((order, 0, Vec::new()));
    move || {
        reached.get().map(|r| {
            let names = names();
            let how = if r.every_order {
                "every order of its steps".to_owned()
            } else {
                format!("{SAMPLES} orders chosen at random (too many to try them all; another may end elsewhere)")
            };
            let unfinished = (r.unfinished > 0).then(|| format!(" {} of them did not end.", r.unfinished));
            let (count, every_order) = (r.outcomes.len(), r.every_order);
            view! {
                <details class="model-outcomes" data-testid="model-outcomes" data-model-outcomes=count data-every-order=every_order.to_string()>
                    <summary>{format!("The model can end {count} way(s), over {how}")}</summary>
                    {unfinished}
                    <ul>
                        {r.outcomes.into_iter().map(|o| {
                            let order = o.schedule.clone();
                            view! {
                                <li>
                                    <code>{memory_text(&o.memory, &names)}</code>" "
                                    <button type="button" on:click=move |_| show(order.clone())>{format!("step this order ({} steps)", o.schedule.len())}</button>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </details>
            }
        })
    }
}

/// The schedule the model runs under.
#[component]
fn ScheduleChoice(schedule: RwSignal<Schedule>, session: RwSignal<Session>) -> impl IntoView {
    view! {
        <div class="model-controls">
            <label>
                "Schedule "
                <select data-testid="schedule" on:change=move |e| {
                    if let Some(s) = Schedule::from_name(&event_target_value(&e), 1) {
                        schedule.set(s);
                        session.update(|sess| {
                            sess.set_schedule(s);
                            sess.run_to_end();
                        });
                    }
                }>
                    {Schedule::NAMES.iter().map(|n| view! {
                        <option value=*n selected=move || schedule.get().name() == *n>{*n}</option>
                    }).collect_view()}
                </select>
            </label>
        </div>
    }
}

/// The playground's GPU half: the browser's own compiler's verdict on the kernel, and the runs.
pub fn gpu_half(part: GpuPart) -> AnyView {
    match part.part {
        Part::After => part.view(|opened: Memo<Option<Opened>>| view! { <BrowserVerdict opened=opened /> }),
        _ => part.view(|(opened, reached, unending): (Memo<Option<Opened>>, RwSignal<Option<Reachable>>, Memo<bool>)| {
            view! { <GpuRuns opened=opened reached=reached unending=unending /> }
        }),
    }
}

/// The browser's compiler on the same text: the authority on what a GPU will take.
#[component]
fn BrowserVerdict(opened: Memo<Option<Opened>>) -> impl IntoView {
    let gpu = expect_context::<crate::ui::gpu::GpuHandle>();
    let verdict = RwSignal::new(None::<Result<(), String>>);
    Effect::new(move |_| {
        let Some(o) = opened.get() else {
            verdict.set(None);
            return;
        };
        let Some(ctx) = gpu.context() else { return };
        leptos::task::spawn_local(async move {
            let result = super::gpu::compile(&ctx, &o).await.map(|_| ()).map_err(|e| match e {
                crate::gpu::GpuError::Shader { message, .. } => message,
                e => e.to_string(),
            });
            // Only the verdict on the text still open counts.
            if opened.try_with_untracked(|now| now.as_ref().map(|n| n.source) == Some(o.source)) == Some(true) {
                verdict.set(Some(result));
            }
        });
    });
    move || match verdict.get() {
        None => view! { <p class="muted" data-testid="browser-verdict">"The browser's compiler: waiting for the GPU…"</p> }.into_any(),
        Some(Ok(())) => view! { <p class="notice" data-testid="browser-verdict" data-accepted="true">"The browser's compiler: taken."</p> }.into_any(),
        Some(Err(message)) => view! {
            <div class="notice warn" role="alert" data-testid="browser-verdict" data-accepted="false">
                <strong>"The browser's compiler refuses it, and a GPU will not run it:"</strong>
                <pre>{message}</pre>
            </div>
        }
        .into_any(),
    }
}

/// Runs on the reader's GPU, and the final memories they left, with their counts.
#[component]
fn GpuRuns(opened: Memo<Option<Opened>>, reached: RwSignal<Option<Reachable>>, unending: Memo<bool>) -> impl IntoView {
    let job = GpuJob::<Outcomes>::new();
    let runs = RwSignal::new(100u32);
    // A kernel the model found no end to runs only once the reader says so, again for each text.
    let anyway = RwSignal::new(false);
    let held = RwSignal::new(false);
    Effect::new(move |_| {
        opened.track();
        anyway.set(false);
        held.set(false);
    });
    let run = move |()| {
        if unending.get_untracked() && !anyway.get_untracked() {
            held.set(true);
            return;
        }
        held.set(false);
        let Some(o) = opened.get_untracked() else { return };
        let n = runs.get_untracked();
        job.start_fixed(move |ctx| async move { super::gpu::run(&ctx, &o, n).await });
    };
    view! {
        <label class="model-controls">
            "Dispatches "
            <input type="number" min="1" max=MAX_RUNS prop:value=move || runs.get().to_string() data-testid="playground-runs"
                on:change=move |e| runs.set(event_target_value(&e).trim().parse::<u32>().unwrap_or(100).clamp(1, MAX_RUNS)) />
        </label>
        {move || unending.get().then(|| view! {
            <div class="notice warn" data-testid="unending-warning">
                <p>
                    "The model found no end to this kernel. On a GPU it may spin until the browser's watchdog stops it, "
                    "which loses the device for every page using it (this one then offers a new one)."
                </p>
                <label>
                    <input type="checkbox" data-testid="run-anyway" prop:checked=move || anyway.get()
                        on:change=move |e| { anyway.set(event_target_checked(&e)); held.set(false); } />
                    " Run it anyway"
                </label>
                {move || held.get().then(|| view! { <p role="alert" data-testid="run-held"><strong>"Not run: "</strong>"tick \"Run it anyway\" first."</p> })}
            </div>
        })}
        <RunForm job=job on_run=Callback::new(run) label="Run on my GPU" />
        {move || opened.with(|o| o.is_none()).then(|| view! { <p class="muted">"Nothing to run until naga takes the kernel."</p> })}
        {move || job.result.get().map(|r| view! { <OutcomeTable outcomes=r opened=opened reached=reached /> })}
    }
}

#[component]
fn OutcomeTable(outcomes: Outcomes, opened: Memo<Option<Opened>>, reached: RwSignal<Option<Reachable>>) -> impl IntoView {
    let model = reached.get_untracked();
    let every_order = model.as_ref().is_some_and(|r| r.every_order);
    let beyond = outcomes.distinct.iter().filter(|(m, _)| model.as_ref().is_some_and(|r| !r.contains(m))).count();
    let names: Vec<String> = opened.with_untracked(|o| o.as_ref().map(|o| o.buffers.iter().filter(|b| !b.uniform).map(|b| b.name.clone()).collect()).unwrap_or_default());
    let distinct = outcomes.distinct.len();
    let said = if distinct == 1 {
        format!("All {} dispatches ended with the same memory.", outcomes.runs)
    } else {
        format!("{} dispatches ended with {distinct} different memories: the order the GPU ran them in changed the result.", outcomes.runs)
    };
    let beyond_said = match (beyond, every_order) {
        (0, true) => "Each is one the model reaches by some order of its steps.".to_owned(),
        (0, false) => "Each is one the model reached in its sample of orders.".to_owned(),
        (n, true) => format!(
            "{n} of them no order of the model's steps reaches (marked ✗): the GPU did what the model leaves out, such as a write seen late (weak memory) or two steps at once."
        ),
        (n, false) => format!("{n} of them the model's sample of orders did not reach (marked ?): a sample may miss one, so this proves nothing."),
    };
    let mark = if every_order { "✗ " } else { "? " };
    view! {
        <div class="gpu-outcomes" data-testid="playground-outcomes" data-gpu-outcomes=distinct data-beyond-model=beyond>
            <p>{said}" "{beyond_said}</p>
            <table class="returned">
                <thead><tr><th>"Runs"</th><th>"Final memory"</th></tr></thead>
                <tbody>
                    {outcomes.distinct.into_iter().map(|(memory, count)| {
                        let outside = model.as_ref().is_some_and(|r| !r.contains(&memory));
                        view! {
                            <tr data-beyond-model=outside.to_string()>
                                <td>{outside.then_some(mark)}{count}</td>
                                <td><code>{memory_text(&memory, &names)}</code></td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// Each buffer's words, named.
fn memory_text(memory: &[Vec<u32>], names: &[String]) -> String {
    memory.iter().zip(names).map(|(words, name)| format!("{name} = {}", shown(words))).collect::<Vec<_>>().join("; ")
}

/// A buffer's words, the first few of a long one.
fn shown(words: &[u32]) -> String {
    const FIRST: usize = 16;
    let head = words.iter().take(FIRST).map(u32::to_string).collect::<Vec<_>>().join(", ");
    match words.len() {
        1 => head,
        n if n > FIRST => format!("[{head}, … {} more]", n - FIRST),
        _ => format!("[{head}]"),
    }
}
