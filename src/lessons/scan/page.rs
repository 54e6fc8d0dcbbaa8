//! The scan page: model threads scanning eight digits three ways (Hillis–Steele, with one
//! barrier taken away, and the work-efficient sweeps) beside their kernels; the reader's GPU
//! running each tile kernel with its wrong sums counted, a large array in three dispatches timed
//! against this browser's CPU, and the ordered compaction beside `atomicAdd`'s.

use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::scan::gpu::{input_values, run_append_beside, run_large, run_tiles};
use crate::lessons::scan::measured::{parse_scan_report, ScanColumns, H100_SCAN, H200_SCAN};
use crate::lessons::scan::single_pass::{run_all, single_pass_problem, LookBack, SinglePass, SinglePassRun, PAGE_VALUES, TILE};
use crate::lessons::scan::{look_back, cells_base, check, inclusive_scan, kernels, model_values, scan_bytes, scan_into, shown_slots, AppendBeside, ScanRun, ScanWay, TileRun, TILE_SUMS_WIDTH};
use crate::model::Machine;
use crate::text::{grouped, Float};
use crate::ui::download::DownloadJson;
use crate::ui::figures::{figure, Figures};
use crate::ui::gpu::now_ms;
use crate::ui::gpu_form::{GpuJob, RunForm, SizeFields};
use crate::ui::gpu_half::{gpu_half, GpuPart, Part};
use crate::ui::lesson_page::{open_lesson, LessonPage};
use crate::ui::measured::{range, MeasuredDetails};
use crate::ui::model_panel::VariantToggle;
use crate::ui::table::TextTable;
use leptos::prelude::*;
use super::words;

/// Repeats of the three dispatches inside one timed pass, and of the CPU's scan: enough that
/// a browser's coarsened clocks still resolve one scan.
const REPEATS: u32 = 10;

