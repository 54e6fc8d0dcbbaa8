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
        assert_eq!(run.tiles.iter().map(|t| t.way).collect::<Vec<_>>(), ScanWay::ALL.to_vec());
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
