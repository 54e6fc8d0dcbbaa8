//! The race-condition lesson page: the model of a few threads beside the real kernel.

use crate::text::Float;
use crate::gpu::{AdapterSummary, GpuError};
use crate::lessons::race::gpu::{run_race, run_replay, RaceBatch, ReplayRun};
use crate::lessons::race::{GpuParams, Variant};
use crate::model::Trace;
use crate::model::{Machine, ReplayAccess, ReplayTimeline};
use crate::ui::download::DownloadJson;
use crate::ui::figures::{figure, Figures};
use crate::ui::gpu::{now_ms, GpuHandle};
use crate::ui::gpu_form::{GpuJob, RunForm, SizeFields};
use crate::ui::gpu_half::{gpu_half, GpuPart, Part};
use crate::ui::histogram::Histogram;
use crate::ui::lesson_page::{open_lesson, LessonPage};
use crate::ui::measured::MeasuredTable;
use crate::ui::model_panel::{ModelState, VariantToggle};
use crate::ui::panel::Panel;
use crate::ui::player::Player;
use crate::ui::prediction::{Guess, Prediction};
use crate::ui::scene::ReplayScene;
use crate::ui::timeline::Timeline;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::collections::BTreeMap;
use std::sync::Arc;
use super::words;

#[component]
pub fn RaceLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<Variant>("race");
    let ModelState { variant, threads, .. } = model;
    view! {
        <LessonPage id="race" title="The lost update" model=model problems=problems lead=words::LEAD words=words::TEXT
            bar=move || view! { <VariantToggle model=model choices=&[(Variant::Racy, "Racy: atomicLoad, add, atomicStore"), (Variant::Atomic, "Atomic: atomicAdd")] /> }
            start="Start: every thread is about to run its first instruction; the counter is 0." outcome=model_outcome
            kernel=Signal::derive(move || variant.get().kernel())
            gpu=gpu_half!(Part::Panel, (variant, sizes))
            after=gpu_half!(Part::After, (variant, threads)) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
pub fn gpu_half(part: GpuPart) -> AnyView {
    match part.part {
        Part::After => part.view(|(variant, threads): (RwSignal<Variant>, RwSignal<usize>)| {
            view! {
                <Panel id="replay" title="Replay what your GPU did">
                    <GpuReplay variant=variant threads=threads />
                </Panel>
            }
        }),
        _ => part.view(|(variant, sizes): (RwSignal<Variant>, SizeFields)| view! { <GpuRuns variant=variant sizes=sizes /> <MeasuredElsewhere /> }),
    }
}

/// The race lesson's verdict on a finished model run: how many increments counted.
fn model_outcome(m: &Machine) -> String {
    let n = m.threads.len() as i64;
    let count = m.memory[crate::lessons::race::COUNTER];
    match (m.is_finished(), n - count) {
        (false, _) => String::new(),
        (true, 0) => format!("Finished: {count} of {n} increments counted."),
        (true, lost) => format!("Finished: {count} of {n} increments counted — {lost} lost."),
    }
}


/// What one press of "run" or "run 100×" gave back.
#[derive(Clone)]
struct RunResult {
    adapter: AdapterSummary,
    variant: Variant,
    params: GpuParams,
    batch: RaceBatch,
    wall_ms: f64,
}

#[component]
fn GpuRuns(variant: RwSignal<Variant>, sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<RunResult>::new();
    crate::ui::gpu::warm(move || vec![(variant.get().kernel(), sizes.opened().workgroup_size)]);
    let run = move |runs: u32| {
        let v = variant.get_untracked();
        job.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let batch = run_race(&ctx, v, params, runs).await?;
            Ok(RunResult { adapter: ctx.adapter.clone(), variant: v, params, batch, wall_ms: now_ms() - t0 })
        })
    };
    // The last racy count, for the reader's prediction (a new value for every run).
    let racy_count = Signal::derive(move || job.result.get().filter(|r| r.variant == Variant::Racy).map(|r| i64::from(*r.batch.finals.last().unwrap_or(&0))));
    view! {
        <Show when=move || variant.get() == Variant::Racy>
            <Prediction test_id="predict-count" guess=Guess::Number(0..=i64::from(crate::lessons::race::MAX_INVOCATIONS)) actual=racy_count
                question=Signal::derive(move || format!("what will the racy counter end at, after {} increments?", sizes.invocations.get().trim())) />
        </Show>
        <RunForm sizes=sizes job=job on_run=Callback::new(move |()| run(1)) on_run_100=Callback::new(move |()| run(100)) />
        {move || job.result.get().map(|r| view! { <RunReport result=r current=variant /> })}
    }
}