#[component]
pub fn ScanLesson() -> impl IntoView {
    let (model, sizes, problems) = open_lesson::<ScanWay>("scan");
    let way = model.variant;
    view! {
        <LessonPage id="scan" title="Prefix sums: a scan in a workgroup, and across many" model=model problems=problems lead=words::LEAD words=words::TEXT
            bar=move || view! { <VariantToggle model=model choices=&[
                (ScanWay::HillisSteele, "Hillis–Steele"),
                (ScanWay::OneBarrier, "One barrier taken away"),
                (ScanWay::WorkEfficient, "Work-efficient sweeps"),
                (ScanWay::SinglePass, "One pass, with the fallback"),
                (ScanWay::Tickets, "One pass, tickets"),
                (ScanWay::NoFallback, "One pass, no fallback"),
            ] /> }
            start="Start: one digit of the input for each thread (for each tile, in the one-pass ways); nothing summed yet."
            outcome=model_outcome
            kernel=Signal::derive(move || way.get().kernel()) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, sizes) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
pub fn gpu_half(part: GpuPart) -> AnyView {
    part.view(|sizes: SizeFields| view! { <GpuScan sizes=sizes /> <MeasuredElsewhere /> })
}

fn model_outcome(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    if look_back::is_single_pass(m.program()) {
        return look_back::outcome(m);
    }
    let n = m.threads.len();
    let want = inclusive_scan(&model_values(n));
    let wrong: Vec<String> = m.memory[cells_base(n)..]
        .iter()
        .zip(&want)
        .enumerate()
        .filter(|(_, (got, want))| **got != i64::from(**want))
        .map(|(i, (got, want))| format!("cells[{i}] = {got}, not {want}"))
        .collect();
    if wrong.is_empty() {
        format!("Finished: every cell holds the sum of the inputs up to it, {} in the last.", want.last().copied().unwrap_or(0))
    } else {
        format!(
            "Finished with {} wrong: {}. A thread read a cell its owner had already added into this step, so part of the input was counted twice.",
            wrong.len(),
            wrong.join("; ")
        )
    }
}

/// Hillis–Steele in CUDA, as the reference articles write a block's scan.
const CUDA: &str = "__global__ void scan(const int *in, int *out) {\n    __shared__ int cells[256];\n    int id = threadIdx.x;\n    int value = in[blockIdx.x * 256 + id];\n    cells[id] = value;\n    __syncthreads();\n    for (int offset = 1; offset < 256; offset *= 2) {\n        int other = id >= offset ? cells[id - offset] : 0;\n        __syncthreads();          // everyone has read\n        value += other;\n        cells[id] = value;\n        __syncthreads();          // everyone has written\n    }\n    out[blockIdx.x * 256 + id] = value;\n}";

#[derive(Clone)]
struct ScanResult {
    adapter: AdapterSummary,
    params: GpuParams,
    /// The tile kernels alone: a first look while the rest runs.
    first: Option<Vec<TileRun>>,
    whole: Option<Whole>,
    wall_ms: f64,
}

#[derive(Clone)]
struct Whole {
    run: ScanRun,
    beside: AppendBeside,
    cpu_ms: f64,
    /// The single pass and the copy, or why this adapter cannot run the single pass.
    single: Result<SinglePass, String>,
}

#[component]
fn GpuScan(sizes: SizeFields) -> impl IntoView {
    let job = GpuJob::<ScanResult>::new();
    let gpu = expect_context::<crate::ui::gpu::GpuHandle>();
    crate::ui::gpu::warm_flagged(move || {
        let w = sizes.opened().workgroup_size;
        let mut k: Vec<_> = ScanWay::TILE_WAYS.iter().map(|way| (way.kernel(), w, None)).collect();
        k.extend([(kernels::ADD_BACK, w, None), (kernels::TILE_SUMS, TILE_SUMS_WIDTH, None), (crate::lessons::append::Append::kernel(), w, None)]);
        k.push((kernels::COPY, crate::lessons::scan::single_pass::WIDTH, None));
        // The single pass scans its tiles with subgroup operations: compiled only where they
        // are, once by workgroup id and once by ticket; so does the reduce-then-scan.
        if gpu.context().is_some_and(|ctx| single_pass_problem(&ctx).is_none()) {
            k.extend(LookBack::ALL.map(LookBack::pipeline_key));
            // The reduce-then-scan, which runs beside it.
            k.extend([kernels::REDUCE_TILES, kernels::TILE_OFFSETS, kernels::TILES_OFFSET].map(|kernel| (kernel, crate::lessons::scan::single_pass::WIDTH, None)));
        }
        k
    });
    let run = Callback::new(move |()| {
        job.start(sizes, move |ctx, params| async move {
            // The tile kernels first, shown at once: where barriers are slow (a software
            // adapter) the rest takes longer than a reader waits for a click.
            let t0 = now_ms();
            let tiles = run_tiles(&ctx, params).await?;
            job.show_first(ScanResult { adapter: ctx.adapter.clone(), params, first: Some(tiles.clone()), whole: None, wall_ms: now_ms() - t0 });
            let run = run_large(&ctx, params, REPEATS, tiles).await?;
            let beside = run_append_beside(&ctx, params).await?;
            let values = input_values(params.invocations);
            let mut out = vec![0u32; values.len()];
            let c0 = now_ms();
            for _ in 0..REPEATS {
                scan_into(std::hint::black_box(&values), std::hint::black_box(&mut out));
            }
            let cpu_ms = (now_ms() - c0) / f64::from(REPEATS);
            // At least 16 tiles, so that tiles look back at each other.
            let single = match single_pass_problem(&ctx) {
                Some(why) => Err(why),
                None => Ok(run_all(&ctx, params.invocations.max(PAGE_VALUES), REPEATS).await?),
            };
            Ok(ScanResult { adapter: ctx.adapter.clone(), params, first: None, whole: Some(Whole { run, beside, cpu_ms, single }), wall_ms: now_ms() - t0 })
        })
    });
    view! {
        <div class="prose" inner_html=words::GPU></div>
        <p class="muted">{format!("One run: each tile kernel once over the whole input, then three dispatches for the large scan (timed over 10 repeats), the compaction and the append lesson's atomicAdd on the same values; then, over the same values or {} if that is more (16 tiles, so that tiles look back), the single pass three ways (tiles by workgroup id, by ticket, by ticket without the fallback), the reduce-then-scan built the same way, and a copy of the same values, each timed over 10 repeats on the same buffers.", grouped(u64::from(PAGE_VALUES)))}</p>
        <RunForm sizes=sizes job=job on_run=run />
        {move || job.result.get().map(|r| view! { <ScanReport result=r /> })}
    }
}

fn way_label(way: ScanWay) -> &'static str {
    match way {
        ScanWay::HillisSteele => "Hillis–Steele",
        ScanWay::OneBarrier => "one barrier taken away",
        ScanWay::WorkEfficient => "work-efficient",
        ScanWay::SinglePass => "single pass",
        ScanWay::Tickets => "single pass, tickets",
        ScanWay::NoFallback => "single pass, no fallback",
    }
}

