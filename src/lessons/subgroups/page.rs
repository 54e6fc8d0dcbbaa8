//! The subgroups page: model lanes in subgroups of 4, 8 or 32 taking `subgroupAdd`, a ballot and
//! a shuffle butterfly together, the same add inside an `if`, and neighbours read with no
//! barrier, drawn subgroup by subgroup beside the kernel; the reader's GPU reporting its real
//! subgroup size and layout, the stale reads lockstep folklore rules out, three reductions and
//! two compactions timed.

use crate::text::Float;
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::subgroups::gpu::{run_records, run_rest, subgroups_problem, RecordsRun};
use crate::lessons::subgroups::measured::{parse_subgroups_report, SubgroupColumns, H100_SUBGROUPS};
use crate::lessons::subgroups::{
    check, kernels, mask_text, model_values, ReduceWay, SubgroupModel, SubgroupStep, SubgroupsRun, DISTANCE, INPUT, KEEP, MASK, RECORD_WORDS, SEEN, TOTAL, VALUE,
};
use crate::model::{Effect, Machine, Session, ThreadStatus};
use crate::ui::download::DownloadJson;
use crate::ui::figures::{figure, Figures};
use crate::ui::gpu::now_ms;
use crate::ui::gpu_form::{GpuJob, RunForm, SizeFields};
use crate::ui::gpu_half::{gpu_half, GpuPart, Part};
use crate::ui::lesson_page::{open_lesson, LessonPage};
use crate::ui::measured::{range, MeasuredDetails};
use crate::ui::model_panel::ModelState;
use crate::ui::table::TextTable;
use leptos::prelude::*;

/// Repeats of each timed way inside its timed pass: enough that a browser's coarsened clock
/// still resolves one dispatch.
const REPEATS: u32 = 10;

#[component]
pub fn SubgroupsLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<SubgroupModel>("subgroups");
    let variant = model.variant;
    view! {
        <LessonPage id="subgroups" title="Subgroups: what a warp shares, and the lockstep nobody promised" model=model problems=problems lead=words::LEAD words=words::TEXT
            bar=move || view! { <Choices model=model /> }
            start="Start: each thread holds one digit; the threads are cut into subgroups, drawn under the lanes."
            outcome=model_outcome
            picture=move || picture(model.session)
            kernel=Signal::derive(move || variant.get().step.kernel()) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, sizes) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
pub fn gpu_half(part: GpuPart) -> AnyView {
    part.view(|sizes: SizeFields| view! { <GpuSubgroups sizes=sizes /> <MeasuredElsewhere /> })
}

/// The program and the subgroup size, each a group of radio buttons; either restarts the model.
#[component]
fn Choices(model: ModelState<SubgroupModel>) -> impl IntoView {
    let variant = model.variant;
    // One table and one button for both groups: the program, then the subgroup size.
    let choice = move |(label, test_id, next): (&'static str, &'static str, fn(SubgroupModel) -> SubgroupModel)| {
        let pick = move || next(variant.get_untracked());
        view! {
            <button role="radio" aria-checked=move || (variant.get() == next(variant.get())).to_string() data-testid=test_id
                on:click=move |_| {
                    if variant.get_untracked() != pick() {
                        variant.set(pick());
                        model.rebuild();
                    }
                }>
                {label}
            </button>
        }
    };
    view! {
        <div class="variant-toggle" role="radiogroup" aria-label="kernel variant">{STEP_CHOICES.into_iter().map(choice).collect_view()}</div>
        <div class="variant-toggle" role="radiogroup" aria-label="subgroup size">{SIZE_CHOICES.into_iter().map(choice).collect_view()}</div>
    }
}

type Choice = (&'static str, &'static str, fn(SubgroupModel) -> SubgroupModel);

const STEP_CHOICES: [Choice; 5] = [
    ("subgroupAdd", "variant-add", |m| SubgroupModel { step: SubgroupStep::Add, ..m }),
    ("Inside an if", "variant-divergent", |m| SubgroupModel { step: SubgroupStep::Divergent, ..m }),
    ("Ballot compaction", "variant-ballot", |m| SubgroupModel { step: SubgroupStep::Ballot, ..m }),
    ("Shuffle butterfly", "variant-butterfly", |m| SubgroupModel { step: SubgroupStep::Butterfly, ..m }),
    ("No barrier", "variant-no-barrier", |m| SubgroupModel { step: SubgroupStep::NoBarrier, ..m }),
];

