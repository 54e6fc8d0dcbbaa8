//! The compare-exchange maximum in the model: under every schedule `best` ends at the largest
//! input, each thread's retries are counted, and a thread only retries when another swapped.

use crate::lessons::cas_max::{above, true_max, CasInputs, BEST, INPUT, MODEL_START, MODEL_THREADS};
use crate::model::{bits_of, f32_of, splitmix64, Effect, Schedule, Session};

#[test]
fn every_schedule_ends_at_the_largest_input() {
    for inputs in [CasInputs::Mixed, CasInputs::NonPositive, CasInputs::WithNan] {
        for n in MODEL_THREADS {
            // The model holds the kernel's own inputs: it must end at the CPU's maximum, bit for bit.
            let want = bits_of(true_max(inputs, n as u32));
            let mut schedules = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
            schedules.extend((0..60).map(|i| Schedule::Random { seed: splitmix64(i) }));
            for schedule in schedules {
                let mut s = Session::new(inputs.machine(n), schedule);
                let end = s.run_to_end().clone();
                s.seek(s.known_ticks());
                assert!(end.is_finished(), "{inputs:?} {n} {schedule:?}");
                assert_eq!(end.memory[BEST], want, "{inputs:?} {n} threads, {schedule:?}");
                // Each thread's recorded retries are its failed swaps, and every failed swap
                // saw a value some other thread had swapped in after this one read it.
                let mut failed = vec![0i64; n];
                for (_, e) in s.past_events() {
                    if let Effect::CompareExchanged { exchanged: false, old, expected, .. } = e.effect {
                        failed[e.thread] += 1;
                        assert!(above(f32_of(old), f32_of(expected)), "a failed swap means best grew: {old:#x} vs {expected:#x}");
                    }
                }
                assert_eq!(end.memory[INPUT + n..].to_vec(), failed, "{inputs:?} {n} threads, {schedule:?}");
            }
        }
    }
}

#[test]
fn lockstep_makes_everyone_but_one_retry() {
    // All threads read best together and try to swap together: one wins each round.
    let n = 4;
    let mut s = Session::new(CasInputs::Mixed.machine(n), Schedule::Lockstep);
    let end = s.run_to_end().clone();
    let retries: Vec<i64> = end.memory[INPUT + n..].to_vec();
    assert!(retries.iter().sum::<i64>() >= 1, "{retries:?}");
    let mut serial = Session::new(CasInputs::Mixed.machine(n), Schedule::Serial);
    let end = serial.run_to_end().clone();
    assert!(end.memory[INPUT + n..].iter().all(|&r| r == 0), "one at a time, nobody retries");
}

#[test]
fn the_float_maximum_prefers_plus_zero_and_handles_negatives() {
    assert!(above(0.0, -0.0) && !above(-0.0, 0.0));
    assert!(above(-1.0, -2.0) && !above(-2.0, -1.0));
    // Negative floats' bits are larger as integers: the bit pattern order is not the value order.
    assert!((-2.0f32).to_bits() > (1.0f32).to_bits());
    let m = true_max(CasInputs::NonPositive, 1000);
    assert_eq!(m.to_bits(), 0, "the non-positive inputs' maximum is +0.0");
    let m = true_max(CasInputs::Mixed, 1000);
    assert!(m > 600.0 && m <= 625.0, "{m}");
    assert!((0..1000).any(|i| CasInputs::Mixed.value(i) < 0.0));
}

#[test]
fn both_zeros_end_at_plus_zero_whatever_the_order() {
    // Threads 0, 3 and 10 bring −0.0, threads 1 and 11 bring +0.0; everything else is below.
    let input = |t: usize| CasInputs::NonPositive.model_value(t as u32);
    assert_eq!([0, 1, 3, 10, 11].map(input), [bits_of(-0.0), 0, bits_of(-0.0), bits_of(-0.0), 0]);
    let mut schedules = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
    schedules.extend((0..200).map(|i| Schedule::Random { seed: splitmix64(i) }));
    for n in [2, 4, 8, 12] {
        for &schedule in &schedules {
            let end = Session::new(CasInputs::NonPositive.machine(n), schedule).run_to_end().clone();
            assert_eq!(end.memory[BEST], 0, "{n} threads, {schedule:?}: +0.0, not −0.0");
            assert_eq!(end.program().cell_text(BEST, end.memory[BEST]), "0.0");
        }
    }
    assert_eq!(MODEL_START, bits_of(f32::NEG_INFINITY));
}

#[test]
fn every_thread_count_has_both_zeros_among_its_inputs() {
    use crate::site::settings::LessonVariant;
    assert!(MODEL_THREADS.contains(&CasInputs::DEFAULT_THREADS));
    for n in MODEL_THREADS {
        let m = CasInputs::NonPositive.machine(n);
        let inputs = &m.memory[INPUT..INPUT + n];
        assert!(inputs.contains(&bits_of(-0.0)) && inputs.contains(&0), "{n} threads: {inputs:?}");
    }
}

#[test]
fn floats_are_written_as_the_kernel_holds_them() {
    use crate::model::float_text;
    for (x, text) in [(-0.0, "-0.0"), (0.0, "0.0"), (-495.3125, "-495.3125"), (1.5, "1.5"), (625.0, "625.0"), (f32::NEG_INFINITY, "−∞")] {
        assert_eq!(float_text(x), text, "{x}");
    }
    // Beyond nine digits the fraction is cut: 0.1 is not a sum of powers of two.
    assert_eq!(float_text(0.1), "0.100000001");
    // Every input of both sets reads back as the number it is.
    for inputs in [CasInputs::Mixed, CasInputs::NonPositive] {
        for i in 0..2000 {
            let x = inputs.value(i);
            assert_eq!(float_text(x).parse::<f32>().unwrap().to_bits(), x.to_bits(), "{x}");
        }
    }
}

#[test]
fn a_nan_takes_no_part_and_leaves_at_once() {
    let n = 4;
    assert!(CasInputs::WithNan.value(2).is_nan() && !CasInputs::WithNan.value(1).is_nan());
    let want = (0..n).filter(|&i| i != 2).map(|i| CasInputs::Mixed.value(i)).fold(f32::NEG_INFINITY, f32::max);
    assert_eq!(true_max(CasInputs::WithNan, n), want, "the maximum of the numbers");
    let mut m = CasInputs::WithNan.machine(n as usize);
    for _ in 0..3 {
        m.step(2).unwrap(); // its input, best, then the NaN test
    }
    assert_eq!(m.threads[2].pc, m.program().len() - 1, "straight to recording 0 retries");
    assert!(m.describe(2).contains("is_nan(value)"));
}
