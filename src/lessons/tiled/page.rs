//! The tiled-multiply page: sixteen model threads loading, waiting, multiplying and waiting
//! beside the three kernels, and the product the reader's GPU wrote with its wrong cells marked.

use crate::text::Float;
use crate::gpu::AdapterSummary;
use crate::lessons::tiled::gpu::run_tiled;
use crate::lessons::tiled::{model_tile_expected, product, wrong_cells, c_cell, TiledSize, TiledVariant, TILE};
use crate::model::Machine;
use crate::site::settings::LessonVariant;
use crate::ui::download::DownloadJson;
use crate::ui::figures::{figure, Figures};
use crate::ui::gpu::now_ms;
use crate::ui::gpu_form::{GpuJob, RunForm};
use crate::ui::gpu_half::{gpu_half, GpuPart, Part};
use crate::ui::lesson_page::{open_lesson, LessonPage};
use crate::ui::matrix::MatrixGrid;
use crate::ui::model_panel::VariantToggle;
use leptos::prelude::*;
use super::words;

#[component]
pub fn TiledLesson() -> impl IntoView {
    let (model, _, problems) = open_lesson::<TiledVariant>("tiled");
    let variant = model.variant;
    view! {
        <LessonPage id="tiled" title="Tiles and two barriers" model=model problems=problems lead=words::LEAD words=words::TEXT
            bar=move || view! { <VariantToggle model=model choices=&[
                (TiledVariant::Both, "Both barriers"),
                (TiledVariant::WithoutFirst, "Without the first"),
                (TiledVariant::WithoutSecond, "Without the second"),
            ] /> }
            start="Start: a and b hold the inputs; the tiles in workgroup memory are 0. The 16 threads compute the top-left 4 × 4 tile of c."
            outcome=model_outcome
            kernel=Signal::derive(move || variant.get().kernel()) cuda=CUDA.to_owned()
            gpu=gpu_half!(Part::Panel, variant) />
    }
}

/// The lesson's GPU half (see [`crate::ui::gpu_half`]): in the built site a chunk of its own,
/// fetched as the reader nears the GPU panel.
pub fn gpu_half(part: GpuPart) -> AnyView {
    part.view(|variant: RwSignal<TiledVariant>| view! { <GpuTiled variant=variant /> <MeasuredElsewhere /> })
}

fn model_outcome(m: &Machine) -> String {
    if !m.is_finished() {
        return String::new();
    }
    let expected = model_tile_expected();
    let wrong: Vec<String> = (0..TILE * TILE)
        .filter(|&i| m.memory[c_cell(i)] != expected[i])
        .map(|i| format!("c[{}][{}] = {} (should be {})", i / TILE, i % TILE, m.memory[c_cell(i)], expected[i]))
        .collect();
    if wrong.is_empty() {
        "Finished: all 16 cells of the tile equal the product.".to_owned()
    } else {
        format!("Finished with {} wrong cell(s): {}.", wrong.len(), wrong.join(", "))
    }
}

/// The same kernel in CUDA, as it is usually written (whole numbers here, so every cell is exact).
const CUDA: &str = "#define TILE 4\n__global__ void tiled(const unsigned *a, const unsigned *b, unsigned *c, unsigned n) {\n    __shared__ unsigned tile_a[TILE][TILE], tile_b[TILE][TILE];\n    unsigned ty = threadIdx.y, tx = threadIdx.x;\n    unsigned row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;\n    unsigned acc = 0;\n    for (unsigned m = 0; m < n / TILE; m++) {\n        tile_a[ty][tx] = a[row * n + m * TILE + tx];\n        tile_b[ty][tx] = b[(m * TILE + ty) * n + col];\n        __syncthreads();          // the tile is whole\n        for (unsigned k = 0; k < TILE; k++)\n            acc += tile_a[ty][k] * tile_b[k][tx];\n        __syncthreads();          // everyone is done with it\n    }\n    c[row * n + col] = acc;\n}";