/// Who uses each size is in the lesson's text; the buttons say the number.
const SIZE_CHOICES: [Choice; 3] = [
    ("4 lanes", "subgroup-4", |m| SubgroupModel { size: 4, ..m }),
    ("8 lanes", "subgroup-8", |m| SubgroupModel { size: 8, ..m }),
    ("32 lanes", "subgroup-32", |m| SubgroupModel { size: 32, ..m }),
];

fn model_outcome(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    let n = m.threads.len();
    let size = m.subgroup_size;
    let totals = || (0..n).map(|t| m.memory.get(INPUT + n + RECORD_WORDS * t).copied().unwrap_or(0).to_string()).collect::<Vec<_>>().join(" ");
    match SubgroupStep::of(m) {
        Some(SubgroupStep::NoBarrier) => {
            let stale: Vec<String> = m.threads.iter().enumerate().filter(|(_, t)| t.regs.get(SEEN) == Some(&0)).map(|(i, _)| format!("t{i}")).collect();
            if stale.is_empty() {
                "Finished: every thread read its neighbour's cell after the neighbour wrote it. This schedule was kind; WGSL promised nothing.".to_owned()
            } else {
                format!("Finished with {} stale read(s) ({}): a thread read its neighbour's cell before the neighbour wrote it, though both are in one subgroup. Only a barrier orders the two.", stale.len(), stale.join(", "))
            }
        }
        Some(SubgroupStep::Ballot) => {
            let kept = m.memory.get(INPUT + n).copied().unwrap_or(0);
            let out: Vec<String> = m.memory.get(INPUT + n + 2..INPUT + n + 2 + kept as usize).unwrap_or_default().iter().map(i64::to_string).collect();
            format!(
                "Finished: {kept} values of {KEEP} or more kept ({}), with one atomicAdd per subgroup ({} in all) where the append lesson takes one per value.",
                out.join(" "),
                n.div_ceil(size)
            )
        }
        Some(SubgroupStep::Divergent) => format!(
            "Finished: totals = {}. Inside the if only the lanes with a value of {KEEP} or more were active, so each sum covers those alone; the lanes that skipped it hold 0.",
            totals()
        ),
        _ => format!("Finished: totals = {}. Every lane holds its own subgroup's sum, with no barrier and no workgroup memory.", totals()),
    }
}

/// The subgroups drawn one under another: each lane's value and state, and what the subgroup
/// operation of the last step did (the sum, the ballot's bits, the shuffle's partners). One
/// piece of markup written straight from the machine: numbers and fixed words only, far less
/// code than a component per lane.
fn picture(session: RwSignal<Session>) -> impl IntoView {
    move || {
        let (summary, html) = session.with(|s| picture_html(s.current(), s.last_events()));
        view! { <div class="subgroups" data-testid="subgroup-picture" aria-label=summary inner_html=html></div> }
    }
}

