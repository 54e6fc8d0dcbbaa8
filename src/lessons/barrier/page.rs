//! The barrier page: model threads writing, waiting and reading their neighbour beside the real
//! kernels, with the stale reads and the arrival/departure tickets the reader's GPU gave back.

use crate::text::Float;
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::barrier::across::run_across;
use crate::lessons::barrier::gpu::run_barrier;
use crate::lessons::barrier::{check, check_across, out_base, Across, AcrossCheck, BarrierRun, BarrierVariant};
use crate::model::{Machine, ThreadStatus};
use crate::site::settings::LessonVariant;
use crate::ui::download::DownloadJson;
use crate::ui::figures::{figure, Figures};
use crate::ui::gpu::now_ms;
use crate::ui::gpu_form::{GpuJob, RunForm, SizeFields};
use crate::ui::gpu_half::{gpu_half, GpuPart, Part};
use crate::ui::lesson_page::{open_lesson, LessonPage};
use crate::ui::model_panel::VariantToggle;
use crate::ui::player::Player;
use crate::ui::table::TextTable;
use leptos::prelude::*;
use super::words;

#[component]
pub fn BarrierLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<BarrierVariant>("barrier");
    let variant = model.variant;
    view! {
        <LessonPage id="barrier" title="Waiting at the barrier" model=model problems=problems lead=words::LEAD words=words::TEXT
            bar=move || view! { <VariantToggle model=model choices=&[
                (BarrierVariant::With, "With workgroupBarrier()"),
                (BarrierVariant::Without, "Without it"),
                (BarrierVariant::InBranch, "Inside if id < n / 2"),
            ] /> }
            start="Start: every cell is 0; each thread will write id + 1 to its own cell and read its neighbour's."
            outcome=model_outcome
            kernel=Signal::derive(move || variant.get().kernel()) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, (variant, sizes)) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
pub fn gpu_half(part: GpuPart) -> AnyView {
    part.view(|(variant, sizes): (RwSignal<BarrierVariant>, SizeFields)| view! { <GpuBarrier variant=variant sizes=sizes /> <MeasuredElsewhere /> <GpuAcross sizes=sizes /> <MeasuredAcross /> <GpuCost /> <MeasuredCost /> })
}

fn model_outcome(m: &Machine) -> String {
    let n = m.threads.len();
    if !m.is_finished() {
        if m.ready_threads().next().is_some() {
            return String::new();
        }
        let waiting: Vec<String> = (0..n).filter(|&t| m.threads[t].status == ThreadStatus::AtBarrier).map(|t| t.to_string()).collect();
        return format!("Stuck: thread(s) {} wait at a barrier the others skipped. Nobody is left to arrive, so nobody is released.", waiting.join(", "));
    }
    if m.findings().iter().any(|f| matches!(f, stepper::run::Finding::Divergence { .. })) {
        let waited: Vec<String> = (0..n / 2).map(|t| t.to_string()).collect();
        return format!(
            "Let go only at the end: thread(s) {} waited at a barrier the others skipped, until every other thread had ended. A GPU promises nothing here.",
            waited.join(", ")
        );
    }
    let stale = (0..n).filter(|&t| m.memory[out_base(n) + t] == 0).count();
    format!("Finished: {} of {n} threads read their neighbour's value; {stale} read a cell not written yet (0).", n - stale)
}

/// The same exchange in CUDA (seed: the divergent __syncthreads example).
const CUDA: &str = "__global__ void neighbours(unsigned *got) {\n    __shared__ unsigned cells[1024];\n    unsigned lane = threadIdx.x, id = blockIdx.x * blockDim.x + lane;\n    cells[lane] = id + 1;\n    __syncthreads();           // every thread of the block, or undefined behaviour\n    got[id] = cells[(lane + 1) % blockDim.x];\n}\n\n// Undefined: only half the block reaches the barrier.\n//   if (lane < blockDim.x / 2) { __syncthreads(); }";

