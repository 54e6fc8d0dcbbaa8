//! The subgroup kernels on a real Vulkan device (lavapipe in CI: subgroups of 8): the size is
//! read back, subgroupAdd and the butterfly are exact, the divergent sums stay within what any
//! set of active lanes can give, both compactions keep the CPU's values (the ballot with one
//! atomicAdd per subgroup), and the tree and subgroupAdd reductions are exact. Stale neighbour
//! reads and the last-warp reduction's wrong workgroups are printed, not asserted.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::subgroups::gpu::run_subgroups;
use crate::lessons::subgroups::{check, layout_problem, ReduceWay};
use crate::testing::{gpu, limits};

#[test]
fn every_promise_holds_and_the_size_is_read_back() {
    let Some(ctx) = gpu() else { return };
    let sizes = ctx.adapter.subgroups.expect("the test device offers subgroups (lavapipe does)");
    for (invocations, workgroup_size) in [(4096, 64), (1024, 256), (2048, 1024)] {
        let p = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
        let run = pollster::block_on(run_subgroups(&ctx, p, 2)).unwrap();
        eprintln!(
            "{invocations}/{workgroup_size} on {}: subgroups of {:?} (adapter says {}..={}), consecutive {}; divergent whole {} of {}; stale same {} next {}; last warp wrong {} of {}",
            ctx.adapter.name,
            run.layout.sizes,
            sizes.min,
            sizes.max,
            run.layout.consecutive,
            run.divergent.whole,
            run.divergent.active,
            run.neighbours[0].stale,
            run.neighbours[1].stale,
            run.reductions[2].wrong,
            run.reductions[2].workgroups
        );
        assert_eq!(run.layout.sizes.len(), 1, "{:?}", run.layout);
        let size = run.layout.sizes[0];
        assert!(size.is_power_of_two() && (sizes.min..=sizes.max).contains(&size), "{size} against {sizes:?}");
        assert_eq!(run.layout.subgroups, invocations / size, "{:?}", run.layout);
        assert_eq!(run.add.checked, invocations);
        assert_eq!(run.butterfly.checked, invocations, "every subgroup full");
        let held = check(&run, p);
        assert!(held.promise_held && held.consistent, "{run:?}");
        assert_eq!(run.compactions[0].atomics, run.layout.subgroups, "one atomicAdd per subgroup");
        assert_eq!(run.compactions[1].atomics, run.cpu_kept, "one per kept value");
        assert_eq!(run.reductions.iter().map(|r| r.way).collect::<Vec<_>>(), ReduceWay::ALL.to_vec());
        assert!(run.reductions[2].wrong <= run.reductions[2].workgroups);
    }
}

#[test]
fn sizes_the_kernels_cannot_run_are_refused_with_a_reason() {
    for (n, w) in [(4096, 32), (4096, 48), (4000, 64), (4096, 2048)] {
        let e = layout_problem(GpuParams { invocations: n, workgroup_size: w }).expect("refused");
        assert!(e.contains("workgroup"), "{n}/{w}: {e}");
    }
    assert_eq!(layout_problem(GpuParams { invocations: 4096, workgroup_size: 64 }), None);
}