/// Widest product the page draws cell by cell; larger ones list their wrong cells.
const DRAWN: u32 = 32;

#[derive(Clone)]
struct TiledResult {
    adapter: AdapterSummary,
    variant: TiledVariant,
    size: TiledSize,
    products: Vec<Vec<u32>>,
    wall_ms: f64,
}

#[component]
fn GpuTiled(variant: RwSignal<TiledVariant>) -> impl IntoView {
    let job = GpuJob::<TiledResult>::new();
    let n = RwSignal::new(TiledSize::DEFAULT.n);
    let tile = RwSignal::new(TiledSize::DEFAULT.tile);
    crate::ui::gpu::warm(move || vec![(variant.get().kernel(), tile.get() * tile.get())]);
    let start = move |runs: u32| {
        let variant = variant.get_untracked();
        let size = TiledSize { n: n.get_untracked(), tile: tile.get_untracked() };
        job.start_fixed(move |ctx| async move {
            let t0 = now_ms();
            let products = run_tiled(&ctx, variant, size, runs).await?;
            Ok(TiledResult { adapter: ctx.adapter.clone(), variant, size, products, wall_ms: now_ms() - t0 })
        });
    };
    let choice = |label: &'static str, signal: RwSignal<u32>, options: &'static [u32], test_id: &'static str| {
        view! {
            <label>{label}
                <select data-testid=test_id on:change=move |e| {
                    if let Ok(v) = event_target_value(&e).parse() { signal.set(v) }
                }>
                    {options.iter().map(|&o| view! { <option value=o.to_string() selected=move || signal.get() == o>{o.to_string()}</option> }).collect_view()}
                </select>
            </label>
        }
    };
    view! {
        <div class="gpu-form">
            {choice("Matrix width ", n, &TiledSize::WIDTHS, "tiled-n")}
            {choice("Tile width ", tile, &TiledSize::TILES, "tiled-tile")}
        </div>
        <RunForm job=job on_run=Callback::new(move |()| start(1)) on_run_100=Callback::new(move |()| start(100)) />
        {move || job.result.get().map(|r| view! { <TiledReport result=r /> })}
    }
}

