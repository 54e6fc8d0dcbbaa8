//! Runs the scan lesson on this machine's GPU (native wgpu over Vulkan) and prints, as JSON:
//! how many sums each tile kernel got wrong (Hillis–Steele with one barrier taken away at
//! several workgroup widths), the three-dispatch scan's time against a CPU scan, whether the
//! compaction kept its order; then, at sizes up to 2^27 values, the single-pass scan three ways
//! (tiles by workgroup id or by ticket with the fallback, by ticket without it), with their
//! counters, the fair three-pass scan (reduce, scan the sums, scan again) and a `vec4` copy of
//! the same bytes, all on the same buffers and timed in interleaved rounds.
//!
//! ```sh
//! cargo run --release --example report -- scan > data/<gpu>-scan.json
//! # with CUB's rows from the same machine beside them (bench/cub_scan.cu's output):
//! cargo run --release --example report -- scan --beside cub.json > data/<gpu>-scan.json
//! ```
//!
//! Every count is of sums read back and compared with the CPU's; every GPU time comes from
//! timestamp queries, every CPU time from this process scanning the same input.

use super::measured::ScanColumns;
use crate::data::measured::names;
use crate::data::report::count;
use crate::data::Json;
use crate::gpu::params::GpuParams;
use crate::lessons::scan::gpu::{input_values, run_append_beside, run_scan};
use crate::lessons::scan::measured::parse_scan_report;
use crate::lessons::scan::single_pass::{SinglePassBuffers, SinglePassRun, SinglePassTiming, ThreePassRun, Timed, DEPTH_BINS};
use crate::lessons::scan::{check, scan_bytes, scan_into, ScanWay};
use crate::site::settings::LessonVariant;
use std::time::Instant;

const RUNS: usize = 5;
const REPEATS: u32 = 20;
/// Rounds of the single-pass sizes: each round times every way once, starting one way further
/// on than the round before, so no way is always first or always after the same one.
const ROUNDS: usize = 7;
/// The card has a slower state that comes and goes, copy and scan alike at about 1,700 GB/s
/// where they ran at over 4,000 a second before, and it can begin between two rounds: with
/// rounds in both states, each way's median depends on the order of the rounds. A size the
/// state caught (`caught_slower`) is timed again, up to `ATTEMPTS` times in all; each attempt
/// set aside is kept in the report.
const SLOW_COPY: f64 = 0.8;
const ATTEMPTS: usize = 3;

/// `(values, workgroup)`: one warp, then wider tiles, then sizes whose buffers outgrow the
/// GPU's cache (an H100's L2 holds 50 MB), so memory is the limit. The largest are 65,280
/// workgroups of 256 (a dispatch has at most 65,535) and 16,384 of 1,024.
pub const SIZES: [(u32, u32); 8] =
    [(1 << 16, 32), (1 << 16, 64), (1 << 16, 256), (1 << 20, 256), (1 << 22, 256), (1 << 23, 256), (65_280 * 256, 256), (1 << 24, 1024)];

/// Sizes for the single pass and the copy: from what fits in an H100's L2 to buffers of 512 MB,
/// the two that the scan is held to first (see `main`).
pub const SINGLE_PASS_SIZES: [u32; 6] = [1 << 24, 1 << 25, 1 << 20, 1 << 22, 1 << 26, 1 << 27];

