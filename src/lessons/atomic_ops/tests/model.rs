//! The atomic family in the model: wrapping and signedness as on the GPU, every schedule's
//! result explained by a one-at-a-time order, and the explanation refusing what no order gives.

use crate::lessons::atomic_ops::{explain, parse_operands, parse_value, serial_run, AtomicOp, AtomicRun, AtomicSettings, AtomicSetup};
use crate::model::{splitmix64, IntType, Machine, RmwOp, Schedule, Session};

fn setups() -> Vec<AtomicSetup> {
    let mut all = Vec::new();
    for op in AtomicOp::ALL {
        for ty in [IntType::U32, IntType::I32] {
            let base = AtomicSetup { op, ..AtomicSetup::DEFAULT }.with_type(ty);
            all.push(base);
            // Mixed signs, a wrap-around and equal operands.
            let mut odd = base;
            odd.initial = ty.wrap(-3);
            odd.compare = ty.wrap(-3);
            odd.operands[..6].copy_from_slice(&[5, -7, 5, 0x7FFF_FFFF, -1, 2].map(|v| ty.wrap(v)));
            all.push(odd);
        }
    }
    all
}

/// What the model's memory says a run returned, in the GPU's terms.
fn as_run(setup: AtomicSetup, m: &Machine, threads: usize) -> AtomicRun {
    let l = setup.layout(threads);
    let bits = |v: i64| IntType::bits(v);
    let olds = if setup.op.returns_old() { m.memory[l.olds..l.olds + threads].iter().map(|&v| bits(v)).collect() } else { vec![0; threads] };
    let exchanged = if setup.op == AtomicOp::CompareExchangeWeak {
        m.memory[l.exchanged..l.exchanged + threads].iter().map(|&v| bits(v)).collect()
    } else {
        vec![0; threads]
    };
    AtomicRun { final_bits: bits(m.memory[setup.cell()]), olds, exchanged }
}

#[test]
fn arithmetic_wraps_and_compares_as_the_cells_type() {
    let max = i64::from(u32::MAX);
    assert_eq!(RmwOp::Add.apply(IntType::U32, max, 2), 1);
    assert_eq!(RmwOp::Sub.apply(IntType::U32, 0, 1), max);
    assert_eq!(RmwOp::Add.apply(IntType::I32, i64::from(i32::MAX), 1), i64::from(i32::MIN));
    // 0xFFFFFFFF is the largest u32 but -1 as an i32.
    assert_eq!(RmwOp::Max.apply(IntType::U32, 5, max), max);
    assert_eq!(RmwOp::Max.apply(IntType::I32, 5, -1), 5);
    assert_eq!(RmwOp::Min.apply(IntType::I32, 5, -1), -1);
    assert_eq!(RmwOp::Xor.apply(IntType::I32, -1, 0x0F), -16);
    assert_eq!(RmwOp::And.apply(IntType::U32, 0b1100, 0b1010), 0b1000);
    assert_eq!(RmwOp::Or.apply(IntType::U32, 0b1100, 0b1010), 0b1110);
    assert_eq!(RmwOp::Exchange.apply(IntType::I32, 3, -9), -9);
    // Changing the type keeps the bits.
    let s = AtomicSetup { initial: max, ..AtomicSetup::DEFAULT }.with_type(IntType::I32);
    assert_eq!(s.initial, -1);
    assert_eq!(s.with_type(IntType::U32).initial, max);
}

#[test]
fn every_schedule_of_the_model_is_some_one_at_a_time_order() {
    for setup in setups() {
        for threads in [2, 4, 7] {
            let mut schedules = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
            schedules.extend((0..40).map(|i| Schedule::Random { seed: splitmix64(i) }));
            let mut finals = std::collections::BTreeSet::new();
            for schedule in schedules {
                let mut s = Session::new(setup.machine(threads), schedule);
                let end = s.run_to_end().clone();
                assert!(end.is_finished());
                let run = as_run(setup, &end, threads);
                let e = explain(setup, &run);
                let order = e.order.unwrap_or_else(|| panic!("{setup:?} {threads} {schedule:?}: no order explains {run:?}"));
                // The order found really gives the same run (store returns nothing to compare).
                let again = serial_run(setup, threads, &order);
                assert_eq!(again.final_bits, run.final_bits);
                if setup.op.returns_old() {
                    assert_eq!(again.olds, run.olds, "{setup:?} {schedule:?}");
                }
                assert_eq!(e.spurious, 0, "the model never fails spuriously");
                finals.insert(run.final_bits);
            }
            // Add, sub, max, min, and, or, xor: the order changes what each invocation gets
            // back, never where the cell ends.
            if let AtomicOp::Rmw(op) = setup.op {
                if op != RmwOp::Exchange {
                    assert_eq!(finals.len(), 1, "{setup:?}: {finals:?}");
                }
            }
        }
    }
}

#[test]
fn compare_exchange_has_one_winner_when_all_expect_the_start() {
    let setup = AtomicSetup { op: AtomicOp::CompareExchangeWeak, ..AtomicSetup::DEFAULT };
    for seed in 0..50 {
        let mut s = Session::new(setup.machine(6), Schedule::Random { seed });
        let run = as_run(setup, &s.run_to_end().clone(), 6);
        assert_eq!(run.exchanged.iter().sum::<u32>(), 1);
        let winner = run.exchanged.iter().position(|&e| e == 1).unwrap();
        assert_eq!(i64::from(run.final_bits), setup.operands[winner]);
    }
}

