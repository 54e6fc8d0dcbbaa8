//! The trace the scene and the timeline draw: what each step did to memory, the lost update
//! and the stale read marked where they happen, and the race drawn as links.

use syncscope::lessons::barrier::BarrierVariant;
use syncscope::lessons::race::Variant;
use syncscope::model::{AccessKind, Mark, Schedule, Session, Trace};
use syncscope::site::settings::LessonVariant;

fn trace_of<V: LessonVariant>(v: V, threads: usize, schedule: Schedule) -> (Session, Trace) {
    let mut s = Session::new(v.machine(threads), schedule);
    s.run_to_end();
    let trace = Trace::of(s.ticks());
    (s, trace)
}

#[test]
fn lockstep_racy_increment_marks_each_lost_update_and_stale_read() {
    let (mut s, trace) = trace_of(Variant::Racy, 4, Schedule::Lockstep);
    assert_eq!(s.run_to_end().memory[0], 1);
    let stores: Vec<_> = trace.accesses.iter().filter(|a| a.kind == AccessKind::Write).collect();
    assert_eq!(stores.len(), 4);
    // The first store erases nothing; each later one erases the store before it.
    assert_eq!(stores[0].mark, None);
    for pair in stores.windows(2) {
        assert_eq!(pair[1].mark, Some(Mark::LostUpdate { erased: pair[0].thread }), "{pair:?}");
    }
    // Every load but the first storer's read a value another thread then overwrote.
    let stale = trace.accesses.iter().filter(|a| matches!(a.mark, Some(Mark::StaleRead { .. }))).count();
    assert_eq!(stale, 3);
}

#[test]
fn serial_and_atomic_runs_mark_nothing() {
    for (v, schedule) in [(Variant::Racy, Schedule::Serial), (Variant::Atomic, Schedule::Lockstep), (Variant::Atomic, Schedule::Random { seed: 7 })] {
        let (_, trace) = trace_of(v, 6, schedule);
        assert!(trace.accesses.iter().all(|a| a.mark.is_none()), "{v:?} {schedule:?}");
    }
}

#[test]
fn a_lost_update_is_marked_exactly_when_the_count_comes_up_short() {
    // Across random schedules the final count and the marks tell the same story. (One marked
    // store can erase several updates at once, so the marks are not a count of the loss.)
    let mut short = 0;
    for seed in 0..200 {
        let (mut s, trace) = trace_of(Variant::Racy, 5, Schedule::Random { seed });
        let lost = trace.accesses.iter().filter(|a| matches!(a.mark, Some(Mark::LostUpdate { .. }))).count();
        let count = s.run_to_end().memory[0];
        assert_eq!(lost == 0, count == 5, "seed {seed}: {lost} marked, count {count}");
        short += usize::from(count < 5);
    }
    assert!(short > 100, "random schedules usually lose an update: {short} of 200");
}

#[test]
fn links_join_two_threads_on_one_cell_where_one_writes() {
    let (_, trace) = trace_of(Variant::Racy, 3, Schedule::RoundRobin);
    assert!(!trace.links.is_empty());
    for &(a, b) in &trace.links {
        let (x, y) = (&trace.accesses[a], &trace.accesses[b]);
        assert!(a < b && x.cell == y.cell && x.thread != y.thread && (x.kind.writes() || y.kind.writes()), "{x:?} {y:?}");
    }
}

#[test]
fn the_barrier_keeps_reads_fresh_and_its_absence_does_not() {
    let (_, with) = trace_of(BarrierVariant::With, 4, Schedule::Serial);
    assert!(with.accesses.iter().all(|a| a.mark.is_none()));
    assert_eq!(with.accesses.iter().filter(|a| a.kind == AccessKind::Release).count(), 1);
    assert_eq!(with.accesses.iter().filter(|a| a.kind == AccessKind::Arrive).count(), 3);
    let (_, without) = trace_of(BarrierVariant::Without, 4, Schedule::Serial);
    // One at a time, threads 0..2 read a neighbour that has not written yet.
    let stale = without.accesses.iter().filter(|a| matches!(a.mark, Some(Mark::StaleRead { .. }))).count();
    assert_eq!(stale, 3);
}

#[test]
fn a_trace_has_one_access_per_event_and_two_per_copy() {
    let (s, trace) = trace_of(Variant::Racy, 4, Schedule::Random { seed: 3 });
    let events: usize = s.ticks().iter().map(Vec::len).sum();
    assert_eq!(trace.accesses.len(), events);
    assert!(trace.accesses.windows(2).all(|w| w[0].tick <= w[1].tick));
}

