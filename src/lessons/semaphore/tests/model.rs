//! The semaphore in the model: with one compare-exchange per take, never more threads inside
//! than the limit, whatever the schedule; with a read and then a separate take, more.

use crate::gpu::params::GpuParams;
use crate::lessons::semaphore::{check, Semaphore, SemaphoreRun, COUNT, GAVE_UP, INSIDE, MODEL_THREADS, PEAK};
use crate::model::{splitmix64, Schedule, Session};

fn schedules() -> Vec<Schedule> {
    let mut s = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
    s.extend((0..60).map(|i| Schedule::Random { seed: splitmix64(i) }));
    s
}

/// The most threads the scene ever marks "inside" (from entering to releasing) at one tick.
fn most_inside(semaphore: Semaphore, s: &mut Session) -> usize {
    let program = semaphore.program();
    let enter = program.lines.iter().position(|l| l.marker == "enter").unwrap();
    let release = program.lines.iter().position(|l| l.marker == "release").unwrap();
    assert!((enter..=release).all(|pc| program.span_at(pc) == Some("inside")));
    assert_eq!((program.span_at(enter - 1), program.span_at(release + 1)), (None, None));
    let mut most = 0;
    s.seek(0);
    while s.cursor() < s.known_ticks() {
        s.seek(s.cursor() + 1);
        most = most.max(s.current().threads.iter().filter(|t| program.span_at(t.pc) == Some("inside")).count());
    }
    most
}

#[test]
fn one_exchange_per_take_never_lets_more_than_the_limit_in() {
    for semaphore in [Semaphore::Counting, Semaphore::Binary] {
        let limit = semaphore.limit() as usize;
        for n in MODEL_THREADS.step_by(3) {
            for schedule in schedules() {
                let mut s = Session::new(semaphore.machine(n), schedule);
                let end = s.run_to_end().clone();
                assert!(end.is_finished(), "{semaphore:?} {n} {schedule:?}: bounded spins always end");
                assert_eq!(end.memory[COUNT], limit as i64, "{semaphore:?} {n} {schedule:?}: every slot given back");
                assert_eq!(end.memory[INSIDE], 0);
                assert!((1..=limit.min(n) as i64).contains(&end.memory[PEAK]), "{semaphore:?} {n} {schedule:?}: {:?}", end.memory);
                assert!(most_inside(semaphore, &mut s) <= limit, "{semaphore:?} {n} {schedule:?}");
            }
        }
    }
}

#[test]
fn the_counting_semaphore_lets_four_in_at_once_somewhere() {
    let reached = schedules().into_iter().any(|schedule| {
        let mut s = Session::new(Semaphore::Counting.machine(8), schedule);
        s.run_to_end().memory[PEAK] == 4
    });
    assert!(reached, "some schedule fills all four slots");
}

#[test]
fn reading_then_taking_lets_everyone_in_in_lockstep() {
    for n in MODEL_THREADS {
        let mut s = Session::new(Semaphore::CheckThenTake.machine(n), Schedule::Lockstep);
        let end = s.run_to_end().clone();
        // All read 4, all see a slot, all take one: the count goes to 4 - n and everyone is in.
        assert_eq!(end.memory[PEAK], n as i64, "{n} threads in lockstep");
        assert_eq!((end.memory[COUNT], end.memory[GAVE_UP]), (4, 0), "and it all balances at the end");
        assert_eq!(most_inside(Semaphore::CheckThenTake, &mut s), n);
    }
}

#[test]
fn lockstep_makes_the_counting_semaphores_waiters_give_up_and_serial_never_does() {
    let end = Session::new(Semaphore::Counting.machine(8), Schedule::Serial).run_to_end().clone();
    assert_eq!((end.memory[GAVE_UP], end.memory[PEAK]), (0, 1), "one at a time, each alone");
    let end = Session::new(Semaphore::Binary.machine(8), Schedule::Lockstep).run_to_end().clone();
    assert!(end.memory[GAVE_UP] >= 1, "{:?}", end.memory);
}

#[test]
fn gpu_runs_are_checked_against_what_is_guaranteed() {
    let p = GpuParams { invocations: 100, workgroup_size: 64 };
    let run = |count, entered, gave_up, inside, peak, over| SemaphoreRun { count, entered, gave_up, inside, peak, over };
    let good = check(Semaphore::Counting, p, run(4, 90, 10, 0, 4, 0));
    assert!(good.consistent && good.limit_held);
    let too_many = check(Semaphore::CheckThenTake, p, run(4, 100, 0, 0, 9, 12));
    assert!(too_many.consistent && !too_many.limit_held);
    assert!(!check(Semaphore::Binary, p, run(1, 100, 0, 0, 2, 0)).limit_held, "two inside a mutex");
    // Unaccounted invocations, a count or `inside` that does not balance, a peak above the
    // entries: impossible with atomics.
    assert!(!check(Semaphore::Counting, p, run(4, 90, 9, 0, 4, 0)).consistent);
    assert!(!check(Semaphore::Counting, p, run(3, 90, 10, 0, 4, 0)).consistent);
    assert!(!check(Semaphore::Counting, p, run(4, 90, 10, 1, 4, 0)).consistent);
    assert!(!check(Semaphore::Counting, p, run(4, 3, 97, 0, 4, 0)).consistent);
    assert!(!check(Semaphore::Counting, p, run(4, 90, 10, 0, 0, 0)).consistent);
}
