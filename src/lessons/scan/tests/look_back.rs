//! The single pass in the model: with the fallback every interleaving of three workgroups, and
//! many schedules of more, end with every prefix right, whether tiles go by id or by ticket; a
//! workgroup held back (before it starts, by id; after its ticket, by ticket) is summed by the
//! next tile's fallback, or, without the fallback, makes the next tile give up and every prefix
//! from it on wrong; and a ticket never goes to a workgroup that has not started.

use crate::lessons::scan::look_back::{end_of, fallbacks, flags_base, give_ups, is_single_pass, output_base, tickets, AGGREGATE, INCLUSIVE, MODEL_POLLS};
use crate::lessons::scan::{inclusive_scan, model_values, ScanWay, MODEL_THREADS};
use crate::model::{pack, posted_text, splitmix64, unpack, Machine, Schedule, Session, ThreadStatus};
use std::collections::HashSet;

fn schedules() -> Vec<Schedule> {
    let mut s = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
    s.extend((0..40).map(|i| Schedule::Random { seed: splitmix64(i) }));
    s
}

fn outputs(m: &Machine) -> Vec<i64> {
    let n = m.threads.len();
    m.memory[output_base(n)..output_base(n) + n].to_vec()
}

fn right(n: usize) -> Vec<i64> {
    inclusive_scan(&model_values(n)).into_iter().map(i64::from).collect()
}

#[test]
fn a_word_holds_its_state_above_its_value_and_reads_as_both() {
    assert_eq!(unpack(pack(AGGREGATE, 14)), (AGGREGATE, 14));
    assert!(pack(INCLUSIVE, 0) > pack(AGGREGATE, 0xffff), "a later state wins an atomicMax whatever the values");
    assert_eq!([posted_text(0), posted_text(pack(AGGREGATE, 14)), posted_text(pack(INCLUSIVE, 23))], ["—", "sum 14", "incl 23"]);
}

#[test]
fn with_the_fallback_every_schedule_ends_with_every_prefix_right() {
    for (way, handed_out) in [(ScanWay::SinglePass, 0), (ScanWay::Tickets, 1)] {
        for n in MODEL_THREADS {
            for schedule in schedules() {
                let end = Session::new(way.machine(n), schedule).run_to_end().clone();
                assert!(end.is_finished(), "{way:?} {n} {schedule:?}: every wait is bounded");
                assert_eq!(outputs(&end), right(n), "{way:?} {n} {schedule:?}");
                let e = end_of(&end);
                assert_eq!((e.give_ups, e.unfinished_flags), (0, 0), "{way:?} {n} {schedule:?}");
                assert_eq!(end.memory[tickets(n)], handed_out * n as i64, "{way:?} {n} {schedule:?}: one ticket a workgroup, or none by id");
            }
        }
    }
}

/// Every state reachable from `m`, one step of any ready thread at a time: the ends found.
fn every_end(m: Machine) -> Vec<Machine> {
    let key = |m: &Machine| (m.memory.clone(), m.threads.iter().map(|t| (t.pc, t.regs.clone(), t.status == ThreadStatus::Done)).collect::<Vec<_>>());
    let (mut seen, mut ends, mut todo) = (HashSet::new(), Vec::new(), vec![m]);
    while let Some(m) = todo.pop() {
        if !seen.insert(key(&m)) {
            continue;
        }
        if m.is_finished() {
            ends.push(m);
            continue;
        }
        for t in m.ready_threads().collect::<Vec<_>>() {
            let mut next = m.clone();
            next.step(t).expect("a ready thread steps");
            todo.push(next);
        }
        assert!(seen.len() < 2_000_000, "the state space stays small");
    }
    ends
}

#[test]
fn with_the_fallback_every_interleaving_of_three_ends_right_and_without_it_some_give_up() {
    let n = 3;
    for way in [ScanWay::SinglePass, ScanWay::Tickets] {
        let ends = every_end(way.machine(n));
        assert!(!ends.is_empty());
        for end in &ends {
            assert_eq!(outputs(end), right(n), "{way:?} {:?}", end.memory);
            assert_eq!(end.memory[give_ups(n)], 0);
        }
        assert!(ends.iter().any(|e| e.memory[fallbacks(n)] > 0), "{way:?}: some interleaving fires the fallback");
        assert!(ends.iter().any(|e| e.memory[fallbacks(n)] == 0), "{way:?}: and some need none");
    }

    let ends = every_end(ScanWay::NoFallback.machine(n));
    for end in &ends {
        // What is promised without the fallback: right wherever nobody gave up.
        if end.memory[give_ups(n)] == 0 {
            assert_eq!(outputs(end), right(n), "{:?}", end.memory);
        }
    }
    assert!(ends.iter().any(|e| e.memory[give_ups(n)] > 0 && outputs(e) != right(n)), "some interleaving gives up and ends wrong");
}