#[component]
fn RunReport(result: RunResult, current: RwSignal<Variant>) -> impl IntoView {
    let export = {
        let r = result.clone();
        move || {
            let json = crate::lessons::race::export::runs(&r.adapter, r.variant, r.params, &r.batch, r.wall_ms);
            (format!("syncscope-race-{}-{}.json", r.variant.name(), r.params.invocations), json.to_pretty())
        }
    };
    let RunResult { adapter, variant, params, batch, wall_ms, .. } = result;
    let expected = params.invocations;
    let allowed = variant.allowed_final_counts(expected);
    let last = *batch.finals.last().unwrap_or(&0);
    let runs = batch.finals.len();
    let all_allowed = batch.finals.iter().all(|c| allowed.contains(c));
    let mut counts: BTreeMap<u32, u32> = BTreeMap::new();
    for c in &batch.finals {
        *counts.entry(*c).or_default() += 1;
    }
    let bins: Vec<(u32, u32)> = counts.into_iter().collect();
    // Said from the counts, in the lesson's terms: a racy run that lost updates did what the
    // lesson is about, and reads as a warning; only atomicAdd's exact count reads as ok.
    let (lowest, highest) = (batch.finals.iter().copied().min().unwrap_or(0), batch.finals.iter().copied().max().unwrap_or(0));
    let (verdict, tone) = match (all_allowed, variant) {
        (false, _) => ("A final count lies outside what the model allows: this GPU broke the rules.".to_owned(), "bad"),
        (true, Variant::Atomic) => (format!("Every run counted exactly {expected}, as atomicAdd promises: no update lost."), "ok"),
        (true, Variant::Racy) if lowest == expected => (
            format!("Every run counted all {expected} this time: no two updates overlapped. Nothing promises that; racy code may end anywhere from 1 to {expected}, and another size or GPU will show it."),
            "ok",
        ),
        (true, Variant::Racy) if runs == 1 => (
            format!("The counter ended at {last} of {expected}: {} increments were lost, each where an invocation stored over another's update between its load and its store. Racy code may end anywhere from 1 to {expected}.", expected - last),
            "warn",
        ),
        // Every run alike (SwiftShader's lanes in lockstep end at one count every time): the same
        // loss each run, which is this GPU's habit, not a promise.
        (true, Variant::Racy) if lowest == highest => (
            format!("All {runs} runs ended at {last} of {expected}: {} increments lost in each, the same way every time on this GPU. Nothing promises that; racy code may end anywhere from 1 to {expected}.", expected - last),
            "warn",
        ),
        (true, Variant::Racy) => (
            format!("Over {runs} runs the counter ended between {lowest} and {highest} of {expected}: up to {} increments lost in a run, a different number each time. Racy code may end anywhere from 1 to {expected}.", expected - lowest),
            "warn",
        ),
    };
    let gpu_time = batch.gpu_ns.map(|ns| format!("{:.3} ms on the GPU (timestamp queries)", Float(ns / 1e6)));
    view! {
        <div class="run-report" data-testid="gpu-report" data-variant=variant.name()>
            <Show when=move || current.get() != variant>
                <p class="muted">"These results are from the " {variant.name()} " kernel; switch back or run again."</p>
            </Show>
            <Figures items=vec![
                figure("Kernel", variant.kernel().file_name()),
                figure("Invocations × workgroup", format!("{} in {} workgroups of {}", params.invocations, params.workgroups(), params.workgroup_size)),
                figure("Expected", expected.to_string()).id("gpu-expected"),
                figure(if runs > 1 { "Observed (last run)" } else { "Observed" }, last.to_string()).id("gpu-observed"),
                figure("Lost updates", (expected - last.min(expected)).to_string()).id("gpu-lost"),
                figure("Runs", runs.to_string()).id("gpu-runs"),
                figure("Runs per second", format!("{:.0}", Float(runs as f64 / (wall_ms / 1000.0).max(1e-6)))).id("gpu-runs-per-second"),
                figure("Round trip", format!("{wall_ms:.1} ms wall clock{}", gpu_time.map(|t| format!(", {t}")).unwrap_or_default(), wall_ms = Float(wall_ms))).timed_on(&adapter).id("gpu-wall-ms").raw(format!("{wall_ms:.3}", wall_ms = Float(wall_ms))),
            ] />
            <p class=format!("verdict {tone}") data-testid="gpu-verdict" data-ok=all_allowed.to_string()>{verdict}</p>
            <Show when=move || { runs > 1 }>
                <Histogram bins=bins.clone() x_label="final count" y_label="runs" allowed=allowed.clone() />
            </Show>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
            <pre class="raw" hidden data-testid="gpu-finals">{batch.finals.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",")}</pre>
        </div>
    }
}

