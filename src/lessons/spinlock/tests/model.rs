//! The spinlock in the model: with a lock, one thread at a time between taking and releasing
//! it, so every thread either increments once or gives up; without one, increments are lost.

use crate::gpu::params::GpuParams;
use crate::lessons::spinlock::{check, Lock, LockRun, COUNTER, GAVE_UP, LOCK, MODEL_THREADS};
use crate::model::{splitmix64, Schedule, Session};

fn schedules() -> Vec<Schedule> {
    let mut s = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
    s.extend((0..60).map(|i| Schedule::Random { seed: splitmix64(i) }));
    s
}

#[test]
fn with_a_lock_one_thread_at_a_time_increments_or_gives_up() {
    for lock in [Lock::SpinThenEnter, Lock::EnterInLoop] {
        let held = lock.machine(2).program().spans[0].lines.clone();
        for n in MODEL_THREADS.step_by(3) {
            for schedule in schedules() {
                let mut s = Session::new(lock.machine(n), schedule);
                let end = s.run_to_end().clone();
                assert!(end.is_finished(), "{lock:?} {n} {schedule:?}: bounded spins always end");
                assert_eq!(end.memory[COUNTER] + end.memory[GAVE_UP], n as i64, "{lock:?} {n} {schedule:?}");
                assert_eq!(end.memory[LOCK], 0, "released at the end");
                // Replay every tick: never two threads between the increment and the release.
                s.seek(0);
                while s.cursor() < s.known_ticks() {
                    s.seek(s.cursor() + 1);
                    let inside = s.current().threads.iter().filter(|t| held.contains(&t.pc)).count();
                    assert!(inside <= 1, "{lock:?} {n} {schedule:?} tick {}: {inside} inside", s.cursor());
                }
            }
        }
    }
}

#[test]
fn serial_never_gives_up_and_lockstep_makes_someone_give_up() {
    let mut serial = Session::new(Lock::EnterInLoop.machine(8), Schedule::Serial);
    let end = serial.run_to_end().clone();
    assert_eq!((end.memory[COUNTER], end.memory[GAVE_UP]), (8, 0));
    // In lockstep the waiters use up their tries while the holder works through its steps.
    let mut lockstep = Session::new(Lock::EnterInLoop.machine(8), Schedule::Lockstep);
    let end = lockstep.run_to_end().clone();
    assert!(end.memory[GAVE_UP] >= 1, "{:?}", end.memory);
}

#[test]
fn without_a_lock_increments_are_lost() {
    for n in MODEL_THREADS {
        let mut lost_somewhere = false;
        for schedule in schedules() {
            let mut s = Session::new(Lock::None.machine(n), schedule);
            let c = s.run_to_end().memory[COUNTER];
            assert!((1..=n as i64).contains(&c), "{n} {schedule:?}: {c}");
            lost_somewhere |= c < n as i64;
        }
        assert!(lost_somewhere, "{n} threads: some schedule loses an update");
    }
}

#[test]
fn gpu_runs_are_checked_against_what_is_guaranteed() {
    let p = GpuParams { invocations: 100, workgroup_size: 64 };
    let run = |counter, entered, gave_up, overlaps| LockRun { counter, entered, gave_up, overlaps };
    let good = check(Lock::EnterInLoop, p, run(90, 90, 10, 0));
    assert!(good.consistent && good.excluded && good.lost == 0);
    let leaky = check(Lock::EnterInLoop, p, run(85, 90, 10, 2));
    assert!(leaky.consistent && !leaky.excluded);
    assert_eq!(leaky.lost, 5);
    // More increments than entries, or invocations unaccounted for: impossible.
    assert!(!check(Lock::EnterInLoop, p, run(91, 90, 10, 0)).consistent);
    assert!(!check(Lock::SpinThenEnter, p, run(80, 80, 10, 0)).consistent);
    assert!(!check(Lock::None, p, run(0, 100, 0, 0)).consistent);
    assert!(check(Lock::None, p, run(1, 100, 0, 99)).consistent);
}