#[component]
fn ScanReport(result: ScanResult) -> impl IntoView {
    let ScanResult { adapter, params, first, whole, wall_ms } = result;
    match (first, whole) {
        (_, Some(whole)) => view! { <WholeReport adapter=adapter params=params whole=whole wall_ms=wall_ms /> }.into_any(),
        (Some(tiles), None) => view! {
            <div class="run-report" data-testid="gpu-report" data-partial="true">
                <p class="notice" data-testid="gpu-first-look">"A first look: the tile kernels, read back while the three dispatches, the compaction and atomicAdd run."</p>
                <TileTable tiles=tiles params=params />
            </div>
        }
        .into_any(),
        (None, None) => ().into_any(),
    }
}

/// How each tile kernel's sums came out, and the first tile the one-barrier kernel got wrong.
#[component]
fn TileTable(tiles: Vec<TileRun>, params: GpuParams) -> impl IntoView {
    let (n, groups) = (params.invocations, params.workgroups());
    let rows = tiles
        .iter()
        .map(|t| {
            vec![
                way_label(t.way).to_owned(),
                format!("{} of {n}", t.wrong),
                format!("{} of {groups}", t.wrong_tiles),
                if t.way.promised() { "exact, on every GPU" } else { "nothing" }.to_owned(),
            ]
        })
        .collect();
    let first_wrong = tiles.iter().find(|t| t.way == ScanWay::OneBarrier).and_then(|t| t.first_wrong.clone());
    view! {
        <h4>"One tile per workgroup"</h4>
        <TextTable headers=["way", "wrong sums", "tiles with one", "promised"].map(str::to_owned).to_vec() rows=rows test_id="gpu-tiles" />
        {first_wrong.map(|tile| view! { <FirstWrongTile tile=tile width=params.workgroup_size /> })}
    }
}