#[derive(Clone)]
struct BarrierResult {
    adapter: AdapterSummary,
    variant: BarrierVariant,
    params: GpuParams,
    run: BarrierRun,
    wall_ms: f64,
}

#[component]
fn GpuBarrier(variant: RwSignal<BarrierVariant>, sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<BarrierResult>::new();
    crate::ui::gpu::warm(move || vec![(variant.get().kernel(), sizes.opened().workgroup_size)]);
    let run = Callback::new(move |()| {
        let variant = variant.get_untracked();
        job.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let run = run_barrier(&ctx, variant, params).await?;
            Ok(BarrierResult { adapter: ctx.adapter.clone(), variant, params, run, wall_ms: now_ms() - t0 })
        })
    });
    // Stale reads of the run without the barrier, for the reader's prediction.
    let stale = Signal::derive(move || {
        job.result.get().filter(|r| r.variant == BarrierVariant::Without).map(|r| i64::from(crate::lessons::barrier::check(r.params, &r.run).stale))
    });
    view! {
        <Show when=move || variant.get() == BarrierVariant::Without>
            <crate::ui::prediction::Prediction test_id="predict-stale" guess=crate::ui::prediction::Guess::Number(0..=i64::from(crate::gpu::params::MAX_INVOCATIONS)) actual=stale
                question=Signal::derive(move || format!("without the barrier, how many of {} reads will find their neighbour's cell not yet written?", sizes.invocations.get().trim())) />
        </Show>
        <RunForm sizes=sizes job=job on_run=run />
        {move || job.result.get().map(|r| view! { <BarrierReport result=r /> })}
    }
}

