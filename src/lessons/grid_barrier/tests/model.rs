//! The grid barrier in the model: with a slot for every workgroup nobody gives up in lockstep;
//! with fewer slots than workgroups the spinning ones hold the slots the others wait for, and
//! only the spin's bound ends it; two dispatches need no wait at all.

use crate::gpu::params::GpuParams;
use crate::lessons::grid_barrier::{check, crossover, sweep_sizes, GpuWay, GridCheck, GridRun, GridSync, ARRIVED, GAVE_UP, MODEL_THREADS, SLOTS, STALE};
use crate::model::{splitmix64, Schedule, Session};

fn schedules() -> Vec<Schedule> {
    let mut s = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
    s.extend((0..30).map(|i| Schedule::Random { seed: splitmix64(i) }));
    s
}

#[test]
fn every_schedule_ends_with_every_slot_given_back() {
    for sync in GridSync::ALL {
        for n in MODEL_THREADS {
            for schedule in schedules() {
                let end = Session::new(sync.machine(n), schedule).run_to_end().clone();
                assert!(end.is_finished(), "{sync:?} {n} {schedule:?}: the spin's bound ends every wait");
                assert_eq!(end.memory[SLOTS], sync.free_slots(n), "{sync:?} {n} {schedule:?}");
                assert_eq!(end.memory[STALE], 0, "{sync:?} {n} {schedule:?}: whoever passes reads a written part");
            }
        }
    }
}

#[test]
fn all_resident_in_lockstep_everyone_passes_and_two_slots_leave_the_first_two_spinning() {
    for n in MODEL_THREADS {
        let end = Session::new(GridSync::Resident.machine(n), Schedule::Lockstep).run_to_end().clone();
        assert_eq!((end.memory[GAVE_UP], end.memory[ARRIVED]), (0, n as i64), "{n}");
    }
    for n in 3..=*MODEL_THREADS.end() {
        let end = Session::new(GridSync::TwoSlots.machine(n), Schedule::Lockstep).run_to_end().clone();
        // The two that took the slots wait for workgroups that cannot start until they leave.
        assert!(end.memory[GAVE_UP] >= 2, "{n}: {:?}", end.memory);
    }
}

#[test]
fn two_dispatches_never_wait_and_never_give_up() {
    for n in MODEL_THREADS {
        for schedule in schedules() {
            let end = Session::new(GridSync::TwoDispatches.machine(n), schedule).run_to_end().clone();
            assert_eq!((end.memory[GAVE_UP], end.memory[STALE]), (0, 0), "{n} {schedule:?}");
        }
    }
}

#[test]
fn the_scene_marks_who_waits_for_a_slot_and_who_spins() {
    for sync in [GridSync::TwoSlots, GridSync::TwoDispatches] {
        let program = sync.program(4);
        for (pc, line) in program.lines.iter().enumerate() {
            let expected = match line.marker {
                "slot" => Some("no slot yet"),
                "wait" | "count" | "again" => Some("spinning"),
                _ => None,
            };
            assert_eq!(program.span_at(pc), expected, "{sync:?} line {pc} ({})", line.marker);
        }
    }
}

#[test]
fn gpu_runs_are_checked_and_the_crossover_found() {
    let p = GpuParams { invocations: 4 * 64, workgroup_size: 64 };
    let run = |passed, gave_up, stale| GridRun { workgroups: 4, passed, gave_up, stale, longest_wait: 1 };
    assert_eq!(check(GpuWay::GridBarrier, p, run(2, 2, 0)), GridCheck { consistent: true, promise_held: true });
    assert!(!check(GpuWay::GridBarrier, p, run(2, 1, 0)).consistent, "every workgroup passed or gave up");
    assert!(!check(GpuWay::GridBarrier, p, run(1, 3, 65)).consistent, "no more stale reads than readers");
    assert!(!check(GpuWay::TwoDispatches, p, run(3, 1, 0)).promise_held);
    assert!(!check(GpuWay::TwoDispatches, p, run(4, 0, 1)).promise_held);
    assert_eq!(sweep_sizes(1000), vec![1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
    assert_eq!(sweep_sizes(1), vec![1]);
    let sweep: Vec<GridRun> = [(1, 0), (2, 0), (4, 3), (8, 7)].map(|(w, g)| GridRun { workgroups: w, passed: w - g, gave_up: g, stale: 0, longest_wait: 0 }).to_vec();
    assert_eq!(crossover(&sweep), Some(4));
    assert_eq!(crossover(&sweep[..2]), None);
}
