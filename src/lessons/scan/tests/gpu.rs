//! The scan's kernels on a real Vulkan device: Hillis–Steele and the work-efficient tiles, the
//! three-dispatch scan and the ordered compaction are exact against the CPU at every size
//! tried, a last partial tile included; `atomicAdd` keeps the same values. How many sums the
//! one-barrier kernel gets wrong is printed, not asserted: it is the GPU's scheduling.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::scan::gpu::{check_width, run_append_beside, run_scan};
use crate::lessons::scan::{check, ScanWay};
use crate::testing::{gpu, limits};

#[test]
fn every_promised_way_is_exact_and_the_compaction_keeps_its_order() {
    let Some(ctx) = gpu() else { return };
    for (invocations, workgroup_size) in [(4096, 64), (1000, 64), (70_000, 256), (5, 2)] {
        let p = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
        let run = pollster::block_on(run_scan(&ctx, p, 3)).unwrap();
        let beside = pollster::block_on(run_append_beside(&ctx, p)).unwrap();
        eprintln!("{invocations}/{workgroup_size} on {}: one barrier {} wrong; atomicAdd {} of {} slots out of input order", ctx.adapter.name, run.tiles[1].wrong, beside.out_of_place, beside.count);
        for t in &run.tiles {
            assert!(t.wrong <= invocations, "{t:?}");
            if t.way.promised() {
                assert_eq!((t.wrong, t.wrong_tiles), (0, 0), "{invocations}/{workgroup_size} {t:?}");
            }
        }
        assert_eq!(run.tiles.iter().map(|t| t.way).collect::<Vec<_>>(), ScanWay::TILE_WAYS.to_vec());
        assert_eq!(run.large_wrong, 0, "{invocations}/{workgroup_size}");
        assert!(run.kept_in_order && beside.same_values, "{invocations}/{workgroup_size}: {run:?} {beside:?}");
        assert!(check(&run, Some(&beside)).promise_held);
    }
}

#[test]
fn a_tile_that_is_no_power_of_two_is_refused_with_a_reason() {
    for w in [0, 1, 48, 2048] {
        let e = check_width(w).unwrap_err().to_string();
        assert!(e.contains("power of two"), "{w}: {e}");
    }
    assert!(check_width(64).is_ok());
}

/// The single pass: exact at every size tried (one value, a partial vec4, a partial tile, many
/// tiles), every tile's look-back counted once per repeat. Without the fallback a look-back
/// may give up (a GPU need not run a waiting tile's predecessor), and only then may sums be
/// wrong; how often it gives up, and how often the fallback fired, is printed, not asserted.
#[test]
fn the_single_pass_is_exact_and_counts_every_look_back() {
    use crate::lessons::scan::single_pass::{run_single_pass, LookBack, TILE};
    let Some(ctx) = gpu() else { return };
    if ctx.adapter.subgroups.is_none() {
        eprintln!("{} has no subgroups: the single pass is not run", ctx.adapter.name);
        return;
    }
    for n in [1, 6, TILE, TILE + 1, 100_000, 1 << 20] {
        for way in LookBack::ALL {
            let run = pollster::block_on(run_single_pass(&ctx, n, 3, way)).unwrap();
            eprintln!("{n} {}: {} fallbacks, {} give-ups, windows {:?}", way.name(), run.fallbacks, run.give_ups, run.depth);
            assert_eq!(run.tiles, n.div_ceil(TILE));
            assert_eq!(run.depth.iter().sum::<u32>(), run.tiles * run.repeats, "{n} {way:?}");
            assert_eq!(run.depth[0], run.repeats, "tile 0 looks at nothing, once a repeat");
            if way.falls_back() {
                assert_eq!((run.wrong, run.give_ups), (0, 0), "{n} {way:?}");
            } else {
                assert_eq!(run.fallbacks, 0);
                if run.give_ups == 0 {
                    assert_eq!(run.wrong, 0, "{n}: no look-back gave up, yet sums are wrong");
                }
            }
            let total: u32 = (0..n).map(crate::lessons::scan::gpu_value).fold(0, u32::wrapping_add);
            assert!(run.wrong > 0 || run.total == total);
        }
    }
}

