//! The compare-exchange maximum on a real Vulkan device: exactly the true maximum (bits and
//! all), no give-ups, and a retry count for every invocation.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::cas_max::gpu::run_cas_max;
use crate::lessons::cas_max::{check, CasInputs};

use crate::testing::{gpu, limits};

#[test]
fn the_result_is_the_true_maximum_for_every_input_set() {
    let Some(ctx) = gpu() else { return };
    for inputs in [CasInputs::Mixed, CasInputs::NonPositive, CasInputs::WithNan] {
        for (invocations, workgroup_size) in [(1, 1), (1024, 64), (1000, 256), (65_537, 128)] {
            let p = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
            let run = pollster::block_on(run_cas_max(&ctx, inputs, p)).unwrap();
            assert_eq!(run.gave_up, 0, "{inputs:?} {p:?}");
            assert_eq!(run.retries.len(), invocations as usize);
            let c = check(inputs, p, run.best_bits, &run.retries);
            assert!(c.exact, "{inputs:?} {p:?} on {}: got {} want {}", ctx.adapter.name, c.observed, c.expected);
        }
    }
}
