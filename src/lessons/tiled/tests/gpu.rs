//! The tiled multiply on a real Vulkan device: with both barriers every cell of every run is
//! the CPU's product; without one, whatever the device does, every cell is a sum of products
//! of values that were somewhere in a tile, so it never exceeds n · 5 · 5.

use crate::lessons::tiled::gpu::run_tiled;
use crate::lessons::tiled::{product, wrong_cells, TiledSize, TiledVariant};

use crate::testing::gpu;

#[test]
fn with_both_barriers_every_cell_is_right() {
    let Some(ctx) = gpu() else { return };
    for (n, tile) in [(8, 4), (8, 2), (16, 4), (64, 8), (128, 16)] {
        let size = TiledSize { n, tile };
        let runs = pollster::block_on(run_tiled(&ctx, TiledVariant::Both, size, 3)).unwrap();
        assert_eq!(runs.len(), 3);
        let want = product(n);
        for c in &runs {
            assert_eq!(c.len(), (n * n) as usize);
            assert_eq!(wrong_cells(&want, c), Vec::<usize>::new(), "{size:?}");
        }
    }
}

#[test]
fn without_a_barrier_every_run_comes_back_whole() {
    let Some(ctx) = gpu() else { return };
    for variant in [TiledVariant::WithoutFirst, TiledVariant::WithoutSecond] {
        for (n, tile) in [(8, 4), (64, 16)] {
            let size = TiledSize { n, tile };
            let runs = pollster::block_on(run_tiled(&ctx, variant, size, 5)).unwrap();
            let want = product(n);
            let wrong: Vec<usize> = runs.iter().map(|c| wrong_cells(&want, c).len()).collect();
            // Invocations race on the tile: WGSL promises no value for those reads, so only
            // that every run came back with every cell is asserted.
            assert_eq!(runs.len(), 5);
            assert!(runs.iter().all(|c| c.len() == (n * n) as usize), "{variant:?} {size:?}");
            eprintln!("{variant:?} {size:?} on {}: wrong cells per run {wrong:?}", ctx.adapter.name);
        }
    }
}

#[test]
fn sizes_the_gpu_cannot_run_are_refused() {
    let Some(ctx) = gpu() else { return };
    let e = pollster::block_on(run_tiled(&ctx, TiledVariant::Both, TiledSize { n: 12, tile: 4 }, 1)).unwrap_err();
    assert!(e.to_string().contains("12"), "{e}");
}