#[component]
fn BarrierReport(result: BarrierResult) -> impl IntoView {
    let BarrierResult { adapter, variant, params, run, wall_ms } = result;
    let c = check(params, &run);
    let n = params.invocations;
    // Reads can only be right or 0. Whole ticket sets are promised only with the barrier.
    let ok = match variant {
        BarrierVariant::With => c.impossible == 0 && c.stale == 0 && c.tickets_whole() && c.ordered_workgroups == c.workgroups,
        _ => c.impossible == 0,
    };
    let restarted = c.workgroups - c.whole_ticket_workgroups;
    let verdict = match (variant, ok) {
        (BarrierVariant::With, false) if c.impossible > 0 => format!("{} read(s) found a value nobody wrote there: the GPU broke a promise.", c.impossible),
        // Without a uniform barrier every read races with its neighbour's write: a data race,
        // for which WGSL promises no value at all.
        (_, false) if c.impossible > 0 => format!("{} read(s) found a value nobody wrote there. Without a barrier every read races with its neighbour's write, and WGSL promises no value for a racing read: no promise broken, and no result to trust.", c.impossible),
        (BarrierVariant::With, true) => format!("All {n} reads right, and in every workgroup every arrival came before every departure."),
        (BarrierVariant::With, false) => format!(
            "With the barrier: {} stale read(s), {restarted} workgroup(s) with a restarted counter, {} of {} ordered. This GPU broke the barrier's promise.",
            c.stale, c.ordered_workgroups, c.workgroups
        ),
        (_, _) => {
            let reads = if c.stale == 0 {
                format!("This time none of the {n} reads was stale: every neighbour happened to write before it was read. Without the barrier nothing promised that, and the next run or another GPU may differ.")
            } else {
                format!(
                    "{} of {n} reads found their neighbour's cell not yet written ({} of them across groups of 4 lanes, {} within one): without the barrier a read does not wait for the write it needs.",
                    c.stale, c.stale_across_four, c.stale_within_four
                )
            };
            let order = if c.whole_ticket_workgroups > 0 {
                format!(" Of the {} workgroup(s) whose tickets came out whole, {} had every arrival before every departure, by luck rather than by promise.", c.whole_ticket_workgroups, c.ordered_workgroups)
            } else {
                String::new()
            };
            let restart = if restarted > 0 {
                format!(" In {restarted} of {} workgroup(s) the ticket counter restarted part-way: this device zeroed workgroup memory again while other lanes were already using it. WGSL zeroes workgroup variables once, before any invocation uses them, so that is a bug in this device's implementation; the lesson's barrier could not prevent it, since each lane takes its first ticket before the barrier.", c.workgroups)
            } else {
                String::new()
            };
            format!("{reads}{order}{restart}")
        }
    };
    // Without the barrier a stale read is the lesson's point, said as a warning, not a success.
    let tone = match (ok, variant) {
        (false, _) => "bad",
        (true, BarrierVariant::With) => "ok",
        (true, _) if c.stale > 0 || restarted > 0 => "warn",
        (true, _) => "ok",
    };
    // The first workgroup's tickets in order: (ticket, lane, arriving).
    let first = (params.workgroup_size.min(n)) as usize;
    let mut events: Vec<(u32, usize, bool)> = (0..first).flat_map(|l| [(run.arrive[l], l, true), (run.depart[l], l, false)]).collect();
    events.sort_unstable();
    let export = {
        let (adapter, run) = (adapter.clone(), run.clone());
        move || {
            let json = crate::lessons::barrier::export::run(&adapter, variant, params, &run, wall_ms);
            (format!("syncscope-barrier-{}-{}.json", variant.name(), params.invocations), json.to_pretty())
        }
    };
    let got = run.got.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    view! {
        <div class="run-report" data-testid="gpu-report">
            <Figures items=vec![
                figure("Invocations × workgroup", format!("{n} in {} workgroups of {}", c.workgroups, params.workgroup_size)),
                figure("Right reads", c.right.to_string()).id("gpu-right"),
                figure("Stale reads (0)", c.stale.to_string()).id("gpu-stale"),
                figure("…within a group of 4 lanes", c.stale_within_four.to_string()).id("gpu-stale-within"),
                figure("Workgroups: all arrived before any left", format!("{} of {}", c.ordered_workgroups, c.workgroups)).id("gpu-ordered"),
                figure("Workgroups with each ticket once", format!("{} of {}", c.whole_ticket_workgroups, c.workgroups)).id("gpu-whole-tickets"),
                figure("Round trip", format!("{wall_ms:.1} ms wall clock", wall_ms = Float(wall_ms))).timed_on(&adapter),
            ] />
            <p class=format!("verdict {tone}") data-testid="gpu-verdict" data-ok=ok.to_string()>{verdict}</p>
            {c.tickets_whole().then(|| view! {
                <TicketReplay events=events lanes=first />
            })}
            <p class="muted">{format!("Adapter: {}.", crate::ui::figures::timed_adapter(&adapter))}</p>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
            <pre class="raw" hidden data-testid="gpu-got">{got}</pre>
        </div>
    }
}

/// The same kernels on a data-centre GPU, from `data/h100-barrier.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::barrier::measured::{parse_barrier_report, H100_BARRIER};
    use crate::ui::measured::{range, MeasuredTable};
    parse_barrier_report(H100_BARRIER).map(|(adapter, rows)| {
        let rows = rows
            .into_iter()
            .map(|r| {
                vec![
                    r.variant,
                    format!("{} / {}", r.invocations, r.workgroup_size),
                    format!("{} of {}", range(r.stale), r.invocations),
                    range(r.stale_within_four),
                    format!("{} of {}", range(r.ordered_workgroups), r.workgroups),
                ]
            })
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["barrier", "invocations / workgroup", "stale reads", "within a group of 4", "workgroups all arrived before any left"]
                note="Ten runs per size, the same kernels run natively on that GPU. A missing \
                      barrier that shows nothing on one GPU is still a bug: another GPU, driver or workgroup size can show it." />
        }
    })
}

/// Each way of the storage-buffer demonstration, as a row of the table.
fn across_label(how: Across) -> &'static str {
    match how {
        Across::WithinWorkgroup => "Neighbour in the same workgroup, storageBarrier(), one dispatch",
        Across::NextWorkgroupOneDispatch => "Same lane of the next workgroup, storageBarrier(), one dispatch",
        Across::NextWorkgroupTwoDispatches => "Same lane of the next workgroup, writes and reads in two dispatches",
    }
}

