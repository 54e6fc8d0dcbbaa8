//! A run that replaces another (a variant switched, a reset after the schedule changed) is the
//! run a fresh load of its link gives: nothing of the old run's order survives but the reader's
//! own picks, and a view keyed on the run's revision always sees the change.

use std::collections::HashMap;
use syncscope::lessons::race::{GpuParams, RaceSettings, Variant};
use syncscope::model::{Schedule, Session};
use syncscope::site::permalink::query;

const AUTOMATIC: [Schedule; 4] = [Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial, Schedule::Random { seed: 7 }];

/// The run the link of `session` opens, as a fresh page load would.
fn reload(variant: Variant, session: &Session) -> Session {
    let gpu = GpuParams { invocations: 64, workgroup_size: 64 };
    let q = query("race", &RaceSettings::capture(variant, session, gpu).to_pairs());
    let map: HashMap<String, String> = q.split('&').filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k.to_owned(), v.replace("%2C", ","))).collect();
    let (settings, problems) = RaceSettings::parse(|k| map.get(k).cloned());
    assert!(problems.is_empty(), "{q}: {problems:?}");
    let (again, problems) = settings.session();
    assert!(problems.is_empty(), "{q}: {problems:?}");
    again
}

fn assert_same_run(a: &Session, b: &Session, what: &str) {
    assert_eq!(a.cursor(), b.cursor(), "{what}: cursor");
    assert_eq!(a.known_ticks(), b.known_ticks(), "{what}: known ticks");
    assert_eq!(a.current(), b.current(), "{what}: state");
    assert_eq!(a.chosen_ticks(), b.chosen_ticks(), "{what}: chosen ticks");
    let threads = |s: &Session| s.ticks().iter().map(|t| t.iter().map(|e| e.thread).collect::<Vec<_>>()).collect::<Vec<_>>();
    assert_eq!(threads(a), threads(b), "{what}: the order");
}

#[test]
fn no_two_runs_share_a_revision() {
    // Two runs of the same length used to end on the same number, and a view keyed on it kept
    // the first run's trace after a variant switch.
    let mut racy = Session::new(Variant::Racy.machine(4), Schedule::Serial);
    racy.run_to_end();
    let mut atomic = Session::new(Variant::Atomic.machine(4), Schedule::Serial);
    atomic.run_to_end();
    assert_ne!(racy.revision(), atomic.revision());
    let restarted = RaceSettings::after_switch(Variant::Atomic, 4, &racy);
    assert_ne!(restarted.revision(), racy.revision());
    assert_ne!(restarted.revision(), atomic.revision());
}

#[test]
fn a_variant_switched_at_a_step_is_the_new_variants_run_at_that_step() {
    for schedule in AUTOMATIC {
        let mut racy = Session::new(Variant::Racy.machine(4), schedule);
        racy.run_to_end();
        for step in 0..=racy.known_ticks() {
            racy.seek(step);
            let switched = RaceSettings::after_switch(Variant::Atomic, 4, &racy);
            let mut fresh = Session::new(Variant::Atomic.machine(4), schedule);
            fresh.run_to_end();
            fresh.seek(step);
            assert_same_run(&switched, &fresh, &format!("{schedule:?} at step {step}"));
            assert_same_run(&switched, &reload(Variant::Atomic, &switched), &format!("{schedule:?} at step {step}, reloaded"));
        }
    }
}

#[test]
fn a_reset_after_a_schedule_switch_runs_the_named_schedule() {
    for from in AUTOMATIC {
        for to in AUTOMATIC.into_iter().filter(|&to| to != from) {
            let mut s = Session::new(Variant::Racy.machine(4), from);
            s.run_to_end();
            for step in [0, 3, s.known_ticks()] {
                let mut switched = s.clone();
                switched.seek(step);
                switched.set_schedule(to);
                switched.run_to_end();
                // Until the reset, the link spells out the steps taken before the switch.
                assert_same_run(&switched, &reload(Variant::Racy, &switched), &format!("{from:?} → {to:?} at {step}"));
                switched.reset_to_schedule();
                switched.seek(usize::MAX);
                let mut fresh = Session::new(Variant::Racy.machine(4), to);
                fresh.seek(usize::MAX);
                assert_same_run(&switched, &fresh, &format!("{from:?} → {to:?} at {step}, reset, end"));
                assert!(switched.chosen_ticks().is_empty());
            }
        }
    }
}

#[test]
fn the_readers_picks_survive_a_reset_and_a_variant_switch() {
    let mut s = Session::new(Variant::Racy.machine(3), Schedule::Manual);
    // One move each, which both variants have (the atomic one's first line is its atomicAdd).
    for t in [2, 0, 1] {
        s.step_thread(t).unwrap();
    }
    let picks = s.chosen_ticks();
    s.reset_to_schedule();
    assert_eq!(s.cursor(), 0);
    assert_eq!(s.chosen_ticks(), picks, "a reset by hand keeps the picks to step through again");
    s.seek(3);
    let switched = RaceSettings::after_switch(Variant::Atomic, 3, &s);
    assert_eq!(switched.cursor(), 3);
    assert_eq!(switched.chosen_ticks(), picks, "the picks are taken again by the new variant");
    assert_same_run(&switched, &reload(Variant::Atomic, &switched), "manual, switched");
    // Fewer threads: the picks stop at the first that names a thread the new start lacks.
    let fewer = RaceSettings::after_switch(Variant::Racy, 2, &s);
    assert!(fewer.chosen_ticks().is_empty(), "thread 2's pick cannot be taken by two threads");
    assert!(fewer.fault().is_none());
}
