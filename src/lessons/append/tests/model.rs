//! The append model: under every schedule the kept values fill slots 0..k exactly once, the
//! dropped ones never appear, and only the order can change.

use crate::gpu::params::GpuParams;
use crate::lessons::append::{check, input_value, Append, COUNT, INPUT, LIMIT, MODEL_THREADS};
use crate::model::{splitmix64, Schedule, Session};

#[test]
fn every_schedule_appends_each_kept_value_once() {
    let mut orders = std::collections::BTreeSet::new();
    for n in MODEL_THREADS {
        let mut kept: Vec<i64> = (0..n as u32).map(input_value).map(i64::from).filter(|&v| v < LIMIT).collect();
        kept.sort();
        let mut schedules = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
        schedules.extend((0..100).map(|i| Schedule::Random { seed: splitmix64(i) }));
        for schedule in schedules {
            let mut s = Session::new(Append::machine(n), schedule);
            let end = s.run_to_end().clone();
            assert_eq!(end.memory[COUNT], kept.len() as i64, "{n} threads, {schedule:?}");
            let out = Append::output_base(n);
            let mut filled: Vec<i64> = end.memory[out..out + kept.len()].to_vec();
            if n == 8 {
                orders.insert(filled.clone());
            }
            filled.sort();
            assert_eq!(filled, kept, "{n} threads, {schedule:?}");
            assert!(end.memory[out + kept.len()..].iter().all(|&v| v == 0), "no slot past the count is written");
            for t in 0..n {
                assert_eq!(end.memory[INPUT + t], i64::from(input_value(t as u32)), "inputs are read, never written");
            }
        }
    }
    assert!(orders.len() > 1, "different schedules append in different orders");
}

#[test]
fn inputs_are_mixed_so_the_filter_keeps_some_and_drops_some() {
    let kept = (0..16).map(input_value).filter(|&v| i64::from(v) < LIMIT).count();
    assert!((4..=12).contains(&kept), "{kept} of 16 kept");
}

#[test]
fn the_check_wants_the_kept_values_and_the_exact_count() {
    let p = GpuParams { invocations: 16, workgroup_size: 4 };
    let mut kept: Vec<u32> = (0..16).map(input_value).filter(|&v| i64::from(v) < LIMIT).collect();
    let k = kept.len() as u32;
    let mut output = kept.clone();
    output.resize(16, 0);
    let good = check(&output, k, p);
    assert!(good.is_permutation);
    assert_eq!((good.expected, good.in_input_order), (k, k));
    kept.reverse();
    let mut reversed = kept.clone();
    reversed.resize(16, 0);
    assert!(check(&reversed, k, p).is_permutation, "any order is right");
    assert!(!check(&output, k - 1, p).is_permutation, "a short count is wrong");
    let mut wrong = output.clone();
    wrong[0] = 99;
    assert!(!check(&wrong, k, p).is_permutation, "a dropped value must not appear");
}