/// What the storage-buffer demonstration read back: each way in [`Across::ALL`]'s order, with
/// what every invocation read.
#[derive(Clone)]
struct AcrossResult {
    adapter: AdapterSummary,
    params: GpuParams,
    ways: Vec<(Across, Vec<u32>)>,
    wall_ms: f64,
}

/// Writes to a storage buffer, then reads of another invocation's cell: within a workgroup,
/// across workgroups in one dispatch, and across workgroups over two dispatches.
#[component]
fn GpuAcross(sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<AcrossResult>::new();
    crate::ui::gpu::warm(move || vec![(crate::lessons::barrier::kernels::ACROSS_WORKGROUPS, sizes.opened().workgroup_size)]);
    let run = Callback::new(move |()| {
        job.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let mut ways = Vec::new();
            for how in Across::ALL {
                ways.push((how, run_across(&ctx, how, params).await?));
            }
            Ok(AcrossResult { adapter: ctx.adapter.clone(), params, ways, wall_ms: now_ms() - t0 })
        })
    });
    view! {
        <h3>"Across workgroups: storageBarrier() against a second dispatch"</h3>
        <p class="muted">"Each invocation writes id + 1 to its cell of a storage buffer, calls storageBarrier(), and reads another invocation's cell; a 0 means that write was not seen. Same sizes as above."</p>
        <RunForm job=job on_run=run name="across" />
        {move || job.result.get().map(|AcrossResult { adapter, params, ways, wall_ms }| {
            let rows: Vec<(Across, AcrossCheck)> = ways.iter().map(|(how, got)| (*how, check_across(*how, params, got))).collect();
            let export = move || {
                let json = crate::lessons::barrier::export::across(&adapter, params, &ways, wall_ms);
                (format!("syncscope-barrier-across-{}.json", params.invocations), json.to_pretty())
            };
            let ok = rows.iter().all(|(how, c)| c.impossible == 0 && (!how.guaranteed() || c.stale == 0));
            let one = rows.iter().find(|(how, _)| !how.guaranteed()).map_or(0, |(_, c)| c.stale);
            let table: Vec<Vec<String>> = rows.iter().map(|(how, c)| vec![
                across_label(*how).to_owned(),
                if how.guaranteed() { "yes".to_owned() } else { "no".to_owned() },
                format!("{} of {}", c.stale, params.invocations),
            ]).collect();
            view! {
                <TextTable headers=vec!["reads".into(), "WGSL promises every write is seen".into(), "stale reads (0)".into()] rows=table test_id="across-table" />
                <p class=if ok { "verdict ok" } else { "verdict bad" } data-testid="across-verdict" data-ok=ok.to_string()>
                    {if ok {
                        format!("Within a workgroup and after a dispatch ended, every write was seen. Across workgroups in one dispatch, {one} read(s) found their cell not yet written{}.",
                            if one == 0 { " this time: nothing promised that" } else { "" })
                    } else {
                        if rows.iter().any(|(how, c)| how.guaranteed() && (c.stale > 0 || c.impossible > 0)) {
                            "A read missed a write that WGSL promises it sees: this GPU broke a promise.".to_owned()
                        } else {
                            "A read across workgroups found a value nobody wrote there. Those reads race with the other workgroup's writes, and WGSL promises no value for them.".to_owned()
                        }
                    }}
                </p>
                <DownloadJson make=Box::new(export) test_id="across-download" />
            }
        })}
    }
}

/// The storage-buffer demonstration on a data-centre GPU, from `data/h100-across.json`.
#[component]
fn MeasuredAcross() -> impl IntoView {
    use crate::lessons::barrier::measured::{parse_across_report, H100_ACROSS};
    use crate::ui::measured::{range, MeasuredTable};
    parse_across_report(H100_ACROSS).map(|(adapter, rows)| {
        let rows = rows
            .into_iter()
            .map(|r| {
                let how = Across::ALL.into_iter().find(|a| a.name() == r.how).map_or(r.how.clone(), |a| across_label(a).to_owned());
                vec![how, format!("{} / {}", r.invocations, r.workgroup_size), format!("{} of {}", r.runs_stale, r.runs), range(r.stale)]
            })
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["reads", "invocations / workgroup", "runs with stale reads", "stale reads per run"]
                note="The same kernels, run natively on that GPU. There, workgroups of one \
                      dispatch missed the other workgroup's write only at a million invocations, in a few runs." />
        }
    })
}