#[component]
fn WholeReport(adapter: AdapterSummary, params: GpuParams, whole: Whole, wall_ms: f64) -> impl IntoView {
    let Whole { run, beside, cpu_ms, single } = whole;
    let n = params.invocations;
    let tiles = params.workgroups();
    let held = check(&run, Some(&beside)).promise_held && single.as_ref().ok().is_none_or(SinglePass::promise_held);
    let one = run.tiles.iter().find(|t| t.way == ScanWay::OneBarrier).cloned();
    let (verdict, tone) = if !held {
        (
            "A way that every GPU must get right got a sum wrong (or the compaction lost its order): a bug of this GPU or its driver. The tables say where.".to_owned(),
            "bad",
        )
    } else {
        let missing = match &one {
            Some(t) if t.wrong > 0 => format!(
                " With one barrier taken away, {} of {n} sums came out wrong, in {} of {tiles} tiles: reads of cells already added into.",
                t.wrong, t.wrong_tiles
            ),
            _ => " With one barrier taken away no sum was wrong this time: this GPU ran each tile's reads before its writes. WGSL does not promise that; the barrier stays.".to_owned(),
        };
        let one_pass = match &single {
            Ok(s) => format!(", and all {} of the single pass and of the reduce-then-scan", s.with.values),
            Err(_) => String::new(),
        };
        (format!("Every promised sum is exact: both tile scans and all {n} running totals of the three dispatches, ending at {}{one_pass}.{missing}", run.total), "ok")
    };
    let gpu_ms = run.gpu_ns.map(|ns| ns / 1e6);
    // Side by side from the first slot where they part: before it the two may agree for a
    // while (a software adapter serves its first workgroup in order).
    let slots = shown_slots(beside.first_apart, run.kept_values.len().min(beside.values.len()));
    let shown = |v: &[u32]| list(v.get(slots.clone()).unwrap_or_default());
    let compaction = vec![vec!["scan (input order)".to_owned(), shown(&run.kept_values)], vec!["atomicAdd (order served)".to_owned(), shown(&beside.values)]];
    let apart = match beside.first_apart {
        Some(0) => format!("Slots 0 to {}: the two part at the very first slot.", slots.end.saturating_sub(1)),
        Some(slot) => format!("Slots {} to {}: the first {slot} held the same values both ways; at slot {slot} they part.", slots.start, slots.end.saturating_sub(1)),
        None => "The first slots: atomicAdd served them all in input order this time.".to_owned(),
    };
    let export = {
        let (adapter, run, beside, single) = (adapter.clone(), run.clone(), beside.clone(), single.clone());
        move || (format!("syncscope-scan-{n}.json"), crate::lessons::scan::export::run(&adapter, params, &run, &beside, single.as_ref().ok(), cpu_ms, wall_ms).to_pretty())
    };
    let three_gb = gpu_ms.map(|ms| scan_bytes(n) / (ms * 1e6));
    view! {
        <div class="run-report" data-testid="gpu-report" data-partial="false">
            <TileTable tiles=run.tiles.clone() params=params />
            <h4>"The whole array, in three dispatches"</h4>
            <Figures items=vec![
                figure("Values × tile", format!("{n} in {tiles} tile(s) of {}", params.workgroup_size)),
                figure("Wrong running totals", run.large_wrong.to_string()).id("gpu-large-wrong"),
                figure("Last running total", run.total.to_string()).id("gpu-total"),
                figure("GPU, per scan", gpu_ms.map_or("no timestamps on this adapter".to_owned(), |ms| format!("{ms:.3} ms", ms = Float(ms)))).timed_on(&adapter),
                figure("As bandwidth", gpu_ms.map_or("—".to_owned(), |ms| bandwidth(scan_bytes(n) / (ms * 1e6)))).timed_on(&adapter),
                figure("This browser's CPU, per scan", format!("{cpu_ms:.3} ms", cpu_ms = Float(cpu_ms))).id("cpu-ms"),
            ] />
            <SinglePassReport single=single three=(n, three_gb) adapter=adapter.clone() />
            <h4>"Ordered compaction, beside atomicAdd"</h4>
            <Figures items=vec![
                figure("Kept (value below 50)", run.kept.to_string()).id("gpu-kept"),
                figure("In input order", if run.kept_in_order { "yes" } else { "no" }).id("gpu-kept-in-order"),
                figure("atomicAdd kept", format!("{}, the same values: {}", beside.count, if beside.same_values { "yes" } else { "no" })).id("gpu-append-count"),
                figure("atomicAdd's slots out of input order", format!("{} of {}", beside.out_of_place, beside.count)).id("gpu-append-out-of-place"),
            ] />
            <p class="muted" data-testid="gpu-kept-apart">{apart}</p>
            <TextTable headers=["way", "kept values"].map(str::to_owned).to_vec() rows=compaction test_id="gpu-kept-first" />
            <p class=format!("verdict {tone}") data-testid="gpu-verdict" data-ok=held.to_string() data-promise-held=held.to_string()>{verdict}</p>
            <p class="muted">{format!("Adapter: {}. The run took {wall_ms:.0} ms.", crate::ui::figures::timed_adapter(&adapter), wall_ms = Float(wall_ms))}</p>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
        </div>
    }
}

