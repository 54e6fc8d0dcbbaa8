//! The race lesson's model: every interleaving, every schedule, and the history that lets a
//! reader step back and forth.

use crate::lessons::race::{Variant, COUNTER, MODEL_THREADS};
use crate::model::{splitmix64, Effect, Machine, Schedule, Session, StepError, ThreadStatus};
use std::collections::BTreeSet;

/// Final counter values of every possible interleaving of the threads' instructions.
fn all_outcomes(machine: &Machine) -> BTreeSet<i64> {
    if machine.is_finished() {
        return BTreeSet::from([machine.memory[COUNTER]]);
    }
    let mut out = BTreeSet::new();
    for t in machine.ready_threads().collect::<Vec<_>>() {
        let mut next = machine.clone();
        next.step(t).expect("a ready thread can step");
        out.extend(all_outcomes(&next));
    }
    out
}

fn final_count(variant: Variant, threads: usize, schedule: Schedule) -> i64 {
    let mut session = Session::new(variant.machine(threads), schedule);
    session.run_to_end().memory[COUNTER]
}

#[test]
fn every_interleaving_of_the_racy_increment_ends_in_one_to_n_and_reaches_each() {
    for n in 1..=4usize {
        let outcomes = all_outcomes(&Variant::Racy.machine(n));
        let allowed = Variant::Racy.allowed_final_counts(n as u32);
        let expected: BTreeSet<i64> = allowed.map(i64::from).collect();
        assert_eq!(outcomes, expected, "{n} racy threads");
    }
}

#[test]
fn every_interleaving_of_atomic_add_ends_at_n() {
    for n in 1..=6usize {
        assert_eq!(all_outcomes(&Variant::Atomic.machine(n)), BTreeSet::from([n as i64]));
    }
}

/// Every count a reader would pick by eye, and the wide ones up to a whole wavefront.
fn shown_thread_counts() -> impl Iterator<Item = usize> {
    MODEL_THREADS.filter(|&n| n <= 8 || n.is_power_of_two())
}

fn automatic_schedules(seeds: u64) -> Vec<Schedule> {
    let mut s = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
    s.extend((0..seeds).map(|i| Schedule::Random { seed: splitmix64(i) }));
    s
}

#[test]
fn atomic_add_by_n_threads_ends_at_n_under_every_schedule() {
    for n in shown_thread_counts() {
        for schedule in automatic_schedules(200) {
            assert_eq!(final_count(Variant::Atomic, n, schedule), n as i64, "{schedule:?}");
        }
    }
}

#[test]
fn racy_increment_stays_within_one_to_n_under_every_schedule() {
    for n in shown_thread_counts() {
        for schedule in automatic_schedules(500) {
            let c = final_count(Variant::Racy, n, schedule);
            assert!((1..=n as i64).contains(&c), "{n} threads, {schedule:?}: {c}");
        }
    }
}

#[test]
fn lockstep_loses_every_update_but_one() {
    for n in shown_thread_counts() {
        assert_eq!(final_count(Variant::Racy, n, Schedule::Lockstep), 1);
    }
}

#[test]
fn running_threads_one_after_another_loses_nothing() {
    for n in shown_thread_counts() {
        assert_eq!(final_count(Variant::Racy, n, Schedule::Serial), n as i64);
        // The same by hand: each thread to completion, in a shuffled order.
        let mut session = Session::new(Variant::Racy.machine(n), Schedule::Manual);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&t| splitmix64(t as u64 + 99));
        for t in order {
            while session.current().threads[t].status != ThreadStatus::Done {
                session.step_thread(t).unwrap();
            }
        }
        assert_eq!(session.current().memory[COUNTER], n as i64);
    }
}

#[test]
fn random_schedules_find_lost_updates_and_depend_on_the_seed() {
    let counts: BTreeSet<i64> = (0..200).map(|s| final_count(Variant::Racy, 4, Schedule::Random { seed: s })).collect();
    assert!(counts.len() > 1, "200 seeds all gave {counts:?}");
    assert!(counts.iter().any(|&c| c < 4));
}

#[test]
fn a_seeded_run_is_the_same_every_time() {
    for seed in 0..50 {
        let mut a = Session::new(Variant::Racy.machine(5), Schedule::Random { seed });
        let mut b = Session::new(Variant::Racy.machine(5), Schedule::Random { seed });
        assert_eq!(a.run_to_end(), b.run_to_end());
    }
}