/// The replay records as many invocations as the model has threads, up to what stays readable.
fn replay_size(threads: usize) -> u32 {
    (threads as u32).min(crate::lessons::race::MAX_REPLAY_INVOCATIONS)
}

#[component]
fn GpuReplay(variant: RwSignal<Variant>, threads: RwSignal<usize>) -> impl IntoView {
    let gpu = expect_context::<GpuHandle>();
    let timeline = RwSignal::new(None::<(Variant, ReplayTimeline)>);
    // The records as read back, and the adapter that made them, for the download.
    let recorded = StoredValue::new(None::<(AdapterSummary, Variant, ReplayRun)>);
    let cursor = RwSignal::new(0usize);
    let error = RwSignal::new(None::<String>);
    let running = RwSignal::new(false);
    // Counts recordings: the timeline keys its columns on it.
    let recordings = RwSignal::new(0u64);
    crate::ui::gpu::warm(move || vec![(variant.get().replay_kernel(), crate::lessons::race::MAX_REPLAY_INVOCATIONS)]);

    let record = move |_| {
        let Some(ctx) = gpu.context() else { return };
        let v = variant.get_untracked();
        let n = replay_size(threads.get_untracked());
        running.set(true);
        error.set(None);
        spawn_local(async move {
            let outcome = run_replay(&ctx, v, n).await.and_then(|run| {
                ReplayTimeline::from_records(&run.records, 0, run.final_count)
                    .map(|t| (t, run))
                    .map_err(|e| GpuError::Run(format!("the records do not make a history: {e}")))
            });
            match outcome {
                Ok((t, run)) => {
                    cursor.set(0);
                    recorded.set_value(Some((ctx.adapter.clone(), v, run)));
                    recordings.update(|n| *n += 1);
                    timeline.set(Some((v, t)));
                }
                Err(e) => {
                    gpu.report(&e);
                    error.set(Some(e.to_string()));
                }
            }
            running.set(false);
        });
    };
    let total = Signal::derive(move || timeline.with(|t| t.as_ref().map_or(0, |(_, t)| t.steps.len())));
    let seek = Callback::new(move |i: usize| cursor.set(i.min(total.get_untracked())));
    // What the GPU recorded, drawn in the model's timeline: recorded values only, in ticket order.
    let replay_trace = Memo::new(move |_| timeline.with(|t| Arc::new(t.as_ref().map(|(_, t)| Trace::of_replay(t)).unwrap_or_default())));
    let replay_revision = Signal::derive(move || recordings.get());
    let replay_lanes = Signal::derive(move || timeline.with(|t| t.as_ref().map_or(0, |(_, t)| t.lanes)));

    view! {
        <div class="prose" inner_html=crate::site::glossary::gloss(words::REPLAY)></div>
        <button on:click=record disabled=move || gpu.context().is_none() || running.get() data-testid="replay-record">
            {move || format!("Record {} invocations on my GPU ({} kernel)", replay_size(threads.get()), variant.get().name())}
        </button>
        {move || error.get().map(|e| view! { <p class="notice warn" role="alert" data-testid="replay-error">{e}</p> })}
        {move || timeline.get().map(|(v, t)| {
            // The recorded run drawn in the model's own scene: lanes, the counter, a token per
            // recorded access, the lost updates marked where they happen.
            let start = v.machine(t.lanes);
            let t2 = t.clone();
            let machine = crate::ui::machine_memo(move || t2.machine_at(&start, cursor.get()));
            let speed = RwSignal::new(1.0);
            let t3 = t.clone();
            let narration = move || {
                let at = cursor.get();
                match at.checked_sub(1).and_then(|i| t3.steps.get(i)) {
                    Some(step) => t3.narrate(step),
                    None => "Before the dispatch: the counter is 0.".to_owned(),
                }
            };
            let t4 = t.clone();
            let counter = move || t4.counter_at(cursor.get(), 0).to_string();
            let log = t.steps.iter().enumerate().map(|(i, s)| {
                let what = match s.access {
                    ReplayAccess::Load { value } => format!("load {value}"),
                    ReplayAccess::Store { value } => format!("store {value}"),
                    ReplayAccess::ReadModifyWrite { old, new } => format!("atomicAdd {old}→{new}"),
                };
                view! {
                    <li class:current=move || cursor.get() == i + 1 class:disagrees=s.disagrees>
                        {format!("#{} inv {}: {what}{}", s.ticket, s.lane, if s.disagrees { " ⚠" } else { "" })}
                    </li>
                }
            }).collect_view();
            view! {
                <Player cursor=cursor total=total seek=seek name="replay" speed=speed />
                <ReplayScene machine=machine trace=replay_trace cursor=cursor total=total speed=speed test_id="replay-scene" />
                <Timeline trace=replay_trace revision=replay_revision threads=replay_lanes cursor=cursor seek=seek test_id="replay-timeline" />
                <p>
                    "Counter as replayed here: " <strong data-testid="replay-counter">{counter}</strong>
                    " · read back from the GPU: " <strong data-testid="replay-final">{t.gpu_final.to_string()}</strong>
                </p>
                <p class="narration" aria-live="polite" data-testid="replay-narration">{narration}</p>
                <p data-testid="replay-summary">{format!(
                    "{} kernel, {} invocations: {} accesses recorded, final count {}, {} load(s) disagree with the ticket order.",
                    v.name(), t.lanes, t.steps.len(), t.gpu_final, t.disagreements())}</p>
                <ol class="replay-log" aria-label="recorded accesses in ticket order">{log}</ol>
                <DownloadJson test_id="replay-download" make=Box::new(move || {
                    recorded.with_value(|r| match r {
                        Some((adapter, v, run)) => (
                            format!("syncscope-race-replay-{}-{}.json", v.name(), run.records.len()),
                            crate::lessons::race::export::replay(adapter, *v, run).to_pretty(),
                        ),
                        None => ("syncscope-race-replay.json".into(), "null\n".into()),
                    })
                }) />
            }
        })}
    }
}

/// The same kernels on a data-centre GPU, from `data/h100-race.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::race::measured::{parse_report, H100_RACE};
    parse_report(H100_RACE).map(|report| {
        let rows = report.race.iter().map(|r| vec![r.variant.clone(), r.invocations.to_string(), r.workgroup_size.to_string(), r.describe()]).collect();
        view! {
            <MeasuredTable adapter=report.adapter rows=rows headers=&["kernel", "invocations", "workgroup", "final count"]
                note="The same kernels, run natively on that GPU." />
        }
    })
}
