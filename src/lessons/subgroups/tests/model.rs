//! Subgroups in the model: `subgroupAdd` gives every lane its own subgroup's sum under every
//! schedule and size; inside the `if` only the kept values are summed; the ballot compacts with
//! one reservation per subgroup, every kept value in input order within its subgroup; the
//! butterfly ends with the subgroup's sum in every lane; with no barrier lockstep reads every
//! neighbour fresh and a serial schedule does not.

use crate::lessons::subgroups::{model_values, SubgroupModel, SubgroupStep, INPUT, KEEP, MASK, MODEL_THREADS, RECORD_WORDS, SIZES};
use crate::model::{splitmix64, Effect, Machine, Schedule, Session, ThreadStatus};

fn schedules() -> Vec<Schedule> {
    let mut s = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
    s.extend((0..30).map(|i| Schedule::Random { seed: splitmix64(i) }));
    s
}

fn end(step: SubgroupStep, size: usize, n: usize, schedule: Schedule) -> Machine {
    let m = Session::new(SubgroupModel { step, size }.machine(n), schedule).run_to_end().clone();
    assert!(m.is_finished(), "{step:?} size {size}, {n} threads, {schedule:?}: stuck");
    m
}

/// The sum of the model's values over each thread's subgroup, thread by thread.
fn subgroup_sums(n: usize, size: usize, keep_only: bool) -> Vec<i64> {
    let v = model_values(n);
    (0..n)
        .map(|t| {
            let first = t / size * size;
            (first..(first + size).min(n)).map(|o| v[o]).filter(|&x| !keep_only || x >= KEEP).map(i64::from).sum()
        })
        .collect()
}

/// Each invocation's recorded total (`records[i].total`).
fn records(m: &Machine, n: usize) -> Vec<i64> {
    (0..n).map(|t| m.memory[INPUT + n + RECORD_WORDS * t]).collect()
}

#[test]
fn subgroup_add_gives_every_lane_its_subgroups_sum_under_every_schedule() {
    for size in SIZES {
        for n in MODEL_THREADS {
            let want = subgroup_sums(n, size, false);
            for schedule in schedules() {
                assert_eq!(records(&end(SubgroupStep::Add, size, n, schedule), n), want, "size {size}, {n}, {schedule:?}");
            }
        }
    }
    // The picture the page opens on: 8 threads in subgroups of 4.
    assert_eq!(subgroup_sums(8, 4, false), [9, 9, 9, 9, 22, 22, 22, 22]);
}

#[test]
fn inside_the_if_only_the_active_lanes_are_summed() {
    for size in SIZES {
        for n in MODEL_THREADS {
            let v = model_values(n);
            let kept = subgroup_sums(n, size, true);
            let want: Vec<i64> = (0..n).map(|t| if v[t] >= KEEP { kept[t] } else { 0 }).collect();
            for schedule in schedules() {
                assert_eq!(records(&end(SubgroupStep::Divergent, size, n, schedule), n), want, "size {size}, {n}, {schedule:?}");
            }
        }
    }
    // 3 1 4 1 | 5 9 2 6: the first subgroup's add covers the 4 alone, not 3 + 1 + 4 + 1.
    let m = end(SubgroupStep::Divergent, 4, 8, Schedule::Lockstep);
    assert_eq!(records(&m, 8), [0, 0, 4, 0, 20, 20, 0, 20]);
}

#[test]
fn a_lane_waits_at_a_subgroup_operation_until_no_lane_of_its_subgroup_can_still_come() {
    // Serial, subgroup 1 (5 9 2 6): thread 4 reaches subgroupAdd and waits, and so does thread 5;
    // thread 6 (2) skips the if; thread 7's arrival completes the add for 4, 5 and 7 together.
    let mut s = Session::new(SubgroupModel { step: SubgroupStep::Divergent, size: 4 }.machine(8), Schedule::Serial);
    s.run_to_end();
    let events: Vec<_> = s.ticks().iter().flatten().cloned().collect();
    let arrived = events.iter().position(|e| e.thread == 4 && matches!(e.effect, Effect::SubgroupArrived { function: "subgroupAdd", .. })).expect("thread 4 waits");
    let done = events.iter().position(|e| matches!(e.effect, Effect::SubgroupDone { function: "subgroupAdd", subgroup: 1, .. })).expect("then the add is taken");
    assert!(arrived < done);
    assert!(events[arrived..done].iter().any(|e| e.thread == 6), "thread 6 moved in between");
    assert!(matches!(events[done].effect, Effect::SubgroupDone { lanes: 0b1011_0000, result: 20, .. }), "{:?}", events[done]);
    // In subgroup 0 only thread 2 keeps its value: its add is taken by it alone.
    let alone = events.iter().find(|e| matches!(e.effect, Effect::SubgroupDone { function: "subgroupAdd", subgroup: 0, .. })).expect("subgroup 0 adds");
    assert!(matches!(alone.effect, Effect::SubgroupDone { lanes: 0b100, result: 4, .. }), "{alone:?}");
    s.seek(usize::MAX);
    assert_eq!(s.current().threads[2].status, ThreadStatus::Done);
}

