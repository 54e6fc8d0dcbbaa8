//! The ticket kernel on a real Vulkan device: every invocation gets a different ticket, and
//! together they are exactly 0..n.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::atomic_counter::check;
use crate::lessons::atomic_counter::gpu::run_tickets;

use crate::testing::{gpu, limits};

#[test]
fn tickets_are_exactly_zero_to_n_each_once() {
    let Some(ctx) = gpu() else { return };
    for (invocations, workgroup_size) in [(1, 1), (1024, 64), (1000, 256), (65_537, 128)] {
        let p = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
        let run = pollster::block_on(run_tickets(&ctx, p)).unwrap();
        assert_eq!(run.tickets.len(), invocations as usize);
        assert_eq!(run.next, invocations);
        let c = check(&run.tickets, run.next, p);
        assert!(c.is_permutation, "{p:?} on {}: {c:?}", ctx.adapter.name);
        assert!(c.whole_workgroups <= c.workgroups);
    }
}