/// Most lanes the replay draws; a wider workgroup replays its counts in full.
const REPLAY_LANES: usize = 256;
/// Most lanes drawn in the scene as well as in the timeline.
const SCENE_LANES: usize = 64;

/// Workgroup 0's tickets replayed one at a time: each lane arriving, the count climbing to the
/// workgroup's size, then the departures — in the order the GPU's counter handed them out.
#[component]
fn TicketReplay(events: Vec<(u32, usize, bool)>, lanes: usize) -> impl IntoView {
    let events = std::sync::Arc::new(events);
    let total = events.len();
    let cursor = RwSignal::new(0usize);
    let seek = Callback::new(move |i: usize| cursor.set(i.min(total)));
    let state = {
        let events = events.clone();
        move || {
            let c = cursor.get();
            let done = &events[..c];
            let arrived = done.iter().filter(|e| e.2).count();
            let departed = c - arrived;
            let said = match done.last() {
                None => format!("Before the first ticket: {lanes} lanes on their way to the barrier."),
                Some(&(t, lane, true)) => format!(
                    "Ticket {t}: lane {lane} arrives ({arrived} of {lanes}){}.",
                    if arrived == lanes { "; the last one, so the barrier releases" } else { " and waits" }
                ),
                Some(&(t, lane, false)) => format!("Ticket {t}: lane {lane} leaves the barrier ({departed} of {lanes} gone)."),
            };
            (arrived, departed, said)
        }
    };
    // The tickets in the model's timeline: a row per lane, in the order the counter handed
    // them out (rows past REPLAY_LANES are left out of the picture, not out of the count).
    let trace = {
        let tickets = events.iter().map(|&(_, lane, arriving)| (lane, arriving));
        let trace = std::sync::Arc::new(crate::model::Trace::of_arrivals(tickets, lanes));
        Memo::new(move |_| trace.clone())
    };
    let state = Memo::new(move |_| state());
    // The tickets drawn in the model's scene, for a workgroup narrow enough to draw lane by lane.
    let speed = RwSignal::new(1.0);
    let scene = (lanes <= SCENE_LANES).then(|| {
        let program = std::sync::Arc::new(crate::lessons::barrier::ticket_program());
        let events = events.clone();
        let machine = crate::ui::machine_memo(move || crate::lessons::barrier::ticket_machine(program.clone(), &events, lanes, cursor.get()));
        view! { <crate::ui::scene::ReplayScene machine=machine trace=trace cursor=cursor total=total speed=speed test_id="tickets-scene" /> }
    });
    view! {
        <h4>"Replay: workgroup 0's tickets"</h4>
        <Player cursor=cursor total=total seek=seek name="tickets" speed=speed />
        {scene}
        <p class="narration" aria-live="polite" data-testid="tickets-narration">{move || state.get().2}</p>
        <p data-testid="tickets-counts">{move || {
            let (a, d, _) = state.get();
            format!("Arrived {a} of {lanes} · left {d} · barrier {}", if a == lanes { "released" } else { "holding" })
        }}</p>
        <crate::ui::timeline::Timeline trace=trace revision=Signal::derive(|| 0u64) threads=lanes.min(REPLAY_LANES)
            cursor=cursor seek=seek test_id="tickets-timeline" />
    }
}