#[component]
fn TiledReport(result: TiledResult) -> impl IntoView {
    let TiledResult { adapter, variant, size, products, wall_ms } = result;
    let n = size.n;
    let want = product(n);
    let wrong: Vec<Vec<usize>> = products.iter().map(|c| wrong_cells(&want, c)).collect();
    let runs = products.len();
    let runs_wrong = wrong.iter().filter(|w| !w.is_empty()).count();
    let most = wrong.iter().map(Vec::len).max().unwrap_or(0);
    // Whatever a missing barrier lets through, a tile cell holds 0 or an input (at most 5),
    // so no cell can exceed n · 25.
    let bounded = products.iter().flatten().all(|&v| v <= n * 25);
    let ok = match variant {
        TiledVariant::Both => bounded && runs_wrong == 0,
        _ => bounded,
    };
    let cells = (n * n) as usize;
    // Wrong cells without a barrier are the lesson's point: a warning, not a success.
    let tone = if !ok {
        "verdict bad"
    } else if runs_wrong > 0 {
        "verdict warn"
    } else {
        "verdict ok"
    };
    let verdict = match (variant, ok) {
        (TiledVariant::Both, false) if !bounded => "A cell holds more than any tile could sum to: the GPU broke a promise.".to_owned(),
        (_, false) if !bounded => "A cell holds more than any tile could sum to. Without the barrier invocations race on the tile, and WGSL promises no value for a racing read: no promise broken, and no result to trust.".to_owned(),
        (TiledVariant::Both, true) => format!("Every cell of all {runs} product(s) equals the CPU's product."),
        (TiledVariant::Both, false) => format!("With both barriers, {runs_wrong} of {runs} run(s) had wrong cells: this GPU broke the barrier's promise."),
        (_, _) if runs_wrong == 0 => format!(
            "No wrong cell in {runs} run(s) on this GPU at this size. The kernel is still wrong: nothing makes it wait, and another GPU, driver or tile width can show it."
        ),
        (_, _) => format!("{runs_wrong} of {runs} run(s) had wrong cells, at most {most} of {cells}: the missing barrier let invocations use tile cells that were not the ones they needed."),
    };
    let last = products.last().cloned().unwrap_or_default();
    let export = {
        let adapter = adapter.clone();
        move || {
            let json = crate::lessons::tiled::export::runs(&adapter, variant, size, &products, wall_ms);
            (format!("syncscope-tiled-{}-{n}.json", variant.name()), json.to_pretty())
        }
    };
    let last_wrong = wrong.last().cloned().unwrap_or_default();
    let detail = if n <= DRAWN {
        let marked: Vec<(String, bool)> = (0..cells).map(|i| (last.get(i).map_or("—".to_owned(), u32::to_string), last_wrong.contains(&i))).collect();
        view! {
            <MatrixGrid caption=format!("c as the GPU wrote it (last run); marked cells differ from the CPU's product") cols=n as usize cells=marked test_id="gpu-product" />
        }
        .into_any()
    } else {
        let listed: Vec<String> = last_wrong
            .iter()
            .take(8)
            .map(|&i| format!("c[{}][{}] = {} (should be {})", i / n as usize, i % n as usize, last.get(i).copied().unwrap_or(0), want[i]))
            .collect();
        view! {
            <p class="muted" data-testid="gpu-wrong-list">
                {if listed.is_empty() { "No wrong cell in the last run.".to_owned() } else { format!("Wrong in the last run: {}{}", listed.join("; "), if last_wrong.len() > 8 { "; …" } else { "" }) }}
            </p>
        }
        .into_any()
    };
    view! {
        <div class="run-report" data-testid="gpu-report">
            <Figures items=vec![
                figure("Matrices × tile", format!("{n} × {n}, tiles of {0} × {0}", size.tile)),
                figure("Workgroups", format!("{} of {} invocations", size.workgroups(), size.lanes())),
                figure("Runs with wrong cells", format!("{runs_wrong} of {runs}")).id("gpu-runs-wrong"),
                figure("Wrong cells, last run", format!("{} of {cells}", last_wrong.len())).id("gpu-wrong").raw(last_wrong.len().to_string()),
                figure("Most wrong in one run", most.to_string()),
                figure("Round trip", format!("{wall_ms:.1} ms wall clock, all runs in one submission", wall_ms = Float(wall_ms))).timed_on(&adapter),
                figure("Runs per second", format!("{:.0}", Float(runs as f64 / (wall_ms / 1000.0).max(1e-6)))).id("gpu-runs-per-second"),
            ] />
            <p class=tone data-testid="gpu-verdict" data-ok=ok.to_string()>{verdict}</p>
            {detail}
            <p class="muted">{format!("Adapter: {}.", crate::ui::figures::timed_adapter(&adapter))}</p>
            <DownloadJson make=Box::new(export) test_id="gpu-download" />
        </div>
    }
}

/// The same kernels on a data-centre GPU, from `data/h100-tiled.json`.
#[component]
fn MeasuredElsewhere() -> impl IntoView {
    use crate::lessons::tiled::measured::{parse_tiled_report, H100_TILED};
    use crate::ui::measured::{range, MeasuredTable};
    parse_tiled_report(H100_TILED).map(|(adapter, rows)| {
        let rows = rows
            .into_iter()
            .map(|r| {
                vec![
                    r.variant,
                    format!("{0} × {0} / {1} × {1}", r.n, r.tile),
                    format!("{} of {}", r.runs_wrong, r.runs),
                    format!("{} of {}", range(r.wrong), r.n * r.n),
                ]
            })
            .collect();
        view! {
            <MeasuredTable adapter=adapter rows=rows
                headers=&["barriers", "matrix / tile", "runs with wrong cells", "wrong cells per run"]
                note="The same kernels, run natively on that GPU." />
        }
    })
}