/// The single pass beside the copy and the three dispatches: its sums, its speed as a share of
/// the copy's, and what its look-backs did.
#[component]
fn SinglePassReport(single: Result<SinglePass, String>, three: (u32, Option<f64>), adapter: AdapterSummary) -> impl IntoView {
    let single = match single {
        Ok(single) => single,
        Err(why) => return view! { <h4>"The whole array in one pass"</h4> <p class="notice" data-testid="gpu-single-missing">{why}". The tile scans and the three dispatches above ran without them; the model at the top of the page steps the single pass (pick “One pass”)."</p> }.into_any(),
    };
    let n = single.with.values;
    let gb = |ns: Option<f64>| ns.map(|ns| scan_bytes(n) / ns);
    let copy_gb = gb(single.copy_ns);
    let speed = |g: Option<f64>| match (g, copy_gb) {
        (Some(g), Some(c)) => format!("{}, {:.0} % of the copy", bandwidth(g), Float(100.0 * g / c)),
        (Some(g), None) => bandwidth(g),
        _ => "no timestamps on this adapter".to_owned(),
    };
    let way = |r: &SinglePassRun| format!("{} of {n} wrong; {} fallback(s), {} give-up(s)", r.wrong, r.fallbacks, r.give_ups);
    let looks: Vec<Vec<String>> = single
        .with
        .depth
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, &c)| c > 0)
        .map(|(w, c)| vec![if w == 7 { "7 or more".to_owned() } else { w.to_string() }, c.to_string()])
        .collect();
    view! {
        <h4>"The whole array in one pass"</h4>
        <Figures items=vec![
            figure("Values × tiles", format!("{n} in {} tiles of {TILE}", single.with.tiles)).id("gpu-single-tiles"),
            figure("By workgroup id, with the fallback", way(&single.with)).id("gpu-single-wrong"),
            figure("By ticket, with the fallback", way(&single.tickets)).id("gpu-single-tickets"),
            figure("By ticket, without it", way(&single.without)).id("gpu-single-no-fallback"),
            figure("Single pass", speed(gb(single.with.gpu_ns))).id("gpu-single-speed").timed_on(&adapter),
            figure("Single pass, by ticket", speed(gb(single.tickets.gpu_ns))).id("gpu-single-tickets-speed").timed_on(&adapter),
            figure("Reduce, then scan (built the same way)", format!("{} of {n} wrong; {}", single.three_pass.wrong, speed(gb(single.three_pass.gpu_ns)))).id("gpu-reduce-then-scan").timed_on(&adapter),
            figure("Three dispatches, built to teach", match three {
                (values, gb) if values == n => speed(gb),
                (values, gb) => format!("{} over the {values} values above", gb.map_or("no timestamps on this adapter".to_owned(), bandwidth)),
            }).id("gpu-three-speed").timed_on(&adapter),
            figure("A vec4 copy of the same values", copy_gb.map_or("no timestamps on this adapter".to_owned(), bandwidth)).id("gpu-copy-speed").timed_on(&adapter),
        ] />
        <p class="muted">{format!("Looks each tile's look-back took, over {} scans (tile 0 looks at nothing):", single.with.repeats)}</p>
        <TextTable headers=["looks", "tiles"].map(str::to_owned).to_vec() rows=looks test_id="gpu-single-looks" />
    }
    .into_any()
}

/// GB/s, or MB/s where that would read 0.0 (a software adapter, a small array).
fn bandwidth(gb_per_s: f64) -> String {
    if gb_per_s >= 0.1 {
        format!("{gb_per_s:.1} GB/s", gb_per_s = Float(gb_per_s))
    } else {
        format!("{:.1} MB/s", Float(gb_per_s * 1e3))
    }
}

fn list(values: &[u32]) -> String {
    values.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

/// The first tile the one-barrier kernel got wrong: its first cells, the GPU's beside the CPU's.
#[component]
fn FirstWrongTile(tile: (u32, Vec<(u32, u32)>), width: u32) -> impl IntoView {
    let (index, cells) = tile;
    let first = u64::from(index) * u64::from(width);
    let rows = cells
        .iter()
        .enumerate()
        .map(|(i, &(got, right))| vec![format!("{}", first + i as u64), if got == right { got.to_string() } else { format!("✕ {got}") }, right.to_string()])
        .collect();
    view! {
        <p class="muted">{format!("The first tile with a wrong sum, tile {index}, from its start (✕ marks a wrong sum):")}</p>
        <TextTable headers=["index", "GPU's sum", "right sum"].map(str::to_owned).to_vec() rows=rows test_id="gpu-first-wrong" />
    }
}

/// The H200 host's plain CPU scan of 2^24 values in its report's `rows`, in whole milliseconds
/// (the H100's paragraph sets it beside that machine's slower scan).
fn h200_cpu_ms(rows: &[ScanColumns]) -> String {
    let ms = rows.iter().find(|r| r.way == "three-dispatches" && r.invocations == 1 << 24).and_then(|r| r.cpu_ms_median);
    ms.map_or_else(|| "a few".to_owned(), |ms| format!("{:.0}", Float(ms)))
}

/// The same runs on data-centre GPUs: the H200's single pass beside its reduce-then-scan, the
/// copy and CUB (`data/h200-scan.json`), then the H100's workgroup scans, three dispatches and
/// single pass (`data/h100-scan.json`).
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    let h200 = parse_scan_report(H200_SCAN);
    let cpu_ms = h200_cpu_ms(h200.as_ref().map_or(&[], |(_, rows)| rows));
    view! { <MeasuredH200 report=h200 /> <MeasuredH100 h200_cpu_ms=cpu_ms /> }
}

