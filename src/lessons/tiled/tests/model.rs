//! The tiled multiply's model: with both barriers its tile of the product is right under every
//! schedule; without either, threads that run in lockstep still get it right, while one
//! thread at a time reads tile cells that are not (or no longer) the ones it needs.

use crate::gpu::params::ComputeLimits;
use crate::lessons::tiled::{input, matrix, model_tile_expected, product, wrong_cells, Matrix, TiledSize, TiledVariant, c_cell, C, MODEL_THREADS, N, TILE};
use crate::model::{splitmix64, Machine, Schedule, Session};

fn schedules() -> Vec<Schedule> {
    let mut s = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
    s.extend((0..30).map(|i| Schedule::Random { seed: splitmix64(i) }));
    s
}

fn run(variant: TiledVariant, schedule: Schedule) -> Machine {
    Session::new(variant.machine(), schedule).run_to_end().clone()
}

fn tile_of_c(m: &Machine) -> Vec<i64> {
    (0..TILE * TILE).map(|i| m.memory[c_cell(i)]).collect()
}

#[test]
fn the_cpu_product_is_the_product() {
    // Row 0 of a is 1 2 3 4 5 1 2 3; column 0 of b is 1 2 3 4 1 2 3 4.
    assert_eq!(product(8)[0], 1 + 4 + 9 + 16 + 5 + 2 + 6 + 12);
    let expected = model_tile_expected();
    assert_eq!(expected.len(), TILE * TILE);
    assert_eq!(expected[0], 55);
    let want = product(8);
    assert_eq!(wrong_cells(&want, &want), Vec::<usize>::new());
    let mut c = want.clone();
    c[9] += 1;
    assert_eq!(wrong_cells(&want, &c), vec![9]);
    assert_eq!(wrong_cells(&want, &c[..10]).len(), 64 - 10 + 1, "cells not read back are wrong");
    // The same as the textbook sum for every cell of a wider product.
    let (a, b) = (matrix(Matrix::A, 16), matrix(Matrix::B, 16));
    let wide = product(16);
    for i in 0..256 {
        assert_eq!(wide[i], (0..16).map(|k| a[(i / 16) * 16 + k] * b[k * 16 + i % 16]).sum::<u32>(), "cell {i}");
    }
}

#[test]
fn with_both_barriers_every_schedule_gets_the_tile_right() {
    for schedule in schedules() {
        let end = run(TiledVariant::Both, schedule);
        assert!(end.is_finished(), "{schedule:?}");
        assert_eq!(tile_of_c(&end), model_tile_expected(), "{schedule:?}");
    }
}

#[test]
fn without_either_barrier_lockstep_hides_the_bug_and_one_at_a_time_shows_it() {
    for variant in [TiledVariant::WithoutFirst, TiledVariant::WithoutSecond] {
        let lockstep = run(variant, Schedule::Lockstep);
        assert_eq!(tile_of_c(&lockstep), model_tile_expected(), "{variant:?} in lockstep");
        let serial = run(variant, Schedule::Serial);
        assert!(serial.is_finished());
        let wrong = tile_of_c(&serial).iter().zip(model_tile_expected()).filter(|(a, b)| **a != *b).count();
        assert!(wrong > 0, "{variant:?}: one thread at a time must read a cell it should not");
        for schedule in schedules() {
            assert!(run(variant, schedule).is_finished(), "{variant:?} {schedule:?}: nothing waits for ever");
        }
    }
}

#[test]
fn without_the_first_barrier_the_first_thread_multiplies_what_is_there() {
    // Serial: thread 0 runs until the barrier after the first tile, before anyone else copies
    // a cell, so of that tile it finds only its own cells: a[0][0]·b[0][0]. At the second
    // tile it again finds only its own new cells; the rest still hold the first tile's.
    let (a, b) = (|r, c| i64::from(input(Matrix::A, r, c)), |r, c| i64::from(input(Matrix::B, r, c)));
    let first_tile = a(0, 0) * b(0, 0);
    let second_tile = a(0, 4) * b(4, 0) + (1..4).map(|k| a(0, k) * b(k, 0)).sum::<i64>();
    let end = run(TiledVariant::WithoutFirst, Schedule::Serial);
    assert_eq!(end.memory[C], first_tile + second_tile);
    assert_ne!(end.memory[C], model_tile_expected()[0]);
}

#[test]
fn every_variant_has_the_sixteen_threads_and_its_own_barriers() {
    let barriers = |v: TiledVariant| v.lowered().instrs.iter().filter(|i| matches!(i.op, stepper::ir::Op::Barrier { .. })).count();
    assert_eq!(barriers(TiledVariant::Both), 2);
    assert_eq!(barriers(TiledVariant::WithoutFirst), 1);
    assert_eq!(barriers(TiledVariant::WithoutSecond), 1);
    assert_eq!(TiledVariant::Both.machine().threads.len(), MODEL_THREADS);
    assert_eq!(N % TILE, 0);
}

#[test]
fn sizes_are_checked_against_the_gpu() {
    let small = ComputeLimits { max_workgroup_size_x: 256, max_invocations_per_workgroup: 64, max_workgroups_per_dimension: 65535 };
    assert!(TiledSize::DEFAULT.check(&small).is_ok());
    assert!(TiledSize { n: 64, tile: 16 }.check(&small).unwrap_err().contains("256 invocations"));
    assert!(TiledSize { n: 8, tile: 3 }.check(&small).is_err());
    assert!(TiledSize { n: 4, tile: 8 }.check(&small).is_err());
    assert!(TiledSize { n: 12, tile: 4 }.check(&small).is_err());
    assert!(TiledSize { n: 4, tile: 4 }.check(&small).is_err(), "widths come from the page's list");
    let few = ComputeLimits { max_workgroups_per_dimension: 1000, ..small };
    assert!(TiledSize { n: 512, tile: 4 }.check(&few).unwrap_err().contains("16384 workgroups"));
}
