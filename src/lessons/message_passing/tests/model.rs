//! The message-passing model and the kernels' pairing: no interleaving of the model's two
//! threads ends with the flag seen and the data old; each instance has exactly one reader, in
//! another workgroup where the variant says so; and a run's counts are judged only by what the
//! memory model allows.

use crate::lessons::message_passing::{check, coprime_step, every_interleaving, model_outcome, shuffled_workgroups, Layout, MessagePassingVariant, Outcome};
use crate::model::{splitmix64, Schedule, Session};
use std::collections::HashSet;

#[test]
fn no_interleaving_reaches_the_weak_outcome() {
    for variant in MessagePassingVariant::ALL {
        let all = every_interleaving(variant);
        assert_eq!(all.counts[Outcome::Weak.slot()], 0, "{variant:?}: {all:?}");
        assert_eq!(all.counts.iter().sum::<u64>(), 2 * all.runs, "{variant:?}: one read per thread per run");
        for o in Outcome::ALL {
            assert!(all.counts[o.slot()] == 0 || variant.allows(o), "{variant:?} reached {o:?}, which its promise forbids");
        }
    }
}

#[test]
fn interleavings_reach_every_outcome_but_the_weak_one() {
    // Without barriers: 2 threads of 5 steps each, C(10, 5) = 252 orders.
    let relaxed = every_interleaving(MessagePassingVariant::Relaxed);
    assert_eq!(relaxed.runs, 252);
    for o in [Outcome::ReaderFirst, Outcome::Interleaved, Outcome::WriterFirst] {
        assert!(relaxed.counts[o.slot()] > 0, "{o:?} never reached: {relaxed:?}");
    }
    // With the barriers, both threads write data before either reads it.
    let same = every_interleaving(MessagePassingVariant::SameWorkgroup);
    assert_eq!(same.counts[Outcome::ReaderFirst.slot()], 0);
    assert!(same.counts[Outcome::Interleaved.slot()] > 0 && same.counts[Outcome::WriterFirst.slot()] > 0, "{same:?}");
}

#[test]
fn named_schedules_end_where_the_interleavings_say() {
    // Lockstep: both write data, both write the flag, both read: each sees flag 1, data 1.
    let end = Session::new(MessagePassingVariant::Relaxed.machine(2), Schedule::Lockstep).run_to_end().clone();
    assert!(end.is_finished());
    assert_eq!((model_outcome(&end, 0), model_outcome(&end, 1)), (Outcome::WriterFirst, Outcome::WriterFirst));
    // Serial: thread 0 runs whole first, reading thread 1's empty message; thread 1 then sees 0's.
    let end = Session::new(MessagePassingVariant::Relaxed.machine(2), Schedule::Serial).run_to_end().clone();
    assert_eq!((model_outcome(&end, 0), model_outcome(&end, 1)), (Outcome::ReaderFirst, Outcome::WriterFirst));
    for seed in 0..50 {
        let end = Session::new(MessagePassingVariant::StorageBarrier.machine(2), Schedule::Random { seed: splitmix64(seed) }).run_to_end().clone();
        assert!(end.is_finished());
        assert!((0..2).all(|t| model_outcome(&end, t) != Outcome::Weak));
    }
}

#[test]
fn outcome_slots_are_the_kernels_two_flag_plus_data() {
    for o in Outcome::ALL {
        let (flag, data) = o.reads();
        assert_eq!(o.slot() as u32, 2 * flag + data);
        assert_eq!(Outcome::from_reads(flag.into(), data.into()), o);
    }
    assert_eq!(Outcome::Weak.class(), "weak");
    assert_eq!(Outcome::ReaderFirst.class(), "sequential");
}

#[test]
fn every_instance_has_one_reader_in_the_right_workgroup() {
    for variant in MessagePassingVariant::ALL {
        for (workgroups, lanes) in [(2, 1), (2, 2), (3, 7), (16, 64), (5, 256), (1, 2), (1, 3)] {
            let Ok(layout) = Layout::new(variant, workgroups, lanes) else {
                assert!(workgroups < 2 || lanes < 2, "{variant:?} refused {workgroups}×{lanes}");
                continue;
            };
            let mut read = HashSet::new();
            for role in 0..workgroups {
                for lane in 0..lanes {
                    let theirs = layout.reads(variant, role, lane);
                    assert!(theirs < layout.instances());
                    assert!(read.insert(theirs), "{variant:?} {workgroups}×{lanes}: instance {theirs} read twice");
                    assert_ne!(theirs, role * lanes + lane, "an invocation reads its own message");
                    assert_eq!(theirs / lanes != role, variant.across_workgroups(), "{variant:?}: reader's workgroup");
                }
            }
            let slots: HashSet<u32> = (0..layout.instances()).flat_map(|i| [layout.data_slot(i), layout.flag_slot(i)]).collect();
            assert_eq!(slots.len() as u32, 2 * layout.instances(), "every location distinct");
            assert!(slots.iter().all(|&s| s < 2 * layout.instances()));
        }
    }
}

#[test]
fn steps_are_coprime_and_products_fit_in_u32() {
    for n in [1, 2, 64, 256, 1000, 3 * 5 * 7 * 11, 1 << 22, (1 << 22) + 1023] {
        let s = coprime_step(n);
        assert!(s < 1024);
        assert!((2..=s).all(|d| s % d != 0 || n % d != 0), "{s} shares a factor with {n}");
        assert!(u64::from(n) * u64::from(s) <= u64::from(u32::MAX));
    }
}

#[test]
fn shuffles_are_permutations_that_change_with_the_seed() {
    let a = shuffled_workgroups(100, 1);
    let mut sorted = a.clone();
    sorted.sort();
    assert_eq!(sorted, (0..100).collect::<Vec<_>>());
    assert_ne!(a, shuffled_workgroups(100, 2));
    assert_eq!(shuffled_workgroups(1, 7), vec![0]);
}

#[test]
fn checks_count_forbidden_outcomes_only_where_forbidden() {
    let counts = [5, 3, 2, 10];
    let relaxed = check(MessagePassingVariant::Relaxed, &counts, 20);
    assert!(relaxed.ok());
    let same = check(MessagePassingVariant::SameWorkgroup, &counts, 20);
    assert_eq!(same.forbidden, 7, "reader-first and weak are both impossible within a workgroup");
    assert!(!same.ok());
    assert!(!check(MessagePassingVariant::Relaxed, &counts, 21).ok(), "a lost count is caught");
}