/// The picture's summary (its accessible name) and its markup: a box per subgroup, a box per
/// lane with its state in words (colour is never the only sign), the ballot's bits.
fn picture_html(m: &Machine, last: &[Event]) -> (String, String) {
    use std::fmt::Write;
    let program = m.program();
    let size = m.subgroup_size;
    let n = m.threads.len();
    let shows_total = program.register_names.get(TOTAL) == Some(&"total");
    let has_mask = program.register_names.get(MASK) == Some(&"ballot");
    // The first ballot's line: once a lane is past it, its subgroup has a mask to show.
    let ballot_pc = (0..program.len()).find(|&pc| program.is_subgroup_op(pc));
    let mut out = String::new();
    for g in 0..n.div_ceil(size) {
        let members = g * size..((g + 1) * size).min(n);
        // What this subgroup's operation did in the last step, if it took one.
        let just = last.iter().find_map(|e| match e.effect {
            Effect::SubgroupDone { function, subgroup, lanes, result } if subgroup == g => Some((function, lanes, result)),
            _ => None,
        });
        let note = match just {
            Some((function, lanes, result)) => {
                let who = lanes.count_ones();
                match function {
                    "subgroupAdd" => format!("subgroupAdd over {who} active lane(s): {result}"),
                    "subgroupBallot" => format!("subgroupBallot from {who} lane(s)"),
                    "subgroupShuffleXor" => format!("subgroupShuffleXor: each of {who} lane(s) takes its partner's value"),
                    "subgroupShuffle" => format!("subgroupShuffle: each of {who} lane(s) takes the value of the lane it names"),
                    "subgroupBroadcastFirst" => format!("subgroupBroadcastFirst: every lane gets {result}"),
                    _ => format!("{function} over {who} active lane(s)"),
                }
            }
            None if members.len() < size => format!("{} of {size} lanes: the rest are inactive", members.len()),
            None => format!("{size} lanes"),
        };
        let _ = write!(out, "<div class=\"subgroup\" data-testid=\"subgroup-{g}\"><div class=\"subgroup-head\"><strong>subgroup {g}</strong> <span class=\"muted\">{note}</span></div><ol class=\"subgroup-lanes\">");
        for t in members.clone() {
            let th = &m.threads[t];
            let took_part = just.is_some_and(|d| d.1 & (1u64 << (t % 64)) != 0);
            let (state, class) = match th.status {
                ThreadStatus::Done => ("done", " done"),
                ThreadStatus::InSubgroupOp => ("waits for its subgroup", " waiting"),
                ThreadStatus::AtBarrier => ("at the barrier", " waiting"),
                ThreadStatus::Ready if took_part => ("took part", " active"),
                ThreadStatus::Ready if just.is_some() => ("inactive: skipped it", " skipped"),
                ThreadStatus::Ready if program.is_subgroup_op(th.pc) => ("about to join", ""),
                ThreadStatus::Ready => ("running", ""),
            };
            let value = if shows_total && th.regs[TOTAL] != 0 {
                format!("{} → {}", th.regs[VALUE], th.regs[TOTAL])
            } else {
                program.register_text(VALUE, th.regs[VALUE])
            };
            let _ = write!(
                out,
                "<li class=\"lane-box{class}\" data-testid=\"lane-{t}\"><span class=\"lane-name\">t{t} · lane {}</span><span class=\"lane-value\">{value}</span><span class=\"lane-state\">{state}</span>",
                t % size
            );
            // For a shuffle just taken: the lane whose value this one received.
            if took_part && matches!(just, Some(("subgroupShuffleXor", ..))) {
                let partner = g * size + ((t % size) ^ th.regs[DISTANCE].max(0) as usize);
                if partner < n {
                    let _ = write!(out, "<span class=\"lane-from\">← t{partner}</span>");
                } else {
                    out.push_str("<span class=\"lane-from\">← no lane</span>");
                }
            }
            out.push_str("</li>");
        }
        out.push_str("</ol>");
        // The last ballot's mask once the subgroup has one, digit for digit as its lanes'
        // `mask` register and the narration write it: lane 0 first, a digit for every lane of
        // the mask (a lane missing from a short last subgroup reads 0, as on a GPU).
        let mask = m.threads[members.start].regs.get(MASK).copied().unwrap_or(0);
        if has_mask && (mask != 0 || m.threads[members.clone()].iter().any(|t| ballot_pc.is_some_and(|b| t.pc > b))) {
            let digits = mask_text(mask, program.mask_lanes);
            let _ = write!(
                out,
                "<div class=\"ballot-bits\" data-testid=\"ballot-{g}\" aria-label=\"ballot mask, lane 0 first: {digits}\"><span class=\"muted\">mask, lane 0 first:</span>"
            );
            for digit in digits.chars() {
                out.push_str(if digit == '1' { "<span class=\"bit on\">1</span>" } else { "<span class=\"bit\">0</span>" });
            }
            out.push_str("</div>");
        }
        out.push_str("</div>");
    }
    (format!("{n} threads in {} subgroup(s) of {size} lanes", n.div_ceil(size)), out)
}

use crate::model::Event;
use super::words;

