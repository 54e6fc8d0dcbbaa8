//! Every atomic of the family on a real Vulkan device, on u32 and i32: what each invocation
//! got back and where the cell ended are explained by some one-at-a-time order.

use crate::lessons::atomic_ops::gpu::{run_atomic_op, run_atomic_ops};
use crate::lessons::atomic_ops::{explain, serial_run, AtomicOp, AtomicSetup, Placement};
use crate::model::{IntType, RmwOp};

use crate::testing::gpu;

#[test]
fn every_op_on_both_types_is_some_serial_order() {
    let Some(ctx) = gpu() else { return };
    for op in AtomicOp::ALL {
        for ty in [IntType::U32, IntType::I32] {
            let mut setup = AtomicSetup { op, ..AtomicSetup::DEFAULT }.with_type(ty);
            // Signs, wrap-around and bit patterns worth seeing: 0x7FFFFFFF + 5 wraps on both types.
            setup.initial = ty.wrap(0x7FFF_FFFF);
            setup.compare = setup.initial;
            setup.operands[..8].copy_from_slice(&[5, -7, 0xF0, -1, 3, 0x0F0F, 5, 1 << 31].map(|v| ty.wrap(v)));
            for (threads, placement) in
                [(2, Placement::OneWorkgroup), (8, Placement::WorkgroupEach), (16, Placement::OneWorkgroup), (16, Placement::WorkgroupEach)]
            {
                for _ in 0..3 {
                    let run = pollster::block_on(run_atomic_op(&ctx, setup, threads, placement)).unwrap();
                    assert_eq!(run.olds.len(), threads);
                    let e = explain(setup, &run);
                    assert!(e.order.is_some(), "{op:?} {ty:?} {threads}: no serial order gives {run:?}");
                    if let AtomicOp::Rmw(rmw) = op {
                        if rmw != RmwOp::Exchange {
                            let any_order = serial_run(setup, threads, &(0..threads).collect::<Vec<_>>());
                            assert_eq!(run.final_bits, any_order.final_bits, "{op:?} {ty:?}");
                        }
                    }
                    if op == AtomicOp::Load {
                        assert!(run.olds.iter().all(|&o| o == IntType::bits(setup.initial)));
                    }
                }
            }
        }
    }
}

#[test]
fn a_batch_of_runs_in_one_submission_gives_each_run_its_own_cells() {
    let Some(ctx) = gpu() else { return };
    let setup = AtomicSetup { op: AtomicOp::Rmw(RmwOp::Add), ..AtomicSetup::DEFAULT };
    let runs = pollster::block_on(run_atomic_ops(&ctx, setup, 8, Placement::WorkgroupEach, 100)).unwrap();
    assert_eq!(runs.len(), 100);
    let every_order = serial_run(setup, 8, &(0..8).collect::<Vec<_>>());
    for run in &runs {
        // Each run starts from the setup's initial value: had runs shared a cell, the sums would pile up.
        assert_eq!(run.final_bits, every_order.final_bits, "{run:?}");
        assert!(explain(setup, run).order.is_some(), "{run:?}");
    }
}

#[test]
fn sizes_outside_the_lesson_are_refused() {
    let Some(ctx) = gpu() else { return };
    for threads in [0, 17] {
        let e = pollster::block_on(run_atomic_op(&ctx, AtomicSetup::DEFAULT, threads, Placement::OneWorkgroup)).unwrap_err();
        assert!(e.to_string().contains("2 to 16"), "{e}");
    }
}