fn median(mut v: Vec<f64>) -> Option<f64> {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied()
}

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let limits = ctx.adapter.limits;
    let mut rows = Vec::new();
    // The single pass and the copy first, 2^24 and 2^25 values before the rest: a few seconds
    // into a process the same kernels ran up to 45 % slower on an H100, copy and scan alike,
    // even with every buffer allocated once and reused.
    let sizes: Vec<u32> = SINGLE_PASS_SIZES.into_iter().filter(|&n| 4 * u64::from(n) <= limits.max_storage_buffer_binding_size).collect();
    let mut timed: Vec<_> = sizes.iter().map(|&n| time_single_pass(&ctx, n)).collect();
    let mut set_aside = Vec::new();
    for _ in 1..ATTEMPTS {
        let quickest = sizes.iter().zip(&timed).filter(|(&n, _)| memory_bound(n)).map(|(&n, t)| rates(n, t)[0]).fold(0.0, f64::max);
        let slow: Vec<usize> = (0..sizes.len()).filter(|&i| caught_slower(sizes[i], &timed[i], quickest)).collect();
        if slow.is_empty() {
            break;
        }
        for i in slow {
            let rates = rates(sizes[i], &timed[i]);
            set_aside.push(Json::object(
                std::iter::once(("values", Json::from(sizes[i]))).chain(Timed::ALL.iter().zip(rates).map(|(t, r)| (t.name(), Json::from(r)))),
            ));
            timed[i] = time_single_pass(&ctx, sizes[i]);
        }
    }
    for (&n, timed) in sizes.iter().zip(timed) {
        rows.extend(single_pass_rows(&ctx, n, timed));
    }
    rows.extend(beside_rows());
    for (n, w) in SIZES {
        assert!(n.div_ceil(w) <= limits.max_workgroups_per_dimension && w <= limits.max_invocations_per_workgroup, "{n} / {w}");
        let params = GpuParams { invocations: n, workgroup_size: w };
        pollster::block_on(run_scan(&ctx, params, REPEATS)).expect("warm-up");
        let runs: Vec<_> = (0..RUNS).map(|_| pollster::block_on(run_scan(&ctx, params, REPEATS)).expect("run")).collect();
        let beside: Vec<_> = (0..RUNS).map(|_| pollster::block_on(run_append_beside(&ctx, params)).expect("append")).collect();
        let values = input_values(n);
        let mut out = vec![0u32; values.len()];
        let cpu_ms = median(
            (0..=RUNS)
                .map(|_| {
                    let t0 = Instant::now();
                    scan_into(std::hint::black_box(&values), std::hint::black_box(&mut out));
                    t0.elapsed().as_secs_f64() * 1e3
                })
                .skip(1)
                .collect(),
        );
        let row = |way: &str, exact: usize, wrong: Vec<u32>, gpu_ms: Option<f64>, cpu_ms: Option<f64>| {
            ScanColumns {
                fallbacks: 0,
                give_ups: 0,
                lookback_windows: String::new(),
                way: way.to_owned(),
                invocations: n,
                workgroup_size: w,
                runs: count(RUNS),
                runs_exact: count(exact),
                wrong_min: wrong.iter().copied().min().unwrap_or(0),
                wrong_max: wrong.iter().copied().max().unwrap_or(0),
                gpu_ms_median: gpu_ms,
                cpu_ms_median: cpu_ms,
                gb_per_s: gpu_ms.map(|ms| scan_bytes(n) / (ms * 1e6)),
            }
            .to_json()
        };
        for (k, way) in ScanWay::TILE_WAYS.into_iter().enumerate() {
            let wrong: Vec<u32> = runs.iter().map(|r| r.tiles[k].wrong).collect();
            rows.push(row(way.name(), wrong.iter().filter(|&&x| x == 0).count(), wrong, None, None));
        }
        let wrong: Vec<u32> = runs.iter().map(|r| r.large_wrong).collect();
        let gpu_ms = median(runs.iter().filter_map(|r| r.gpu_ns).map(|ns| ns / 1e6).collect());
        rows.push(row("three-dispatches", wrong.iter().filter(|&&x| x == 0).count(), wrong, gpu_ms, cpu_ms));
        let held = runs.iter().zip(&beside).filter(|(r, a)| r.kept_in_order && check(r, Some(a)).promise_held).count();
        let out_of_place: Vec<u32> = beside.iter().map(|a| a.out_of_place).collect();
        rows.push(row("compaction", held, out_of_place, None, None));
    }
    crate::data::report::print_report(
        "scan/report",
        &ctx,
        &names(ScanColumns::SCHEMA),
        rows,
        vec![
            ("repeats_per_timed_pass", Json::from(REPEATS)),
            ("set_aside", Json::Array(set_aside)),
            (
                "notes",
                Json::from("wrong_min/max: sums unlike the CPU's (for compaction: slots where atomicAdd's order differs from the input's; for the single pass and reduce-then-scan, in the last repeat of each checked run). gb_per_s: 8 bytes per value (read once, written once) over the median GPU time, for every way, reduce-then-scan too (which moves 12). copy: the same values as vec4s, two per invocation, in workgroups of 256, from the scan's input buffer into its output buffer. The single-pass sizes come first, each on buffers made once: every way run once untimed (every buffer touched), then 7 rounds each timing every way once (copy, single-pass, single-pass-tickets, single-pass-no-fallback, reduce-then-scan), each round starting one way further on; gpu_ms_median is the median round's; a size is timed again, at most 3 times in all, while the card's slower state shows in its copy (a round under 0.8 of the quickest round's speed, or from 2^24 values a median under 0.8 of the quickest such median), and each attempt set aside is listed in set_aside (its values and every way's GB/s); the passes read back only timestamps and counters; then each way runs 5 more passes read back and checked (runs, runs_exact). fallbacks, give_ups, lookback_windows: the single pass's counters summed over every timed and checked run and repeat. cpu_ms_median: one core scanning the same values in a plain loop into a buffer made before, the median of 5 timed runs after one untimed. Rows cub and copy-cuda, where present, are bench/cub_scan.cu's, run on the same machine just before (its own method in that file)."),
            ),
        ],
    );
}

