//! The ticket model: under every schedule each thread ends with a different ticket, the
//! tickets are 0..n, and each is written to the thread's own slot.

use crate::gpu::params::GpuParams;
use crate::lessons::atomic_counter::{check, Tickets, MODEL_THREADS, NEXT, TICKET, TICKETS};
use crate::model::{splitmix64, Schedule, Session};

#[test]
fn every_schedule_hands_out_each_ticket_once() {
    for n in MODEL_THREADS {
        let mut schedules = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
        schedules.extend((0..100).map(|i| Schedule::Random { seed: splitmix64(i) }));
        for schedule in schedules {
            let mut s = Session::new(Tickets::machine(n), schedule);
            let end = s.run_to_end().clone();
            assert_eq!(end.memory[NEXT], n as i64);
            let mut tickets: Vec<i64> = (0..n).map(|t| end.memory[TICKETS + t]).collect();
            for (t, th) in end.threads.iter().enumerate() {
                assert_eq!(th.regs[TICKET], tickets[t], "thread {t} wrote the ticket it holds");
            }
            tickets.sort();
            assert_eq!(tickets, (0..n as i64).collect::<Vec<_>>(), "{n} threads, {schedule:?}");
        }
    }
}

#[test]
fn serial_order_is_thread_order_and_lockstep_is_lane_order() {
    for schedule in [Schedule::Serial, Schedule::Lockstep] {
        let mut s = Session::new(Tickets::machine(5), schedule);
        let end = s.run_to_end().clone();
        let tickets: Vec<i64> = (0..5).map(|t| end.memory[TICKETS + t]).collect();
        assert_eq!(tickets, vec![0, 1, 2, 3, 4], "{schedule:?}");
    }
}

#[test]
fn the_check_finds_repeats_gaps_and_a_short_counter() {
    let p = GpuParams { invocations: 6, workgroup_size: 3 };
    let good = check(&[2, 0, 1, 5, 3, 4], 6, p);
    assert!(good.is_permutation);
    assert_eq!((good.whole_workgroups, good.workgroups, good.in_lane_order), (2, 2, 2));
    let bad = check(&[0, 0, 1, 9, 3, 4], 6, p);
    assert!(!bad.is_permutation);
    assert_eq!(bad.repeated, vec![0]);
    assert_eq!(bad.missing, vec![2, 5]);
    assert_eq!(bad.out_of_range, vec![9]);
    assert!(!check(&[0, 1, 2, 3, 4, 5], 7, p).is_permutation, "the counter must end at n");
}

/// The first invocations' recorded tickets drawn as a machine, in the order they were served:
/// `next` jumps where other invocations took tickets in between.
#[test]
fn recorded_tickets_become_a_machine_in_ticket_order() {
    use crate::lessons::atomic_counter::{Tickets, NEXT, TICKETS};
    use crate::model::ThreadStatus;
    // Invocation 0 got ticket 7, 1 got 2, 2 got 5 (tickets 0, 1, 3, 4, 6 went to others).
    let tickets = [7, 2, 5, 0];
    let m = Tickets::replay_machine(&tickets, 3, 0);
    assert_eq!((m.threads.len(), m.memory[NEXT]), (3, 0));
    let m = Tickets::replay_machine(&tickets, 3, 2);
    assert_eq!(m.memory[NEXT], 6, "one past ticket 5, the second handed out");
    assert_eq!((m.memory[TICKETS + 1], m.memory[TICKETS + 2]), (2, 5));
    assert_eq!(m.threads[0].status, ThreadStatus::Ready);
    assert_eq!((m.threads[2].regs[0], m.threads[2].status), (5, ThreadStatus::Done));
    let m = Tickets::replay_machine(&tickets, 3, 3);
    assert_eq!((m.memory[NEXT], m.memory[TICKETS]), (8, 7));
}
