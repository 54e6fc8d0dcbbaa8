//! Runs every op of the atomic family on this machine's GPU (native wgpu over Vulkan), on u32
//! and i32, its invocations in one workgroup and then one workgroup each, with the atomic-ops
//! lesson's default setup, and prints as JSON how many runs some
//! one-at-a-time order explains, how many final values and sets of returned values came up,
//! and how many compare-exchanges failed spuriously: the figures that lesson shows.
//!
//! ```sh
//! cargo run --release --example report -- atomic-ops > data/<gpu>-atomic-ops.json
//! ```
//!
//! Every number is counted from what the GPU returned.

use crate::lessons::atomic_ops::gpu::run_atomic_op;
use crate::lessons::atomic_ops::{tally, AtomicOp, AtomicSetup, Placement};
use crate::model::IntType;

use crate::data::measured::names;
use super::measured::AtomicOpColumns;
use crate::data::report::count;

const RUNS: usize = 100;
/// The most the lesson runs: the widest race for each returned value.
const INVOCATIONS: usize = 16;

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    let mut rows = Vec::new();
    let placements = [Placement::OneWorkgroup, Placement::WorkgroupEach];
    let types = [IntType::U32, IntType::I32];
    let cases = placements.iter().flat_map(|&l| AtomicOp::ALL.iter().flat_map(move |&op| types.map(|ty| (l, op, ty))));
    for (placement, op, ty) in cases {
        let setup = AtomicSetup { op, ..AtomicSetup::DEFAULT }.with_type(ty);
        let run = || pollster::block_on(run_atomic_op(&ctx, setup, INVOCATIONS, placement)).expect("run");
        run(); // warm-up
        let runs: Vec<_> = (0..RUNS).map(|_| run()).collect();
        let t = tally(setup, &runs);
        rows.push(AtomicOpColumns {
            op: op.name().to_string(),
            ty: ty.name().to_string(),
            layout: placement.name().to_string(),
            invocations: count(INVOCATIONS),
            runs: count(RUNS),
            runs_explained: count(RUNS - t.unexplained),
            distinct_final_values: count(t.finals.len()),
            distinct_returned_sets: count(t.distinct_returns),
            spurious_failures: count(t.spurious),
        }
        .to_json());
    }
    crate::data::report::print_report("atomic-ops/report", &ctx, &names(AtomicOpColumns::SCHEMA), rows, vec![]);
}