/// A warp's sum and a ballot in CUDA, as the reference articles' warp-level primitives write them.
const CUDA: &str = "__device__ int warp_sum(int value) {\n    // every lane of the warp: take the value of the lane `mask` away, add it\n    for (int mask = 16; mask > 0; mask /= 2)\n        value += __shfl_xor_sync(0xffffffff, value, mask);\n    return value;                      // the warp's sum, in every lane\n}\n\n__device__ int rank_among_kept(bool keep) {\n    unsigned mask = __ballot_sync(0xffffffff, keep);\n    int lane = threadIdx.x % 32;\n    return __popc(mask & ((1u << lane) - 1));   // kept lanes below this one\n}";

#[derive(Clone)]
struct SubgroupsResult {
    adapter: AdapterSummary,
    params: GpuParams,
    first: Option<RecordsRun>,
    whole: Option<SubgroupsRun>,
    wall_ms: f64,
}

#[component]
fn GpuSubgroups(sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<SubgroupsResult>::new();
    let gpu = expect_context::<crate::ui::gpu::GpuHandle>();
    crate::ui::gpu::warm(move || {
        let w = sizes.opened().workgroup_size;
        let has = gpu.context().is_some_and(|ctx| ctx.adapter.subgroups.is_some());
        let mut k = vec![(kernels::REDUCE_TREE, w), (kernels::REDUCE_LAST_WARP, w)];
        if has {
            k.extend([kernels::ADD, kernels::DIVERGENT, kernels::BUTTERFLY, kernels::NEIGHBOUR, kernels::BALLOT, kernels::REDUCE_SUBGROUP].map(|kernel| (kernel, w)));
        }
        k
    });
    let run = Callback::new(move |()| {
        job.start(sizes, move |ctx, params| async move {
            let t0 = now_ms();
            let first = run_records(&ctx, params).await?;
            job.show_first(SubgroupsResult { adapter: ctx.adapter.clone(), params, first: Some(first.clone()), whole: None, wall_ms: now_ms() - t0 });
            let whole = run_rest(&ctx, params, REPEATS, first).await?;
            Ok(SubgroupsResult { adapter: ctx.adapter.clone(), params, first: None, whole: Some(whole), wall_ms: now_ms() - t0 })
        })
    });
    let missing = move || gpu.context().and_then(|ctx| subgroups_problem(&ctx));
    view! {
        {move || missing().map(|why| view! { <p class="notice" data-testid="no-subgroups">{why}</p> })}
        <p class="muted">"One run: subgroupAdd, the divergent add and the butterfly over the input with every record read back, the neighbour read without a barrier both ways, then the two compactions and the three reductions, each timed over 10 repeats."</p>
        <RunForm sizes=sizes job=job on_run=run />
        {move || job.result.get().map(|r| view! { <SubgroupsReport result=r /> })}
    }
}

#[component]
fn SubgroupsReport(result: SubgroupsResult) -> impl IntoView {
    let SubgroupsResult { adapter, params, first, whole, wall_ms } = result;
    match (first, whole) {
        (_, Some(whole)) => view! { <WholeReport adapter=adapter params=params run=whole wall_ms=wall_ms /> }.into_any(),
        (Some(first), None) => view! {
            <div class="run-report" data-testid="gpu-report" data-partial="true">
                <p class="notice" data-testid="gpu-first-look">"A first look: the subgroups your GPU formed, read back while the neighbour test, the compactions and the reductions run."</p>
                <LayoutFigures adapter=adapter first=first />
            </div>
        }
        .into_any(),
        (None, None) => ().into_any(),
    }
}

