//! CUDA's atomicInc and atomicDec built from compare-exchange: the steps are CUDA's, the walk
//! is what the old values must be in some order, and a real device's run returns exactly it.

use crate::lessons::atomic_ops::inc_dec::{decrement, increment, run_wrap, walk, Wrap, WrapRun};
use crate::testing::gpu;

#[test]
fn the_steps_wrap_as_cudas_do() {
    // CUDA: atomicInc stores ((old >= val) ? 0 : (old+1)); atomicDec ((old == 0) || (old > val)) ? val : (old-1).
    assert_eq!([increment(0, 9), increment(8, 9), increment(9, 9), increment(12, 9)], [1, 9, 0, 0]);
    assert_eq!([decrement(5, 9), decrement(1, 9), decrement(0, 9), decrement(12, 9)], [4, 0, 9, 9]);
    assert_eq!(walk(Wrap::Increment, 0, 2, 7), (vec![0, 1, 2, 0, 1, 2, 0], 1));
    assert_eq!(walk(Wrap::Decrement, 0, 2, 4), (vec![0, 2, 1, 0], 2));
}

#[test]
fn a_run_holds_only_when_its_olds_are_the_walk_and_the_cell_ends_where_it_does() {
    let run = WrapRun { way: Wrap::Increment, final_value: 1, olds: vec![2, 0, 1, 0], gave_up: 0 };
    assert!(run.promise_held(0, 2), "any order of 0, 1, 2, 0");
    assert!(!WrapRun { olds: vec![0, 1, 1, 2], ..run.clone() }.promise_held(0, 2), "a value returned twice that the walk has once");
    assert!(!WrapRun { final_value: 0, ..run.clone() }.promise_held(0, 2), "the cell elsewhere");
    assert!(!WrapRun { gave_up: 1, ..run }.promise_held(0, 2));
}

#[test]
fn on_a_real_device_both_walks_come_back_whole() {
    let Some(ctx) = gpu() else { return };
    for way in Wrap::BOTH {
        for (n, start, limit) in [(1, 0, 9), (1000, 0, 9), (777, 5, 3), (64, 0, 0)] {
            let run = pollster::block_on(run_wrap(&ctx, way, n, start, limit)).unwrap();
            assert!(run.promise_held(start, limit), "{way:?} n={n} from {start} wrapping at {limit}: {run:?}");
        }
    }
}