#[test]
fn a_recorded_race_is_traced_in_ticket_order_with_its_lost_updates_marked() {
    use syncscope::model::{AccessRecord, ReplayTimeline};
    // Two invocations both loaded 0 and stored 1: tickets 0, 1 for the loads, 2, 3 for the stores.
    let records =
        [AccessRecord { loaded: 0, stored: 1, load_ticket: 0, store_ticket: 2 }, AccessRecord { loaded: 0, stored: 1, load_ticket: 1, store_ticket: 3 }];
    let replay = ReplayTimeline::from_records(&records, 0, 1).unwrap();
    let trace = Trace::of_replay(&replay);
    assert_eq!(trace.accesses.len(), 4);
    assert_eq!(trace.accesses[3].mark, Some(Mark::LostUpdate { erased: 0 }));
    assert!(matches!(trace.accesses[1].mark, Some(Mark::StaleRead { overtaken_by: 0, at: 3 })));
    // Atomic records: read-modify-writes, nothing lost.
    let atomic =
        [AccessRecord { loaded: 0, stored: 1, load_ticket: 0, store_ticket: 0 }, AccessRecord { loaded: 1, stored: 2, load_ticket: 1, store_ticket: 1 }];
    let trace = Trace::of_replay(&ReplayTimeline::from_records(&atomic, 0, 2).unwrap());
    assert!(trace.accesses.iter().all(|a| a.kind == AccessKind::ReadModifyWrite && a.mark.is_none()));
}

#[test]
fn a_recorded_race_is_drawn_as_machines_holding_only_recorded_values() {
    use syncscope::lessons::race::Variant;
    use syncscope::model::{AccessRecord, ReplayTimeline, ThreadStatus};
    // Invocation 1 loads 0 (ticket 0), invocation 0 loads 0 (1), 1 stores 1 (2), 0 stores 1 (3).
    let records =
        [AccessRecord { loaded: 0, stored: 1, load_ticket: 1, store_ticket: 3 }, AccessRecord { loaded: 0, stored: 1, load_ticket: 0, store_ticket: 2 }];
    let replay = ReplayTimeline::from_records(&records, 0, 1).unwrap();
    let start = Variant::Racy.machine(2);
    let (load, end) = (start.threads[0].pc, start.program().len());
    let store = start.program().next_step(load);
    let at = |k: usize| replay.machine_at(&start, k);
    let pcs = |k: usize| at(k).threads.iter().map(|t| t.pc).collect::<Vec<_>>();
    assert_eq!(pcs(0), [load, load]);
    assert_eq!(pcs(1), [load, store], "invocation 1 loaded first: it waits at its store");
    assert_eq!(pcs(2), [store, store]);
    assert_eq!((pcs(3), at(3).memory[0]), (vec![store, end], 1));
    let end = at(4);
    assert_eq!(end.memory[0], 1, "the second store of 1 erased the first: a lost update");
    assert!(end.threads.iter().all(|t| t.status == ThreadStatus::Done && t.regs[0] == 1));
    // The atomic kernel: one read-modify-write each, the old value it got back in the register.
    let atomic =
        [AccessRecord { loaded: 1, stored: 2, load_ticket: 1, store_ticket: 1 }, AccessRecord { loaded: 0, stored: 1, load_ticket: 0, store_ticket: 0 }];
    let replay = ReplayTimeline::from_records(&atomic, 0, 2).unwrap();
    let start = Variant::Atomic.machine(2);
    let m = replay.machine_at(&start, 1);
    assert_eq!((m.threads[1].pc, m.threads[1].status, m.memory[0]), (start.program().len(), ThreadStatus::Done, 1));
    assert_eq!(m.threads[0].pc, start.threads[0].pc);
    assert_eq!(replay.machine_at(&start, 2).memory[0], 2);
}

#[test]
fn tickets_are_drawn_in_the_order_they_were_handed_out() {
    // Invocation 2 got ticket 0, invocation 0 ticket 1, invocation 1 ticket 2.
    let trace = Trace::of_tickets(&[1, 2, 0, 3], 0, 3);
    let order: Vec<(usize, Option<i64>)> = trace.accesses.iter().map(|a| (a.thread, a.old)).collect();
    assert_eq!(order, [(2, Some(0)), (0, Some(1)), (1, Some(2))]);
    assert!(trace.accesses.iter().all(|a| a.kind == AccessKind::ReadModifyWrite && a.mark.is_none()));
}
