//! The append kernel on a real Vulkan device: an exact count and exactly the kept values.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::append::check;
use crate::lessons::append::gpu::run_append;

use crate::testing::{gpu, limits};

#[test]
fn the_output_is_the_kept_inputs_in_some_order() {
    let Some(ctx) = gpu() else { return };
    for (invocations, workgroup_size) in [(1, 1), (1024, 64), (1000, 256), (65_537, 128)] {
        let p = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
        let run = pollster::block_on(run_append(&ctx, p)).unwrap();
        let c = check(&run.output, run.count, p);
        assert!(c.is_permutation, "{p:?} on {}: {c:?}", ctx.adapter.name);
        assert_eq!(run.count, c.expected);
    }
}