#[test]
fn round_robin_takes_turns() {
    let mut s = Session::new(Variant::Racy.machine(3), Schedule::RoundRobin);
    let mut order = vec![];
    while s.step() {
        order.push(s.last_events()[0].thread);
    }
    // Two steps each: the load, then the store (the add is the invocation's own arithmetic,
    // taken with the store it feeds).
    assert_eq!(order, [0, 1, 2, 0, 1, 2]);
    // Every thread loads 0 before anyone stores: one update survives.
    assert_eq!(s.current().memory[COUNTER], 1);
}

#[test]
fn back_and_forth_returns_to_identical_states() {
    let mut s = Session::new(Variant::Racy.machine(4), Schedule::Random { seed: 7 });
    let mut forward = vec![s.current().clone()];
    while s.step() {
        forward.push(s.current().clone());
    }
    let end = s.cursor();
    while s.back() {
        assert_eq!(s.current(), &forward[s.cursor()]);
    }
    assert_eq!(s.cursor(), 0);
    assert_eq!(s.seek(end), end);
    assert_eq!(s.current(), forward.last().unwrap());
    assert_eq!(s.seek(3), 3);
    assert_eq!(s.current(), &forward[3]);
    assert_eq!(s.seek(10_000), end, "seeking past the end stops at the end");
}

#[test]
fn a_manual_choice_after_stepping_back_replaces_the_future() {
    let mut s = Session::new(Variant::Racy.machine(2), Schedule::Manual);
    let (load, end) = (s.current().threads[0].pc, s.current().program().len());
    let store = s.current().program().next_step(load);
    assert!(!s.step(), "a manual schedule waits for the reader");
    s.step_thread(0).unwrap();
    s.step_thread(1).unwrap();
    s.step_thread(0).unwrap();
    assert_eq!(s.known_ticks(), 3);
    s.back();
    s.back();
    // Redo: the same choice keeps the known future.
    s.step_thread(1).unwrap();
    assert_eq!(s.known_ticks(), 3);
    // A different choice drops it.
    s.step_thread(1).unwrap();
    assert_eq!(s.known_ticks(), 3);
    assert_eq!(s.cursor(), 3);
    assert_eq!(s.current().threads[0].pc, store, "thread 0 still waits at its store");
    assert_eq!(s.current().threads[1].pc, end, "thread 1 has stored");
    assert_eq!(s.current().describe(store), "atomicStore(&counter, value)");
}

#[test]
fn stepping_a_finished_or_missing_thread_is_refused_not_a_panic() {
    let mut s = Session::new(Variant::Atomic.machine(2), Schedule::Manual);
    s.step_thread(0).unwrap();
    assert_eq!(s.step_thread(0), Err(StepError::Finished(0)));
    assert_eq!(s.step_thread(9), Err(StepError::NoSuchThread(9)));
    assert_eq!(s.cursor(), 1, "a refused step leaves the history alone");
}

#[test]
fn lockstep_moves_all_threads_per_tick_and_narrates_each() {
    let mut s = Session::new(Variant::Racy.machine(4), Schedule::Lockstep);
    assert!(s.step());
    let events = s.last_events();
    assert_eq!(events.len(), 4);
    assert!(events.iter().all(|e| e.effect == Effect::Loaded { addr: COUNTER, value: 0 }));
    assert_eq!(s.current().narrate(&events[2]), "thread 2 loads 0 from counter");
    s.step();
    s.step();
    assert_eq!(s.current().narrate(&s.last_events()[3]), "thread 3 stores 1 to counter");
    assert!(s.is_finished());
}

#[test]
fn atomic_add_returns_distinct_old_values() {
    let mut s = Session::new(Variant::Atomic.machine(6), Schedule::Random { seed: 3 });
    s.run_to_end();
    s.seek(usize::MAX);
    let olds: BTreeSet<i64> = s
        .past_events()
        .map(|(_, e)| match e.effect {
            Effect::AtomicAdded { old, .. } => old,
            _ => panic!("only atomic adds here"),
        })
        .collect();
    assert_eq!(olds, (0..6).collect());
}
