//! The barrier lesson's model: with the barrier every thread reads its neighbour's value under
//! every schedule; without it some schedules read a cell not yet written; with the barrier in a
//! branch only half the threads arrive and the rest can never release them.

use crate::lessons::barrier::{out_base, BarrierVariant, MODEL_THREADS};
use crate::model::{splitmix64, Schedule, Session, ThreadStatus};

fn schedules() -> Vec<Schedule> {
    let mut s = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
    s.extend((0..50).map(|i| Schedule::Random { seed: splitmix64(i) }));
    s
}

/// What thread `t` should read: its right-hand neighbour's id + 1.
fn right(t: usize, n: usize) -> i64 {
    ((t + 1) % n) as i64 + 1
}

#[test]
fn with_the_barrier_every_read_is_right() {
    for n in MODEL_THREADS {
        for schedule in schedules() {
            let mut s = Session::new(BarrierVariant::With.machine(n), schedule);
            let end = s.run_to_end().clone();
            assert!(end.is_finished());
            for t in 0..n {
                assert_eq!(end.memory[out_base(n) + t], right(t, n), "{n} {schedule:?} thread {t}");
            }
        }
    }
}

#[test]
fn without_it_reads_are_right_or_stale_and_serial_is_stale() {
    for n in MODEL_THREADS {
        for schedule in schedules() {
            let mut s = Session::new(BarrierVariant::Without.machine(n), schedule);
            let end = s.run_to_end().clone();
            for t in 0..n {
                let got = end.memory[out_base(n) + t];
                assert!(got == 0 || got == right(t, n), "{n} {schedule:?} thread {t}: {got}");
            }
        }
        // One thread at a time: each reads before its neighbour has written, except the last,
        // whose neighbour (thread 0) went first.
        let mut serial = Session::new(BarrierVariant::Without.machine(n), Schedule::Serial);
        let end = serial.run_to_end().clone();
        let stale = (0..n).filter(|&t| end.memory[out_base(n) + t] == 0).count();
        assert_eq!(stale, n - 1);
    }
}

#[test]
fn in_a_branch_half_the_threads_wait_until_the_rest_have_ended_and_the_barrier_is_found() {
    use stepper::run::Finding;
    for n in MODEL_THREADS {
        for schedule in [Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial] {
            let mut s = Session::new(BarrierVariant::InBranch.machine(n), schedule);
            let end = s.run_to_end().clone();
            assert!(end.findings().iter().any(|f| matches!(f, Finding::Divergence { .. })), "{n} {schedule:?}: {:?}", end.findings());
            // Nobody passes the barrier while a thread that skipped it is still running: the
            // waiters are let go only once the others have ended, as a finding, not a release.
            for tick in 0..=s.known_ticks() {
                s.seek(tick);
                let m = s.current();
                let waiting = (0..n / 2).filter(|&t| m.threads[t].status == ThreadStatus::AtBarrier).count();
                let others_running = (n / 2..n).any(|t| m.threads[t].status != ThreadStatus::Done);
                if others_running {
                    assert!((0..n / 2).all(|t| m.threads[t].status != ThreadStatus::Done), "{n} {schedule:?} tick {tick}: a waiter left early");
                }
                assert!(waiting <= n / 2);
            }
            assert!(end.is_finished());
        }
    }
}

#[test]
fn the_interpreter_finds_the_race_without_the_barrier_and_none_with_it() {
    use stepper::run::Finding;
    for n in [2, 4, 16] {
        for schedule in schedules().into_iter().take(8) {
            let race = |v: BarrierVariant| {
                let mut s = Session::new(v.machine(n), schedule);
                s.run_to_end().findings().iter().any(|f| matches!(f, Finding::Race { .. }))
            };
            assert!(race(BarrierVariant::Without), "{n} {schedule:?}");
            assert!(!race(BarrierVariant::With), "{n} {schedule:?}");
        }
    }
}

#[test]
fn the_gpu_check_counts_stale_reads_by_lane_group_and_ticket_order() {
    use crate::gpu::params::GpuParams;
    use crate::lessons::barrier::{check, written_by, BarrierRun};
    // Two workgroups of 8 (the second cut short at 6 invocations: 14 in all).
    let p = GpuParams { invocations: 14, workgroup_size: 8 };
    let mut got: Vec<u32> = (0..14u32)
        .map(|i| {
            let (start, lane) = (i - i % 8, i % 8);
            let size = 8.min(14 - start);
            written_by(start + (lane + 1) % size)
        })
        .collect();
    got[3] = 0; // reads lane 4: across groups of 4
    got[9] = 0; // reads lane 10 of its workgroup, within the group 8..11
    got[5] = 77; // nobody writes 77 anywhere near
    let arrive: Vec<u32> = (0..14).map(|i| i % 8).collect();
    let depart: Vec<u32> = (0..14u32).map(|i| 8.min(14 - (i - i % 8)) + i % 8).collect();
    let c = check(p, &BarrierRun { got: got.clone(), arrive: arrive.clone(), depart: depart.clone() });
    assert_eq!((c.right, c.stale, c.impossible), (11, 2, 1));
    assert_eq!((c.stale_across_four, c.stale_within_four), (1, 1));
    assert_eq!((c.ordered_workgroups, c.whole_ticket_workgroups, c.workgroups), (2, 2, 2));
    // A departure before the last arrival, and a ticket handed out twice.
    let mut early = depart.clone();
    early[0] = 3;
    let c = check(p, &BarrierRun { got, arrive, depart: early });
    assert_eq!((c.ordered_workgroups, c.whole_ticket_workgroups), (1, 1));
}

/// Workgroup 0's recorded tickets drawn as a machine: lanes wait at the gate until the last one
/// arrives, then leave one by one, each holding the ticket it recorded.
#[test]
fn recorded_tickets_become_a_machine_waiting_at_the_gate_until_the_last_arrival() {
    use crate::lessons::barrier::{ticket_machine, ticket_program};
    use crate::model::ThreadStatus;
    use std::sync::Arc;
    // Three lanes: 2 arrives (ticket 0), 0 (1), 1 (2); then 1 leaves (3), 2 (4), 0 (5).
    let events = [(0, 2, true), (1, 0, true), (2, 1, true), (3, 1, false), (4, 2, false), (5, 0, false)];
    let program = Arc::new(ticket_program());
    let at = |k| ticket_machine(program.clone(), &events, 3, k);
    let statuses = |k| at(k).threads.iter().map(|t| t.status).collect::<Vec<_>>();
    assert_eq!(at(0).barrier_arrivals, 0);
    assert_eq!((at(2).barrier_arrivals, at(2).memory[0]), (2, 2));
    assert_eq!(statuses(2), [ThreadStatus::AtBarrier, ThreadStatus::Ready, ThreadStatus::AtBarrier]);
    assert_eq!(at(2).threads[1].pc, 0, "lane 1 has not arrived");
    // The last arrival releases everyone: nobody waits, nobody has left yet.
    assert_eq!(at(3).barrier_arrivals, 0);
    assert!(at(3).threads.iter().all(|t| t.pc == 2 && t.status == ThreadStatus::Ready));
    let end = at(6);
    assert!(end.threads.iter().all(|t| t.status == ThreadStatus::Done));
    assert_eq!(end.threads.iter().map(|t| t.regs[0]).collect::<Vec<_>>(), [5, 3, 4], "each lane's departure ticket");
    assert_eq!(end.memory[0], 6);
}