/// The fallback itself, made to sum every tile before each one from the input: still exact,
/// and tile t falls back t times, whether tiles go by workgroup id or by ticket.
#[test]
fn the_fallback_sums_silent_tiles_exactly() {
    use crate::lessons::scan::single_pass::{run_single_pass_polling, LookBack, TILE};
    let Some(ctx) = gpu() else { return };
    if ctx.adapter.subgroups.is_none() {
        return;
    }
    for (n, way) in [(TILE + 1, LookBack::WithFallback), (3 * TILE, LookBack::TicketsWithFallback), (100_000, LookBack::WithFallback), (100_000, LookBack::TicketsWithFallback)] {
        let run = pollster::block_on(run_single_pass_polling(&ctx, n, 2, way, 0)).unwrap();
        eprintln!("{n} {}: {} fallbacks, windows {:?}", way.name(), run.fallbacks, run.depth);
        assert_eq!((run.wrong, run.give_ups), (0, 0), "{n}");
        assert_eq!(run.depth.iter().sum::<u32>(), run.tiles * 2);
        assert_eq!(run.fallbacks, run.tiles * (run.tiles - 1), "{n}: tile t sums t tiles, twice");
    }
}

/// Passes over buffers made once, as the report times them: each starts from cleared flags and
/// counters (every tile's look-back counted once a repeat, pass after pass, not piling up or
/// finding the tickets spent; no ticket taken where tiles go by workgroup id), and a check after
/// them is still exact.
#[test]
fn passes_over_the_same_buffers_start_afresh() {
    use crate::lessons::scan::single_pass::{LookBack, SinglePassBuffers, Timed, TILE};
    let Some(ctx) = gpu() else { return };
    if ctx.adapter.subgroups.is_none() {
        return;
    }
    let n = 3 * TILE + 5;
    let buffers = SinglePassBuffers::new(&ctx, n, 2).unwrap();
    for way in [LookBack::TicketsWithFallback, LookBack::WithoutFallback, LookBack::WithFallback, LookBack::TicketsWithFallback] {
        let timed = pollster::block_on(buffers.time(&ctx, Timed::SinglePass(way))).unwrap();
        let tickets = if way.takes_tickets() { 4 * 2 } else { 0 };
        assert_eq!(timed.tickets, tickets, "{way:?}: four tiles, two repeats, each from a cleared counter");
        assert_eq!(timed.depth.iter().sum::<u32>(), 4 * 2, "{way:?}");
        assert_eq!(timed.depth[0], 2, "tile 0 looks at nothing, once a repeat");
    }
    let run = pollster::block_on(buffers.check(&ctx, LookBack::WithFallback, LookBack::WithFallback.max_polls())).unwrap();
    assert_eq!((run.wrong, run.give_ups, run.tiles), (0, 0, 4));
    assert_eq!(run.depth.iter().sum::<u32>(), 4 * 2);
}

/// The fair three-pass scan (reduce, scan the tiles' sums in one workgroup, scan again) is
/// exact at every size tried: one value, a partial vec4, a partial tile, a tile count that is
/// no multiple of 4, and more than 1,024 tiles, so its middle pass takes two rounds. The copy
/// and the ways timed over the same buffers leave a check after them exact.
#[test]
fn the_three_pass_scan_is_exact() {
    use crate::lessons::scan::single_pass::{LookBack, SinglePassBuffers, Timed, TILE};
    let Some(ctx) = gpu() else { return };
    if ctx.adapter.subgroups.is_none() {
        return;
    }
    for n in [1, 6, TILE - 1, 5 * TILE + 3, 1025 * TILE + 7] {
        let buffers = SinglePassBuffers::new(&ctx, n, 2).unwrap();
        let run = pollster::block_on(buffers.check_three_pass(&ctx)).unwrap();
        assert_eq!((run.wrong, run.tiles), (0, n.div_ceil(TILE)), "{n}");
        if n == 5 * TILE + 3 {
            for t in Timed::ALL {
                pollster::block_on(buffers.time(&ctx, t)).unwrap();
            }
            let again = pollster::block_on(buffers.check(&ctx, LookBack::WithFallback, LookBack::WithFallback.max_polls())).unwrap();
            assert_eq!(again.wrong, 0);
        }
    }
}

#[test]
fn a_single_pass_too_large_to_bind_is_refused_with_a_reason() {
    use crate::lessons::scan::single_pass::{run_single_pass, LookBack};
    let Some(ctx) = gpu() else { return };
    let e = pollster::block_on(run_single_pass(&ctx, 0, 1, LookBack::WithFallback)).unwrap_err().to_string();
    assert!(e.contains("binds"), "{e}");
}