/// What the records showed: the size, the layout, the sums.
#[component]
fn LayoutFigures(adapter: AdapterSummary, first: RecordsRun) -> impl IntoView {
    let l = &first.layout;
    let said = adapter.subgroups.map_or("—".to_owned(), |s| if s.min == s.max { s.min.to_string() } else { format!("{} to {}", s.min, s.max) });
    let sizes = l.sizes.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    let lanes: Vec<String> = first.first_records.iter().map(|r| format!("{}", r.total)).collect();
    view! {
        <h4>"Your GPU's subgroups"</h4>
        <Figures items=vec![
            figure("Subgroup size, read back from the kernel", sizes.clone()).id("gpu-subgroup-size").raw(sizes),
            figure("The adapter says", said),
            figure("Subgroups (full ones)", format!("{} ({})", l.subgroups, l.full)).id("gpu-subgroups"),
            figure("Each a run of consecutive invocations", if l.consecutive { "yes" } else { "no" }).id("gpu-consecutive"),
            figure("subgroupAdd: wrong sums", format!("{} of {}", first.add.wrong, first.add.checked)).id("gpu-add-wrong"),
            figure("Shuffle butterfly: wrong sums (full subgroups)", format!("{} of {}", first.butterfly.wrong, first.butterfly.checked)).id("gpu-butterfly-wrong"),
            figure(
                "Inside the if: lanes whose sum covered every kept value of their subgroup",
                format!("{} of {} active", first.divergent.whole, first.divergent.active),
            )
            .id("gpu-divergent-whole"),
        ] />
        <p class="muted" data-testid="gpu-first-subgroup">{format!("The first subgroup's sums, lane by lane: {}. The values there are the model's digits, {} …", lanes.join(" "), model_values(8).iter().map(u32::to_string).collect::<Vec<_>>().join(" "))}</p>
    }
}

#[component]
fn WholeReport(adapter: AdapterSummary, params: GpuParams, run: SubgroupsRun, wall_ms: f64) -> impl IntoView {
    let n = params.invocations;
    let held = check(&run, params);
    let ok = held.promise_held && held.consistent;
    let per = |ns: Option<f64>| ns.map_or("no timestamps".to_owned(), |ns| format!("{:.1} µs", Float(ns / 1e3 / f64::from(run.repeats))));
    let [same, next] = run.neighbours;
    let neighbour_rows = vec![
        vec!["next lane, same subgroup".to_owned(), same.fresh.to_string(), same.stale.to_string()],
        vec!["same lane, next subgroup".to_owned(), next.fresh.to_string(), next.stale.to_string()],
    ];
    let reduce_rows = run
        .reductions
        .iter()
        .map(|r| {
            vec![
                r.way.label().to_owned(),
                format!("{} of {}", r.wrong, r.workgroups),
                per(r.gpu_ns),
                if r.way.promised() { "exact, on every GPU" } else { "nothing" }.to_owned(),
            ]
        })
        .collect();
    let compact_rows = ["ballot, one atomicAdd per subgroup", "one atomicAdd per kept value"]
        .into_iter()
        .zip(run.compactions)
        .map(|(way, c)| vec![way.to_owned(), c.kept.to_string(), c.atomics.to_string(), per(c.gpu_ns), if c.same_values { "yes" } else { "no" }.to_owned()])
        .collect();
    let last_warp = run.reductions.iter().find(|r| r.way == ReduceWay::LastWarp).copied();
    let verdict = if !ok {
        "A result WGSL promises came out wrong (an exact sum, a kept value, a promised reduction): a bug of this GPU or its driver. The tables say where.".to_owned()
    } else {
        let size = run.layout.sizes.first().copied().unwrap_or(0);
        let (wrong, groups) = last_warp.map_or((0, 0), |r| (r.wrong, r.workgroups));
        let within = if same.stale == 0 {
            format!("none of the {n} reads of the next lane in the same subgroup was stale: this GPU kept each subgroup's lanes together this time, which WGSL does not promise")
        } else {
            format!("{} of {n} reads of the next lane in the same subgroup were stale: lanes of one subgroup did not keep together", same.stale)
        };
        let narrow = if size < 32 { format!(" (this GPU's subgroups have {size} lanes, not 32)") } else { String::new() };
        let folklore = format!(
            "Without a barrier, {within}; {} of {n} reads in the next subgroup were stale. The last-warp reduction, which trusts 32 lanes to keep together, got {wrong} of {groups} workgroup sums wrong{narrow}.",
            next.stale
        );
        format!("Every promise held: subgroupAdd and the butterfly exact for all {n} invocations, both compactions kept the CPU's values, the tree and subgroupAdd reductions exact. {folklore}")
    };
    let export = {
        let (adapter, run) = (adapter.clone(), run.clone());
        move || (format!("syncscope-subgroups-{n}.json"), crate::lessons::subgroups::export::run(&adapter, params, &run, wall_ms).to_pretty())
    };
    let first = RecordsRun { layout: run.layout.clone(), add: run.add, butterfly: run.butterfly, divergent: run.divergent, first_records: run.first_records.clone() };
    view! {
        <div class="run-report" data-testid="gpu-report" data-partial="false">
            <LayoutFigures adapter=adapter.clone() first=first />
            <h4>"Lockstep folklore: a neighbour's cell, read with no barrier"</h4>
            <TextTable headers=["neighbour", "fresh", "stale"].map(str::to_owned).to_vec() rows=neighbour_rows test_id="gpu-neighbours" />
            <h4>"A workgroup's sum, three ways"</h4>
            // Headers of short words, so that the table fits a phone's screen: the heading says
            // the sums are the workgroups'.
            <TextTable headers=["way", "wrong sums", "GPU, per dispatch", "promised"].map(str::to_owned).to_vec() rows=reduce_rows test_id="gpu-reductions" />
            <h4>"Compaction: a ballot against one atomicAdd per value"</h4>
            <TextTable headers=["way", "kept", "atomic adds", "GPU, per dispatch", "the CPU's values"].map(str::to_owned).to_vec() rows=compact_rows test_id="gpu-compactions" />
            <p class=format!("verdict {}", if ok { "ok" } else { "bad" }) data-testid="gpu-verdict" data-ok=ok.to_string() data-promise-held=held.promise_held.to_string()>{verdict}</p>
            <p class="muted">{format!("Adapter: {}. The run took {wall_ms:.0} ms.", crate::ui::figures::timed_adapter(&adapter), wall_ms = Float(wall_ms))}</p>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
        </div>
    }
}

