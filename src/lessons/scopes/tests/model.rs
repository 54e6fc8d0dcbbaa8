//! Barriers in the model: within a workgroup nobody reads a cell before it is written, in any
//! schedule; with the neighbour in the next workgroup (no barrier that waits for it) a serial
//! schedule reads it unwritten.

use crate::gpu::params::GpuParams;
use crate::lessons::scopes::{check, layout_problem, neighbour_of, stale_cell, BarrierReach, ReachCheck, ReachRun, MODEL_THREADS};
use crate::model::{splitmix64, Schedule, Session};

fn schedules() -> Vec<Schedule> {
    let mut s = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
    s.extend((0..40).map(|i| Schedule::Random { seed: splitmix64(i) }));
    s
}

#[test]
fn within_a_workgroup_the_barrier_lets_nobody_read_early() {
    for reach in [BarrierReach::StorageBarrier, BarrierReach::WorkgroupBarrier] {
        for n in MODEL_THREADS {
            for schedule in schedules() {
                let end = Session::new(reach.machine(n), schedule).run_to_end().clone();
                assert!(end.is_finished());
                assert_eq!(end.memory[stale_cell(n)], 0, "{reach:?} {n} {schedule:?}");
            }
        }
    }
}

#[test]
fn across_workgroups_a_serial_schedule_reads_the_neighbour_unwritten() {
    for reach in [BarrierReach::StorageBarrierAcross, BarrierReach::WorkgroupBarrierAcross] {
        let end = Session::new(reach.machine(4), Schedule::Serial).run_to_end().clone();
        // Threads 0, 1 and 2 each run to the end before their neighbour starts; 3 reads 0's.
        assert_eq!(end.memory[stale_cell(4)], 3, "{reach:?}");
        let end = Session::new(reach.machine(4), Schedule::Lockstep).run_to_end().clone();
        assert_eq!(end.memory[stale_cell(4)], 0, "{reach:?}: in lockstep every cell is written first");
    }
}

#[test]
fn gpu_runs_are_checked_against_what_is_guaranteed_and_promised() {
    let p = GpuParams { invocations: 128, workgroup_size: 64 };
    let run = |fresh, stale, impossible| ReachRun { fresh, stale, impossible };
    for reach in BarrierReach::ALL {
        assert_eq!(check(reach, p, run(128, 0, 0)), ReachCheck { consistent: true, promise_held: true });
        assert!(!check(reach, p, run(100, 0, 0)).consistent, "every read counted");
        assert!(!check(reach, p, run(127, 0, 1)).consistent, "nobody else writes a cell");
        assert_eq!(check(reach, p, run(120, 8, 0)).promise_held, reach != BarrierReach::StorageBarrier, "{reach:?}");
    }
}

#[test]
fn each_reader_reads_one_neighbour_and_each_cell_is_read_once() {
    for reach in BarrierReach::ALL {
        for (invocations, workgroup_size) in [(4, 2), (128, 64), (1024, 256)] {
            let p = GpuParams { invocations, workgroup_size };
            assert_eq!(layout_problem(reach, p), None);
            let mut read = vec![0; invocations as usize];
            for mine in 0..invocations {
                let theirs = neighbour_of(reach, p, mine);
                assert_ne!(theirs, mine);
                assert_eq!(theirs / workgroup_size == mine / workgroup_size, !reach.across_workgroups(), "{reach:?} {p:?} {mine}");
                read[theirs as usize] += 1;
            }
            assert!(read.iter().all(|&r| r == 1), "{reach:?} {p:?}");
        }
    }
    assert!(layout_problem(BarrierReach::StorageBarrierAcross, GpuParams { invocations: 64, workgroup_size: 64 }).is_some());
    assert!(layout_problem(BarrierReach::StorageBarrier, GpuParams { invocations: 8, workgroup_size: 1 }).is_some());
}