/// Steps `t` until it has taken its ticket.
fn take_ticket(m: &mut Machine, t: usize) {
    m.step(t).expect("the ticket");
}

/// Runs every thread but `held` to its end, in turn.
fn run_all_but(m: &mut Machine, held: usize) {
    loop {
        let Some(t) = m.ready_threads().find(|&t| t != held) else { break };
        m.step(t).expect("a ready thread steps");
    }
}

#[test]
fn a_workgroup_held_back_is_summed_by_the_fallback() {
    // By id, t0 need not even start for tile 0 to be waited on; by ticket, it must hold one.
    for (way, n) in [ScanWay::SinglePass, ScanWay::Tickets].into_iter().flat_map(|w| (2..=8).map(move |n| (w, n))) {
        let mut m = way.machine(n);
        if way == ScanWay::Tickets {
            take_ticket(&mut m, 0);
        }
        run_all_but(&mut m, 0);
        // Everyone else finished while tile 0's workgroup never ran (past its ticket).
        assert!(m.threads.iter().skip(1).all(|t| t.status == ThreadStatus::Done), "{way:?} {n}");
        assert_eq!(m.memory[fallbacks(n)], 1, "{way:?} {n}: tile 0 summed once, then found posted");
        assert_eq!(unpack(m.memory[flags_base(n)]), (AGGREGATE, i64::from(model_values(n)[0])), "{way:?} {n}");
        assert_eq!(outputs(&m)[1..], right(n)[1..], "{way:?} {n}");
        // Tile 0's workgroup runs at last: its own posts leave the larger word.
        while m.ready_threads().next().is_some() {
            m.step(0).unwrap();
        }
        assert_eq!(outputs(&m), right(n), "{n}");
        assert_eq!(end_of(&m).unfinished_flags, 0, "{n}");
    }
}

/// What a ticket is for: a workgroup that never starts holds no tile, so nobody waits on it.
#[test]
fn a_ticket_never_goes_to_a_workgroup_that_has_not_started() {
    for n in 2..=8 {
        let mut m = ScanWay::NoFallback.machine(n);
        run_all_but(&mut m, 0);
        assert_eq!((m.memory[give_ups(n)], m.memory[fallbacks(n)]), (0, 0), "{n}: no wait was long");
        assert_eq!(outputs(&m)[..n - 1], right(n)[..n - 1], "{n}: tiles 0 to n-2, by t1 onwards");
        assert_eq!(m.memory[tickets(n)], n as i64 - 1);
    }
}

#[test]
fn without_the_fallback_the_next_tile_gives_up_and_every_prefix_after_is_wrong() {
    for n in 2..=8 {
        let mut m = ScanWay::NoFallback.machine(n);
        take_ticket(&mut m, 0);
        // Tile 1 alone: it looks at the silent tile 0 as often as the bound allows, then gives up.
        while m.threads[1].status != ThreadStatus::Done {
            m.step(1).unwrap();
        }
        assert_eq!(m.memory[give_ups(n)], 1, "{n}");
        let want = right(n);
        assert_eq!(outputs(&m)[1], want[1] - want[0], "{n}: tile 1's prefix misses tile 0");
        run_all_but(&mut m, 0);
        let got = outputs(&m);
        assert!((1..n).all(|t| got[t] == want[t] - want[0]), "{n}: every later tile built on it: {got:?}");
    }
}

#[test]
fn a_look_back_looks_at_a_silent_tile_as_often_as_the_bound_says() {
    let mut m = ScanWay::NoFallback.machine(2);
    take_ticket(&mut m, 0);
    let mut looks = 0;
    while m.threads[1].status != ThreadStatus::Done {
        let event = m.step(1).unwrap();
        looks += usize::from(m.program().lines[event.pc].marker == "look");
    }
    assert_eq!(looks as i64, MODEL_POLLS);
}

#[test]
fn the_page_knows_the_single_pass_models_and_speaks_of_their_ends() {
    assert!([ScanWay::SinglePass, ScanWay::Tickets, ScanWay::NoFallback].iter().all(|w| is_single_pass(&w.program(4))));
    assert!(!ScanWay::TILE_WAYS.iter().any(|w| is_single_pass(&w.program(4))));
    let end = Session::new(ScanWay::SinglePass.machine(4), Schedule::Serial).run_to_end().clone();
    assert!(crate::lessons::scan::look_back::outcome(&end).starts_with("Finished: every tile holds the sum of the input up to it, 9 in the last."));
    let mut m = ScanWay::NoFallback.machine(3);
    take_ticket(&mut m, 0);
    run_all_but(&mut m, 0);
    while m.ready_threads().next().is_some() {
        m.step(0).unwrap();
    }
    let said = crate::lessons::scan::look_back::outcome(&m);
    assert!(said.starts_with("Finished with 2 wrong: output[1] = 1, not 4; output[2] = 5, not 8."), "{said}");
}