#[test]
fn runs_that_no_order_gives_are_refused() {
    let add = AtomicSetup::DEFAULT; // operands 1, 2, 4, 8 from 0
    let good = serial_run(add, 4, &[2, 0, 3, 1]);
    assert_eq!(good.olds, vec![4, 13, 0, 5]);
    assert_eq!(good.final_bits, 15);
    assert_eq!(explain(add, &good).order, Some(vec![2, 0, 3, 1]));
    // A lost update: two invocations read the same value.
    let lost = AtomicRun { final_bits: 15, olds: vec![0, 0, 3, 7], exchanged: vec![0; 4] };
    assert_eq!(explain(add, &lost).order, None);
    // Right returns, wrong final value.
    assert_eq!(explain(add, &AtomicRun { final_bits: 14, ..good.clone() }).order, None);
    // Two compare-exchange winners from the same start.
    let cas = AtomicSetup { op: AtomicOp::CompareExchangeWeak, ..AtomicSetup::DEFAULT };
    let two = AtomicRun { final_bits: 2, olds: vec![0, 0, 2, 2], exchanged: vec![1, 1, 0, 0] };
    assert_eq!(explain(cas, &two).order, None);
    // A weak failure that found what it expected is allowed, and counted.
    let weak = AtomicRun { final_bits: 2, olds: vec![0, 0, 2, 2], exchanged: vec![0, 1, 0, 0] };
    let e = explain(cas, &weak);
    assert!(e.order.is_some());
    assert_eq!(e.spurious, 1);
    // Sixteen invocations with no consistent order: the search gives up quickly.
    let mut wide = AtomicSetup::DEFAULT;
    wide.operands = [1; 16];
    let impossible = AtomicRun { final_bits: 16, olds: vec![0; 16], exchanged: vec![0; 16] };
    assert_eq!(explain(wide, &impossible).order, None);
}

#[test]
fn values_and_operands_are_checked_against_the_type() {
    assert_eq!(parse_value("initial", "0xFFFFFFFF", IntType::I32), Ok(-1));
    assert_eq!(parse_value("initial", "-2147483648", IntType::I32), Ok(i64::from(i32::MIN)));
    assert_eq!(parse_value("initial", " 42 ", IntType::U32), Ok(42));
    for bad in ["-1", "4294967296", "0x", "0x123456789", "1e3", "", "abc"] {
        let e = parse_value("initial", bad, IntType::U32).unwrap_err();
        assert!(e.starts_with("initial=") && e.contains("u32 from 0 to 4294967295"), "{e}");
    }
    assert_eq!(parse_operands("1,-2,0x10", IntType::I32), Ok(vec![1, -2, 16]));
    assert!(parse_operands("7", IntType::U32).unwrap_err().contains("2 to 16 values"));
    assert!(parse_operands("1,,2", IntType::U32).unwrap_err().contains("\"\" is not a u32"));
    assert!(parse_operands(&vec!["1"; 17].join(","), IntType::U32).is_err());
}

#[test]
fn a_link_carries_the_op_type_values_and_operands() {
    let get = |q: &'static [(&'static str, &'static str)]| move |k: &str| q.iter().find(|(key, _)| *key == k).map(|(_, v)| v.to_string());
    let (s, problems) =
        AtomicSettings::parse(get(&[("op", "compare-exchange-weak"), ("type", "i32"), ("initial", "-5"), ("compare", "-5"), ("operands", "3,0x10,-1")]));
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(s.threads, 3);
    assert_eq!(s.variant.op, AtomicOp::CompareExchangeWeak);
    assert_eq!((s.variant.initial, s.variant.compare), (-5, -5));
    assert_eq!(&s.variant.operands[..3], &[3, 16, -1]);
    let pairs = s.to_pairs();
    let text: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
    assert!(text.contains(&"operands=3,16,-1".to_owned()), "{text:?}");
    assert!(!text.iter().any(|p| p.starts_with("invocations=")), "this lesson has no GPU sizes: {text:?}");
    // Reading the written link gives the same settings.
    let again = AtomicSettings::parse(|k: &str| pairs.iter().find(|(key, _)| *key == k).map(|(_, v)| v.clone()));
    assert_eq!(again, (s, vec![]));
    // Threads that disagree with the operands are refused; a bad op is named.
    let (s, problems) = AtomicSettings::parse(get(&[("op", "nand"), ("threads", "5"), ("operands", "1,2")]));
    assert_eq!(s.threads, 2);
    assert!(problems.iter().any(|p| p.starts_with("op=\"nand\"")), "{problems:?}");
    assert!(problems.iter().any(|p| p.starts_with("threads=\"5\"")), "{problems:?}");
}

#[test]
fn a_tally_counts_finals_patterns_and_unexplained_runs() {
    use crate::lessons::atomic_ops::tally;
    let add = AtomicSetup::DEFAULT;
    let a = serial_run(add, 4, &[0, 1, 2, 3]);
    let b = serial_run(add, 4, &[3, 2, 1, 0]);
    let lost = AtomicRun { final_bits: 15, olds: vec![0, 0, 3, 7], exchanged: vec![0; 4] };
    let t = tally(add, &[a.clone(), b, a, lost]);
    assert_eq!(t.finals, vec![(15, 4)]);
    assert_eq!(t.distinct_returns, 3);
    assert_eq!(t.unexplained, 1);
    assert_eq!(t.spurious, 0);
}
