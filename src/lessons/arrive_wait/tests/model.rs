//! Arrive and wait in the model: while every thread gets to run, the hand-built waits end with
//! every neighbour's value in place; a schedule that keeps a thread from running makes the
//! others give up and read a cell not yet written. The barrier never lets anyone out early.

use crate::gpu::params::GpuParams;
use crate::lessons::arrive_wait::{check, model_outcome, ArriveRun, ArriveWait, GOT, MODEL_THREADS};
use crate::model::{splitmix64, Schedule, Session};

fn schedules() -> Vec<Schedule> {
    let mut s = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
    s.extend((0..60).map(|i| Schedule::Random { seed: splitmix64(i) }));
    s
}

#[test]
fn a_thread_that_waited_to_the_end_reads_its_neighbours_value() {
    for variant in ArriveWait::ALL {
        for n in MODEL_THREADS {
            for schedule in schedules() {
                let end = Session::new(variant.machine(n), schedule).run_to_end().clone();
                assert!(end.is_finished(), "{variant:?} {n} {schedule:?}: every wait is bounded");
                let (gave_up, stale) = model_outcome(&end);
                // A stale read needs a give-up: in the model a released waiter always finds the
                // value (its interleavings are sequentially consistent; a GPU's atomics are not).
                assert!(stale as i64 <= gave_up, "{variant:?} {n} {schedule:?}: {stale} stale, {gave_up} gave up");
                if variant == ArriveWait::Split {
                    assert_eq!(end.memory[variant.cell(n, "phase").unwrap()], 1, "opened once");
                    assert_eq!(end.memory[variant.cell(n, "arrived").unwrap()], 0, "reset for the next phase");
                }
                if variant == ArriveWait::Latch {
                    assert_eq!(end.memory[variant.cell(n, "left").unwrap()], 0, "spent, never reset");
                }
            }
        }
    }
}

#[test]
fn lockstep_releases_everyone_and_serial_makes_the_first_give_up() {
    for variant in [ArriveWait::Split, ArriveWait::Latch] {
        let end = Session::new(variant.machine(4), Schedule::Lockstep).run_to_end().clone();
        assert_eq!(model_outcome(&end), (0, 0), "{variant:?} in lockstep");
        // Serial runs thread 0 to its end before thread 1 starts: it waits for threads that
        // cannot run, gives up and reads a neighbour's cell not yet written.
        let end = Session::new(variant.machine(4), Schedule::Serial).run_to_end().clone();
        let (gave_up, stale) = model_outcome(&end);
        assert!(gave_up >= 1 && stale >= 1, "{variant:?} serial: {gave_up} gave up, {stale} stale");
        assert_eq!(end.threads[0].regs[GOT], 0, "thread 0 read thread 1's cell before it was written");
    }
}

#[test]
fn the_barrier_lets_nobody_read_early_in_any_schedule() {
    for n in MODEL_THREADS {
        for schedule in schedules() {
            let end = Session::new(ArriveWait::WorkgroupBarrier.machine(n), schedule).run_to_end().clone();
            assert_eq!(model_outcome(&end), (0, 0), "{n} {schedule:?}");
        }
    }
}

#[test]
fn gpu_runs_are_checked_against_what_is_guaranteed() {
    let p = GpuParams { invocations: 6, workgroup_size: 4 };
    let run = |opened, released, gave_up, stale, tickets: &[u32]| ArriveRun { opened, released, gave_up, stale, longest_wait: 3, tickets: tickets.to_vec() };
    let good = check(ArriveWait::Split, p, &run(2, 6, 0, 0, &[2, 1, 4, 3, 1, 2]));
    assert!(good.consistent && good.clean);
    let late = check(ArriveWait::Latch, p, &run(0, 4, 2, 1, &[1, 2, 3, 4, 2, 1]));
    assert!(late.consistent && !late.clean);
    // A ticket twice in a workgroup, one missing, one past its size, a phase opened twice,
    // invocations unaccounted for: impossible with atomics.
    assert!(!check(ArriveWait::Split, p, &run(2, 6, 0, 0, &[1, 1, 3, 4, 1, 2])).consistent);
    assert!(!check(ArriveWait::Split, p, &run(2, 6, 0, 0, &[1, 2, 3, 4, 3, 1])).consistent);
    assert!(!check(ArriveWait::Split, p, &run(3, 6, 0, 0, &[1, 2, 3, 4, 1, 2])).consistent);
    assert!(!check(ArriveWait::Split, p, &run(2, 5, 0, 0, &[1, 2, 3, 4, 1, 2])).consistent);
    assert!(check(ArriveWait::WorkgroupBarrier, p, &run(0, 6, 0, 0, &[4, 3, 2, 1, 2, 1])).consistent);
}