/// The H200's figures: the single pass against the copy, the reduce-then-scan and CUB at each
/// size, the paragraph's figures filled in from the same rows.
#[component]
fn MeasuredH200(report: Option<(String, Vec<ScanColumns>)>) -> impl IntoView {
    report.map(|(adapter, rows)| {
        let find = |way: &str, n: u32| rows.iter().find(|x| x.way == way && x.invocations == n);
        let gb = |way: &str, n: u32| find(way, n).and_then(|r| r.gb_per_s).unwrap_or(0.0);
        let mut sizes: Vec<u32> = rows.iter().filter(|r| r.way == "cub").map(|r| r.invocations).collect();
        sizes.sort_unstable();
        let (small, large) = (sizes.first().copied().unwrap_or(0), sizes.last().copied().unwrap_or(0));
        let whole = |g: f64| grouped(g.round() as u64);
        let share = |way: &str, n: u32| format!("{:.0}", Float(100.0 * gb(way, n) / gb("copy", n)));
        let fills = [
            ("{values_24}", grouped(u64::from(small))),
            ("{values_27}", grouped(u64::from(large))),
            ("{single_24}", whole(gb("single-pass", small))),
            ("{single_27}", whole(gb("single-pass", large))),
            ("{share_24}", share("single-pass", small)),
            ("{share_27}", share("single-pass", large)),
            ("{copy_24}", whole(gb("copy", small))),
            ("{rts_24}", whole(gb("reduce-then-scan", small))),
            ("{rts_27}", whole(gb("reduce-then-scan", large))),
            ("{rts_share_24}", share("reduce-then-scan", small)),
            ("{rts_share_27}", share("reduce-then-scan", large)),
            ("{cub_24}", whole(gb("cub", small))),
            ("{cub_27}", whole(gb("cub", large))),
            ("{cub_ratio_24}", format!("{:.2}", Float(gb("single-pass", small) / gb("cub", small)))),
            ("{cub_ratio_27}", format!("{:.2}", Float(gb("single-pass", large) / gb("cub", large)))),
        ];
        let words = fills.iter().fold(words::H200.to_owned(), |text, (key, value)| text.replace(key, value));
        let cell = |way: &str, n: u32| match (find(way, n).and_then(|r| r.gb_per_s), find("copy", n).and_then(|r| r.gb_per_s)) {
            (Some(g), Some(c)) => format!("{} GB/s, {:.0} %", whole(g), Float(100.0 * g / c)),
            _ => String::new(),
        };
        let exact = |r: Option<&ScanColumns>| r.map_or(String::new(), |r| format!("{} of {}", r.runs_exact, r.runs));
        // Two tables of four and five columns, which fit a phone's width.
        let speeds = sizes.iter().map(|&n| vec![grouped(u64::from(n)), cell("single-pass", n), cell("reduce-then-scan", n), cell("cub", n)]).collect();
        let beside = sizes
            .iter()
            .map(|&n| {
                vec![
                    grouped(u64::from(n)),
                    cell("single-pass-tickets", n),
                    find("copy", n).and_then(|r| r.gb_per_s).map_or(String::new(), |g| format!("{} GB/s", whole(g))),
                    find("copy-cuda", n).and_then(|r| r.gb_per_s).map_or(String::new(), |g| format!("{} GB/s", whole(g))),
                    format!("{} / {} / {}", exact(find("single-pass", n)), exact(find("reduce-then-scan", n)), exact(find("cub", n))),
                ]
            })
            .collect();
        view! {
            <details class="measured" data-testid="measured-h200">
                <summary>{format!("Measured on an {adapter} (native wgpu, Vulkan; CUB with CUDA)")}</summary>
                <div class="prose" data-testid="measured-h200-words" inner_html=words></div>
                <TextTable headers=["values", "single pass, share of the copy", "reduce, then scan", "CUB (CUDA)"].map(str::to_owned).to_vec() rows=speeds test_id="measured-h200-table" />
                <TextTable headers=["values", "by ticket", "vec4 copy", "cudaMemcpy", "exact: one pass / three / CUB"].map(str::to_owned).to_vec() rows=beside test_id="measured-h200-beside" />
                <p class="muted">"Each size on one set of buffers: every way run once, then seven rounds that time each way once (20 scans a timed pass), each round starting one way further on; medians. A size that met the card's slower state was timed again. Then five passes of each scan read back and checked. Shares are of the vec4 copy over the same buffers; CUB's and cudaMemcpy's rows were timed the same way with CUDA, on the same card, just before."</p>
            </details>
        }
    })
}

