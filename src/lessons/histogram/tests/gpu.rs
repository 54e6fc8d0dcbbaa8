//! The histogram kernels on a real Vulkan device: atomic and private bins are exact at every
//! size and number of bins; the plain count never exceeds the truth and keeps a count in
//! every bin the data hits.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::histogram::gpu::{run_histogram, run_size_sweep, run_sweep};
use crate::lessons::histogram::{check, HistogramVariant, DISTINCT, SIZES};

use crate::testing::{gpu, limits};

#[test]
fn every_variant_within_its_promise() {
    let Some(ctx) = gpu() else { return };
    for (n, w) in [(1, 64), (1000, 64), (65_536, 256), (1 << 20, 256)] {
        let p = check_params(GpuParams { invocations: n, workgroup_size: w }, &limits(&ctx)).unwrap();
        for distinct in [1, 7, 256] {
            for variant in HistogramVariant::ALL {
                let run = pollster::block_on(run_histogram(&ctx, variant, p, distinct, 3)).unwrap();
                let c = check(n, distinct, 3, &run.bins);
                // Plain += races on the bins, which WGSL leaves without a promised value: only
                // the atomic ways are held to anything.
                if variant.exact() {
                    assert!(c.possible && c.exact, "{variant:?} {p:?} {distinct}: {c:?}");
                }
                if variant == HistogramVariant::Plain && n == 1 << 20 {
                    eprintln!("plain {n} values, {distinct} bins on {}: lost {} of {}", ctx.adapter.name, c.lost(), c.expected_sum);
                }
            }
        }
    }
}

#[test]
fn the_sweep_covers_every_bin_count_and_variant() {
    let Some(ctx) = gpu() else { return };
    let p = GpuParams { invocations: 1 << 16, workgroup_size: 256 };
    let points = pollster::block_on(run_sweep(&ctx, p, 2, &mut |_, _| {})).unwrap();
    assert_eq!(points.iter().map(|s| s.distinct).collect::<Vec<_>>(), DISTINCT.to_vec());
    for point in &points {
        assert_eq!(point.runs.len(), 3);
        for (variant, run) in &point.runs {
            let c = check(p.invocations, point.distinct, 2, &run.bins);
            assert!(!variant.exact() || (c.possible && c.exact), "{variant:?} {}: {c:?}", point.distinct);
        }
    }
}

#[test]
fn the_size_sweep_covers_every_size_exactly_where_atomic() {
    let Some(ctx) = gpu() else { return };
    let points = pollster::block_on(run_size_sweep(&ctx, 256, 16, &SIZES, 2, &mut |_, _| {})).unwrap();
    assert_eq!(points.iter().map(|p| p.values).collect::<Vec<_>>(), SIZES.to_vec());
    for point in &points {
        assert_eq!(point.distinct, 16);
        for (variant, run) in &point.runs {
            let c = check(point.values, 16, 2, &run.bins);
            assert!(!variant.exact() || (c.possible && c.exact), "{variant:?} {}: {c:?}", point.values);
        }
    }
}