/// Every way at `n` values on one set of buffers: each once untimed, then `ROUNDS` rounds
/// that time each way once, in an order that turns by one a round. Returns each way's
/// timings in `Timed::ALL`'s order.
fn time_single_pass(ctx: &crate::gpu::GpuContext, n: u32) -> Vec<Vec<SinglePassTiming>> {
    let buffers = SinglePassBuffers::new(ctx, n, REPEATS).expect("single pass");
    let time = |t: Timed| pollster::block_on(buffers.time(ctx, t)).unwrap_or_else(|e| panic!("{}: {e}", t.name()));
    for t in Timed::ALL {
        time(t);
    }
    let mut timed: Vec<Vec<SinglePassTiming>> = Timed::ALL.iter().map(|_| Vec::new()).collect();
    for round in 0..ROUNDS {
        for k in 0..Timed::ALL.len() {
            let at = (round + k) % Timed::ALL.len();
            timed[at].push(time(Timed::ALL[at]));
        }
    }
    timed
}

/// From 2^24 values the buffers outgrow the cache, and a copy's speed is the memory's.
fn memory_bound(n: u32) -> bool {
    n >= 1 << 24
}

/// Whether the card's slower state shows in the copy's rounds at `n` values: its slowest round
/// under `SLOW_COPY` of its quickest's speed, or, where the copy is bound by memory, its median
/// under `SLOW_COPY` of `quickest` (GB/s, the quickest such median of the report).
fn caught_slower(n: u32, timed: &[Vec<SinglePassTiming>], quickest: f64) -> bool {
    let copies: Vec<f64> = timed[0].iter().filter_map(|t| t.gpu_ns).collect();
    let (fastest, slowest) = copies.iter().fold((f64::INFINITY, 0.0_f64), |(lo, hi), &ns| (lo.min(ns), hi.max(ns)));
    slowest * SLOW_COPY > fastest || (memory_bound(n) && rates(n, timed)[0] < SLOW_COPY * quickest)
}

/// Each way's GB/s at `n` values from its median round, in `Timed::ALL`'s order (the copy
/// first); 0 where a way has no timestamps.
fn rates(n: u32, timed: &[Vec<SinglePassTiming>]) -> Vec<f64> {
    timed.iter().map(|t| median(t.iter().filter_map(|t| t.gpu_ns).map(|ns| ns / 1e6).collect()).map_or(0.0, |ms| scan_bytes(n) / (ms * 1e6))).collect()
}

