//! The histogram's model: atomic and private bins count every value under every schedule; the
//! plain `+=` loses counts under lockstep and never counts more than there are.

use crate::lessons::histogram::{bins_base, check, cpu_histogram, model_input, value, HistogramVariant, BINS, MODEL_BINS, MODEL_THREADS};
use crate::model::{splitmix64, Schedule, Session};

fn schedules() -> Vec<Schedule> {
    let mut s = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
    s.extend((0..40).map(|i| Schedule::Random { seed: splitmix64(i) }));
    s
}

fn expected(n: usize) -> Vec<i64> {
    (0..MODEL_BINS as i64).map(|b| (0..n).filter(|&t| model_input(t) == b).count() as i64).collect()
}

#[test]
fn atomic_and_private_bins_count_every_value() {
    for n in MODEL_THREADS {
        for variant in [HistogramVariant::Atomic, HistogramVariant::Private] {
            for schedule in schedules() {
                let end = Session::new(variant.machine(n), schedule).run_to_end().clone();
                assert!(end.is_finished(), "{variant:?} {n} {schedule:?}");
                assert_eq!(end.memory[bins_base(n)..bins_base(n) + MODEL_BINS].to_vec(), expected(n), "{variant:?} {n} {schedule:?}");
            }
        }
    }
}

#[test]
fn the_plain_count_loses_in_lockstep_and_never_overcounts() {
    for n in MODEL_THREADS {
        let want = expected(n);
        for schedule in schedules() {
            let end = Session::new(HistogramVariant::Plain.machine(n), schedule).run_to_end().clone();
            for (b, &wanted) in want.iter().enumerate().take(MODEL_BINS) {
                let got = end.memory[bins_base(n) + b];
                assert!(got <= wanted && (wanted == 0 || got >= 1), "{n} {schedule:?} bin {b}: {got} of {wanted}");
            }
        }
        // In lockstep every thread loads before any stores: each busy bin ends at 1.
        let end = Session::new(HistogramVariant::Plain.machine(n), Schedule::Lockstep).run_to_end().clone();
        let ones: Vec<i64> = want.iter().map(|&w| w.min(1)).collect();
        assert_eq!(end.memory[bins_base(n)..bins_base(n) + MODEL_BINS].to_vec(), ones);
        // One at a time loses nothing.
        let end = Session::new(HistogramVariant::Plain.machine(n), Schedule::Serial).run_to_end().clone();
        assert_eq!(end.memory[bins_base(n)..bins_base(n) + MODEL_BINS].to_vec(), want);
    }
}

#[test]
fn data_hit_exactly_the_bins_asked_for_and_the_check_judges_bins() {
    for distinct in [1, 2, 16, 256] {
        let h = cpu_histogram(10_000, distinct);
        assert_eq!(h.iter().map(|&c| u64::from(c)).sum::<u64>(), 10_000);
        assert_eq!(h.iter().filter(|&&c| c > 0).count(), distinct as usize);
        assert!((0..10_000).all(|i| value(i, distinct) < distinct));
    }
    let right: Vec<u32> = cpu_histogram(1000, 4).iter().map(|c| c * 3).collect();
    let c = check(1000, 4, 3, &right);
    assert!(c.exact && c.possible && c.lost() == 0);
    let mut lossy = right.clone();
    lossy[0] -= 10;
    let c = check(1000, 4, 3, &lossy);
    assert!(!c.exact && c.possible && c.lost() == 10);
    lossy[9] = 1;
    assert!(!check(1000, 4, 3, &lossy).possible, "a count in a bin no value falls in");
    assert!(!check(1000, 4, 3, &right[..BINS - 1]).possible);
}