/// The H100's figures, as they were measured there (before the reduce-then-scan existed).
#[component]
fn MeasuredH100(h200_cpu_ms: String) -> impl IntoView {
    parse_scan_report(H100_SCAN).map(|(adapter, rows)| {
        let find = |way: &str, n: u32, w: u32| rows.iter().find(|x| x.way == way && x.invocations == n && x.workgroup_size == w).cloned();
        let gb = |g: Option<f64>| g.map_or(String::new(), |g| format!("{g:.0} GB/s", g = Float(g)));
        let table = rows
            .iter()
            .filter(|r| r.way == "three-dispatches")
            .map(|r| {
                let one = find("one-barrier", r.invocations, r.workgroup_size).map_or(String::new(), |o| range((o.wrong_min, o.wrong_max)));
                vec![
                    format!("{} / {}", r.invocations, r.workgroup_size),
                    one,
                    r.gpu_ms_median.map_or(String::new(), |ms| format!("{ms:.3} ms", ms = Float(ms))),
                    gb(r.gb_per_s),
                    r.cpu_ms_median.map_or(String::new(), |ms| format!("{ms:.2} ms", ms = Float(ms))),
                ]
            })
            .collect();
        let share = |g: Option<f64>, copy: Option<f64>| match (g, copy) {
            (Some(g), Some(c)) => format!("{g:.0} GB/s, {:.0} %", Float(100.0 * g / c), g = Float(g)),
            _ => String::new(),
        };
        let single = rows
            .iter()
            .filter(|r| r.way == "single-pass")
            .map(|r| {
                let copy = find("copy", r.invocations, r.workgroup_size).and_then(|c| c.gb_per_s);
                let tickets = find("single-pass-tickets", r.invocations, r.workgroup_size);
                let without = find("single-pass-no-fallback", r.invocations, r.workgroup_size);
                let three = rows.iter().find(|x| x.way == "three-dispatches" && x.invocations == r.invocations).and_then(|x| x.gb_per_s);
                vec![
                    r.invocations.to_string(),
                    format!("{} of {}", r.runs_exact, r.runs),
                    share(r.gb_per_s, copy),
                    share(tickets.as_ref().and_then(|x| x.gb_per_s), copy),
                    share(without.as_ref().and_then(|x| x.gb_per_s), copy),
                    share(three, copy),
                    gb(copy),
                    format!("{} / {}", r.fallbacks + tickets.map_or(0, |x| x.fallbacks), without.map_or(0, |x| x.give_ups)),
                ]
            })
            .collect();
        view! {
            <MeasuredDetails adapter=adapter>
                <div class="prose" inner_html=words::H100.replace("{h200_cpu_ms}", &h200_cpu_ms)></div>
                <TextTable headers=["values / tile", "wrong sums, one barrier", "three dispatches, built to teach", "as bandwidth", "one CPU core"].map(str::to_owned).to_vec() rows=table />
                <p class="muted">"Five runs per size (medians), the same kernels run natively on that GPU. Bandwidth counts each value read once and written once; its datasheet gives 3,350 GB/s. Up to 4,194,304 values the scan's input and output together fit the card's 50 MB cache."</p>
                <TextTable headers=["values", "single pass exact", "single pass, share of the copy", "by ticket", "by ticket, no fallback", "three dispatches", "vec4 copy", "fallbacks / give-ups"].map(str::to_owned).to_vec() rows=single />
                <p class="muted">"The single pass and the copy: five timed passes of 20 per size (medians), tiles of 8,192 values, then five more passes of the scan read back and checked. Fallbacks and give-ups summed over every scan: an H100 ran every tile it waited on."</p>
            </MeasuredDetails>
        }
    })
}