/// What one barrier costs on the reader's GPU: each size in [`cost::PAGE_WORKGROUPS`], timed
/// with the barriers and without.
#[component]
fn GpuCost() -> impl IntoView {
    use crate::lessons::barrier::cost::{run_cost, BarrierCost, PAGE_ROUNDS, PAGE_WORKGROUPS, WIDTH};
    let job = GpuJob::<(AdapterSummary, Vec<BarrierCost>)>::new();
    crate::ui::gpu::warm(move || vec![(crate::lessons::barrier::kernels::BARRIER_COST, WIDTH)]);
    let run = Callback::new(move |()| {
        job.start_fixed(move |ctx| async move {
            let mut costs = Vec::new();
            for workgroups in PAGE_WORKGROUPS {
                costs.push(run_cost(&ctx, workgroups, PAGE_ROUNDS).await?);
            }
            Ok((ctx.adapter.clone(), costs))
        })
    });
    view! {
        <h3>"What a barrier costs"</h3>
        <p class="muted">{format!("Workgroups of {WIDTH} run {PAGE_ROUNDS} rounds of a neighbour exchange through workgroup memory, two workgroupBarrier()s a round, then the same rounds with none; each timed three times. One barrier costs the difference over the {} barriers a workgroup passes.", 2 * PAGE_ROUNDS)}</p>
        <RunForm job=job on_run=run name="cost" label="Time the barrier" />
        {move || job.result.get().map(|(adapter, costs)| {
            let exact = costs.iter().all(|c| c.exact);
            let rows: Vec<Vec<String>> = costs
                .iter()
                .map(|c| {
                    let ms = |ns: Option<f64>| ns.map_or("no timestamps".to_owned(), |ns| format!("{:.3} ms", Float(ns / 1e6)));
                    vec![
                        c.workgroups.to_string(),
                        ms(c.with_ns),
                        ms(c.without_ns),
                        match c.ns_per_barrier() {
                            Some(ns) if ns > 0.0 => format!("{ns:.1} ns", ns = Float(ns)),
                            Some(_) => "none measurable".to_owned(),
                            None => "—".to_owned(),
                        },
                    ]
                })
                .collect();
            view! {
                <TextTable headers=["workgroups at once", "with the barriers", "without", "one barrier"].map(str::to_owned).to_vec() rows=rows test_id="cost-table" />
                <p class=if exact { "verdict ok" } else { "verdict bad" } data-testid="cost-verdict" data-ok=exact.to_string()>
                    {if exact {
                        "With the barriers every value came out as the CPU works it out: each round read the neighbour's cell of that round. Without them the values race and are not checked; only the time counts."
                    } else {
                        "With the barriers some value differs from the CPU's: this GPU broke what workgroupBarrier() promises."
                    }}
                </p>
                {costs.iter().any(|c| c.ns_per_barrier().is_some_and(|ns| ns <= 0.0)).then(|| view! {
                    <p class="muted" data-testid="cost-unmeasurable">"None measurable: the run without the barriers was no faster, so what the barriers cost is lost in this adapter's timing."</p>
                })}
                <p class="muted">{format!("Adapter: {}.", crate::ui::figures::timed_adapter(&adapter))}</p>
            }
        })}
    }
}

/// The barrier's cost on a data-centre GPU, from `data/h100-barrier-cost.json`.
#[component]
fn MeasuredCost() -> impl IntoView {
    use crate::lessons::barrier::measured::{parse_cost_report, H100_BARRIER_COST};
    use crate::ui::measured::MeasuredTable;
    parse_cost_report(H100_BARRIER_COST).map(|(adapter, rows)| {
        let ms = |ns: Option<f64>| ns.map_or(String::new(), |ns| format!("{:.3} ms", Float(ns / 1e6)));
        let rows = rows
            .into_iter()
            .map(|r| vec![r.workgroups.to_string(), format!("{} of {}", r.runs_exact, r.runs), ms(r.with_ns_median), ms(r.without_ns_median), r.ns_per_barrier.map_or(String::new(), |ns| format!("{ns:.1} ns", ns = Float(ns)))])
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["workgroups at once", "runs exact", "with the barriers", "without", "one barrier"]
                note="Workgroups of 256 over 16,384 rounds (32,768 barriers each), medians of five runs, each of three timed passes, the same kernel run natively on that GPU." />
        }
    })
}