#[test]
fn the_ballot_compacts_with_one_reservation_per_subgroup() {
    for size in SIZES {
        for n in MODEL_THREADS {
            let v = model_values(n);
            let want: Vec<u32> = v.iter().copied().filter(|&x| x >= KEEP).collect();
            for schedule in schedules() {
                let mut s = Session::new(SubgroupModel { step: SubgroupStep::Ballot, size }.machine(n), schedule);
                let m = s.run_to_end().clone();
                assert!(m.is_finished());
                let kept = m.memory[INPUT + n] as usize;
                assert_eq!(kept, want.len(), "size {size}, {n}, {schedule:?}");
                let out: Vec<u32> = m.memory[INPUT + n + 2..INPUT + n + 2 + kept].iter().map(|&x| x as u32).collect();
                let mut sorted = out.clone();
                sorted.sort_unstable();
                let mut want_sorted = want.clone();
                want_sorted.sort_unstable();
                assert_eq!(sorted, want_sorted, "size {size}, {n}, {schedule:?}");
                // Within a subgroup the kept values keep their order: rank counts the lanes below.
                for chunk in v.chunks(size) {
                    let mine: Vec<u32> = chunk.iter().copied().filter(|&x| x >= KEEP).collect();
                    if let Some(at) = out.windows(mine.len().max(1)).position(|w| w == mine.as_slice()) {
                        assert!(at + mine.len() <= out.len());
                    } else {
                        assert!(mine.is_empty(), "size {size}, {n}, {schedule:?}: {mine:?} not together in {out:?}");
                    }
                }
                let reserves = s.ticks().iter().flatten().filter(|e| matches!(e.effect, Effect::AtomicAdded { addr, .. } if addr == INPUT + n)).count();
                assert_eq!(reserves, n.div_ceil(size), "one atomicAdd per subgroup");
            }
        }
    }
}

#[test]
fn the_ballot_mask_has_one_bit_per_keeping_lane_and_reads_lane_0_first() {
    let m = Session::new(SubgroupModel { step: SubgroupStep::Ballot, size: 4 }.machine(8), Schedule::Lockstep).run_to_end().clone();
    // 3 1 4 1 → lane 2 alone; 5 9 2 6 → lanes 0, 1, 3: the GPU's integers, lane 0 the lowest bit.
    assert_eq!(m.threads[0].regs[MASK], 0b0100);
    assert_eq!(m.threads[4].regs[MASK], 0b1011);
    // Written a digit per lane, lane 0 first.
    assert_eq!(m.program().register_text(MASK, 0b0100), "0010");
    assert_eq!(m.program().register_text(MASK, 0b1011), "1101");
}

#[test]
fn the_narration_writes_each_ballots_mask_as_its_registers_do() {
    for size in SIZES {
        for n in MODEL_THREADS {
            let mut s = Session::new(SubgroupModel { step: SubgroupStep::Ballot, size }.machine(n), Schedule::Serial);
            let m = s.run_to_end().clone();
            let mut ballots = 0;
            for e in s.ticks().iter().flatten() {
                if let Effect::SubgroupDone { function: "subgroupBallot", subgroup, .. } = e.effect {
                    ballots += 1;
                    let want = m.program().register_text(MASK, m.threads[subgroup * size].regs[MASK]);
                    let said = m.narrate(e);
                    assert!(said.ends_with(&format!("the mask is {want} (lane 0 first)")), "size {size}, {n}: {said:?}, register {want}");
                }
            }
            assert_eq!(ballots, n.div_ceil(size), "size {size}, {n}: one ballot per subgroup");
        }
    }
}

#[test]
fn the_butterfly_leaves_the_subgroups_sum_in_every_lane_of_a_full_subgroup() {
    for size in SIZES {
        for n in MODEL_THREADS {
            let want = subgroup_sums(n, size, false);
            // Lanes of a subgroup with every lane present; in one with lanes missing a shuffle
            // finds no partner (the model gives 0), and only some lanes end with the sum.
            let full = n / size * size;
            for schedule in schedules() {
                let got = records(&end(SubgroupStep::Butterfly, size, n, schedule), n);
                assert_eq!(got[..full], want[..full], "size {size}, {n}, {schedule:?}");
            }
        }
    }
    // 5 9 2 with the fourth lane missing: lane 2's second partner is absent.
    let got = records(&end(SubgroupStep::Butterfly, 4, 7, Schedule::Lockstep), 7);
    assert_eq!(got[4..], [16, 16, 7]);
}

#[test]
fn without_a_barrier_lockstep_reads_fresh_and_serial_reads_stale() {
    for size in SIZES {
        for n in MODEL_THREADS {
            let seen = |m: &Machine| m.threads.iter().map(|t| t.regs[crate::lessons::subgroups::SEEN]).collect::<Vec<_>>();
            let lockstep = end(SubgroupStep::NoBarrier, size, n, Schedule::Lockstep);
            assert!(seen(&lockstep).iter().all(|&v| v != 0), "size {size}, {n}: {:?}", seen(&lockstep));
            let serial = end(SubgroupStep::NoBarrier, size, n, Schedule::Serial);
            assert_eq!(seen(&serial)[0], 0, "size {size}, {n}: thread 0 read before thread 1 wrote");
        }
    }
}

#[test]
fn links_carry_the_subgroup_size_and_refuse_others() {
    use crate::site::settings::LessonSettings;
    let get = |q: &'static str| move |k: &str| q.split('&').find_map(|p| p.strip_prefix(k).and_then(|r| r.strip_prefix('=')).map(str::to_owned));
    let (s, problems) = LessonSettings::<SubgroupModel>::parse(get("variant=butterfly&subgroup=8"));
    assert_eq!((s.variant, problems.len()), (SubgroupModel { step: SubgroupStep::Butterfly, size: 8 }, 0));
    assert!(s.to_pairs().contains(&("subgroup", "8".to_owned())));
    let (s, problems) = LessonSettings::<SubgroupModel>::parse(get("subgroup=6"));
    assert_eq!(s.variant.size, 4);
    assert!(problems[0].contains("4, 8 or 32"), "{problems:?}");
}

