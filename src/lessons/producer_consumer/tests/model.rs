//! The handoff in the model: no schedule reads stale data (an interleaving has one memory);
//! a consumer that runs before its producer gives up; between two dispatches nobody does.

use crate::gpu::params::GpuParams;
use crate::lessons::producer_consumer::{check, gave_up_cell, layout_problem, producer_of, stale_cell, Handoff, HandoffRun, MODEL_THREADS};
use crate::model::{splitmix64, Schedule, Session};

fn schedules() -> Vec<Schedule> {
    let mut s = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
    s.extend((0..40).map(|i| Schedule::Random { seed: splitmix64(i) }));
    s
}

#[test]
fn no_schedule_reads_stale_data_and_every_wait_ends() {
    for handoff in Handoff::ALL {
        for n in MODEL_THREADS {
            for schedule in schedules() {
                let end = Session::new(handoff.machine(n), schedule).run_to_end().clone();
                assert!(end.is_finished(), "{handoff:?} {n} {schedule:?}: bounded waits always end");
                assert_eq!(end.memory[stale_cell(n)], 0, "{handoff:?} {n} {schedule:?}: one memory, no stale read");
                assert!(end.memory[gave_up_cell(n)] <= n as i64);
            }
        }
    }
}

#[test]
fn serial_makes_the_first_consumer_give_up_unless_the_dispatch_ends_first() {
    for handoff in [Handoff::Relaxed, Handoff::StorageBarrier] {
        let end = Session::new(handoff.machine(4), Schedule::Serial).run_to_end().clone();
        // Each thread runs to its end before the next starts: it waits for a producer that has
        // not started, and gives up; only the last finds its flag (thread 0's).
        assert_eq!(end.memory[gave_up_cell(4)], 3, "{handoff:?}: {:?}", end.memory);
    }
    for handoff in [Handoff::SameWorkgroup, Handoff::TwoDispatches] {
        for schedule in schedules() {
            let end = Session::new(handoff.machine(4), schedule).run_to_end().clone();
            if handoff == Handoff::TwoDispatches {
                assert_eq!(end.memory[gave_up_cell(4)], 0, "{schedule:?}: every flag set before any consumer starts");
            }
        }
    }
}

#[test]
fn the_scene_marks_a_consumer_waiting_while_it_loads_the_flag() {
    let program = Handoff::Relaxed.program(4);
    let wait = program.lines.iter().position(|l| l.marker == "wait").unwrap();
    let again = program.lines.iter().rposition(|l| l.marker == "again").unwrap();
    assert!((wait..=again).all(|pc| program.span_at(pc) == Some("waiting")));
    assert_eq!((program.span_at(wait - 1), program.span_at(again + 1)), (None, None));
}

#[test]
fn gpu_runs_are_checked_against_what_is_guaranteed_and_promised() {
    let p = GpuParams { invocations: 128, workgroup_size: 64 };
    let run = |consumed, stale, gave_up| HandoffRun { consumed, stale, gave_up, longest_wait: 3 };
    for handoff in Handoff::ALL {
        assert_eq!(check(handoff, p, run(128, 0, 0)), crate::lessons::producer_consumer::HandoffCheck { consistent: true, promise_held: true });
        // Reads and give-ups that do not add up to the consumers, or more stale reads than reads.
        assert!(!check(handoff, p, run(120, 0, 0)).consistent);
        assert!(!check(handoff, p, run(100, 101, 28)).consistent);
    }
    assert!(check(Handoff::Relaxed, p, run(100, 7, 28)).promise_held, "nothing promised across workgroups");
    assert!(check(Handoff::StorageBarrier, p, run(100, 7, 28)).promise_held, "a barrier does not reach another workgroup");
    assert!(!check(Handoff::SameWorkgroup, p, run(128, 1, 0)).promise_held, "the barrier promises the data");
    assert!(check(Handoff::SameWorkgroup, p, run(100, 0, 28)).promise_held, "but not that a wait ends");
    assert!(!check(Handoff::TwoDispatches, p, run(127, 0, 1)).promise_held, "every flag was set by the first dispatch");
    assert!(!check(Handoff::TwoDispatches, p, run(128, 1, 0)).promise_held);
}

#[test]
fn each_consumer_reads_one_producer_and_each_producer_is_read_once() {
    for handoff in Handoff::ALL {
        for (invocations, workgroup_size) in [(4, 2), (128, 64), (1024, 256), (6, 3)] {
            let p = GpuParams { invocations, workgroup_size };
            assert_eq!(layout_problem(handoff, p), None, "{handoff:?} {p:?}");
            let mut read = vec![0; invocations as usize];
            for mine in 0..invocations {
                let theirs = producer_of(handoff, p, mine);
                assert_ne!(theirs, mine, "{handoff:?} {p:?}");
                assert_eq!(theirs / workgroup_size == mine / workgroup_size, !handoff.across_workgroups(), "{handoff:?} {p:?} {mine}");
                read[theirs as usize] += 1;
            }
            assert!(read.iter().all(|&r| r == 1), "{handoff:?} {p:?}");
        }
    }
    assert!(layout_problem(Handoff::Relaxed, GpuParams { invocations: 64, workgroup_size: 64 }).is_some());
    assert!(layout_problem(Handoff::SameWorkgroup, GpuParams { invocations: 64, workgroup_size: 1 }).is_some());
    assert!(layout_problem(Handoff::TwoDispatches, GpuParams { invocations: 100, workgroup_size: 64 }).is_some());
}