/// The rows of one size: its timings, then `RUNS` passes of each scan read back and checked.
fn single_pass_rows(ctx: &crate::gpu::GpuContext, n: u32, timed: Vec<Vec<SinglePassTiming>>) -> Vec<Json> {
    let buffers = SinglePassBuffers::new(ctx, n, REPEATS).expect("single pass");
    let ms = |t: &[SinglePassTiming]| median(t.iter().filter_map(|t| t.gpu_ns).map(|ns| ns / 1e6).collect());
    let mut rows = Vec::new();
    for (t, timings) in Timed::ALL.into_iter().zip(&timed) {
        rows.push(match t {
            Timed::Copy => single_pass_row("copy", n, &[], timings, ms(timings)),
            Timed::SinglePass(way) => {
                let checked: Vec<SinglePassRun> = (0..RUNS).map(|_| pollster::block_on(buffers.check(ctx, way, way.max_polls())).expect("single pass")).collect();
                single_pass_row(way.name(), n, &checked, timings, ms(timings))
            }
            Timed::ThreePass => {
                let checked: Vec<ThreePassRun> = (0..RUNS).map(|_| pollster::block_on(buffers.check_three_pass(ctx)).expect("three-pass scan")).collect();
                three_pass_row(n, &checked, ms(timings))
            }
        });
    }
    rows
}

fn three_pass_row(n: u32, checked: &[ThreePassRun], gpu_ms: Option<f64>) -> Json {
    let wrong: Vec<u32> = checked.iter().map(|r| r.wrong).collect();
    ScanColumns {
        way: Timed::ThreePass.name().to_owned(),
        invocations: n,
        workgroup_size: crate::lessons::scan::single_pass::WIDTH,
        runs: count(checked.len()),
        runs_exact: count(wrong.iter().filter(|&&w| w == 0).count()),
        wrong_min: wrong.iter().copied().min().unwrap_or(0),
        wrong_max: wrong.iter().copied().max().unwrap_or(0),
        gpu_ms_median: gpu_ms,
        cpu_ms_median: None,
        gb_per_s: gpu_ms.map(|ms| scan_bytes(n) / (ms * 1e6)),
        fallbacks: 0,
        give_ups: 0,
        lookback_windows: String::new(),
    }
    .to_json()
}

/// CUB's rows (`bench/cub_scan.cu`'s output, the file after `--beside`), copied as they are,
/// so a report holds the reference beside the project's own ways. None without `--beside`.
fn beside_rows() -> Vec<Json> {
    let args: Vec<String> = std::env::args().collect();
    let Some(file) = args.iter().position(|a| a == "--beside").and_then(|i| args.get(i + 1)) else { return Vec::new() };
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("--beside {file}: {e}"));
    let (_, rows) = parse_scan_report(&text).unwrap_or_else(|| panic!("--beside {file}: not a scan report in this schema"));
    rows.iter().map(ScanColumns::to_json).collect()
}

fn single_pass_row(way: &str, n: u32, checked: &[SinglePassRun], timed: &[SinglePassTiming], gpu_ms: Option<f64>) -> Json {
    let wrong: Vec<u32> = checked.iter().map(|r| r.wrong).collect();
    let mut depth = [0u32; DEPTH_BINS];
    for d in checked.iter().map(|r| r.depth).chain(timed.iter().map(|t| t.depth)) {
        for (sum, c) in depth.iter_mut().zip(d) {
            *sum += c;
        }
    }
    ScanColumns {
        way: way.to_owned(),
        invocations: n,
        workgroup_size: crate::lessons::scan::single_pass::WIDTH,
        runs: count(RUNS),
        runs_exact: count(if checked.is_empty() { RUNS } else { wrong.iter().filter(|&&w| w == 0).count() }),
        wrong_min: wrong.iter().copied().min().unwrap_or(0),
        wrong_max: wrong.iter().copied().max().unwrap_or(0),
        gpu_ms_median: gpu_ms,
        cpu_ms_median: None,
        gb_per_s: gpu_ms.map(|ms| scan_bytes(n) / (ms * 1e6)),
        fallbacks: checked.iter().map(|r| r.fallbacks).chain(timed.iter().map(|t| t.fallbacks)).sum(),
        give_ups: checked.iter().map(|r| r.give_ups).chain(timed.iter().map(|t| t.give_ups)).sum(),
        lookback_windows: depth.iter().enumerate().filter(|(_, &c)| c > 0).map(|(w, c)| format!("{w}:{c}")).collect::<Vec<_>>().join(" "),
    }
    .to_json()
}
