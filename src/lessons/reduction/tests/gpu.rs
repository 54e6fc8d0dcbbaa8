//! The reduction kernels on a real Vulkan device: the traced tree gives the seed's table step
//! for step, and a large array sums to the same total by the tree and by atomicAdd.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::reduction::gpu::{run_comparison, run_trace, Ways};
use crate::lessons::reduction::{large_sum, trace, VALUES};

use crate::testing::{gpu, limits};

#[test]
fn the_traced_tree_is_the_seeds_table() {
    let Some(ctx) = gpu() else { return };
    let table = pollster::block_on(run_trace(&ctx, 8)).unwrap();
    assert_eq!(table, trace(&VALUES[..8]));
    assert_eq!(table.last().unwrap()[0], 31);
    for n in [2, 5, 16] {
        let values: Vec<u32> = (0..n).map(|i| VALUES[i % 16]).collect();
        assert_eq!(pollster::block_on(run_trace(&ctx, n)).unwrap(), trace(&values), "{n}");
    }
}

#[test]
fn tree_and_atomic_sums_agree_with_the_cpu() {
    let Some(ctx) = gpu() else { return };
    for (invocations, workgroup_size) in [(1, 2), (1000, 64), (65_536, 256), (300_001, 128)] {
        let p = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
        let c = pollster::block_on(run_comparison(&ctx, p, 3, Ways::All)).unwrap();
        let want = large_sum(invocations);
        assert_eq!(c.tree_sum.map(u64::from), Some(want), "{p:?}");
        assert_eq!(u64::from(c.atomic_total), 3 * want, "{p:?}");
        assert_eq!(c.tree_atomic_total.map(u64::from), Some(3 * want), "{p:?}: one atomicAdd per workgroup");
        // The first look: atomicAdd alone, the tree not run.
        let first = pollster::block_on(run_comparison(&ctx, p, 1, Ways::AtomicOnly)).unwrap();
        assert_eq!((first.tree_sum, first.tree_ns, first.tree_atomic_total, u64::from(first.atomic_total)), (None, None, None, want), "{p:?}");
        eprintln!("{p:?}: {} levels, tree {:?} ns, atomic {:?} ns, tree then atomic {:?} ns", c.levels, c.tree_ns, c.atomic_ns, c.tree_atomic_ns);
    }
    let p = GpuParams { invocations: 100, workgroup_size: 96 };
    assert!(pollster::block_on(run_comparison(&ctx, p, 1, Ways::All)).unwrap_err().to_string().contains("power of two"));
}