/// The same runs on a data-centre GPU, from `data/h100-subgroups.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    parse_subgroups_report(H100_SUBGROUPS).map(|(adapter, rows)| {
        let at = |r: &SubgroupColumns| format!("{} / {}", r.invocations, r.workgroup_size);
        let ms = |r: &SubgroupColumns| r.gpu_ms_median.map_or(String::new(), |ms| format!("{:.1} µs", Float(ms * 1e3)));
        let pick = |way: &'static str| rows.iter().filter(move |r| r.way == way);
        let size = rows.first().map_or(0, |r| r.subgroup_size);
        let folklore: Vec<Vec<String>> = pick("neighbour-same-subgroup")
            .zip(pick("neighbour-next-subgroup"))
            .zip(pick("reduce-last-warp-no-barrier"))
            .map(|((same, next), warp)| vec![at(same), range((same.stale_min, same.stale_max)), range((next.stale_min, next.stale_max)), range((warp.wrong_min, warp.wrong_max))])
            .collect();
        // The times in two tables of three columns, the reductions and the compactions: one of
        // five would not fit a phone's screen.
        let reduce_speed: Vec<Vec<String>> =
            pick("reduce-tree").zip(pick("reduce-subgroup-add")).map(|(tree, sub)| vec![at(tree), ms(tree), ms(sub)]).collect();
        let compact_speed: Vec<Vec<String>> =
            pick("compaction-ballot").zip(pick("compaction-per-value")).map(|(ballot, each)| vec![at(ballot), ms(ballot), ms(each)]).collect();
        view! {
            <MeasuredDetails adapter=adapter>
                <div class="prose" inner_html=words::H100></div>
                <p class="muted">{format!("Subgroups of {size}, read back from the kernels. Five runs per size; each range is the fewest to the most.")}</p>
                <TextTable headers=["invocations / workgroup", "stale, same subgroup", "stale, next subgroup", "last warp: wrong sums"].map(str::to_owned).to_vec() rows=folklore test_id="measured-folklore" />
                <TextTable headers=["invocations / workgroup", "reduction: tree", "reduction: subgroupAdd"].map(str::to_owned).to_vec() rows=reduce_speed test_id="measured-reduce-speed" />
                <TextTable headers=["invocations / workgroup", "compaction: ballot", "compaction: atomicAdd per value"].map(str::to_owned).to_vec() rows=compact_speed test_id="measured-compact-speed" />
                <p class="muted">"Times are medians of one dispatch, from the GPU's timestamps over a pass of 20."</p>
            </MeasuredDetails>
        }
    })
}
