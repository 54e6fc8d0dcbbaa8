//! The float sum by compare-exchange: in the model every schedule ends at the total its order
//! gives (2^24 first: the ones round away; ones first: they count); on a real device the
//! additions form one chain from 0.0 to the total.

use crate::gpu::params::{check_params, GpuParams};
use crate::lessons::cas_max::sum::{check, machine, run_sum, total_with, SumRun, LARGE, TOTAL};
use crate::model::{f32_of, splitmix64, Schedule, Session};
use crate::testing::{gpu, limits};

#[test]
fn the_total_depends_on_how_many_ones_come_before_the_large_value() {
    assert_eq!(total_with(4, 0), LARGE, "each one after 2^24 rounds away");
    assert_eq!(total_with(4, 3), 16_777_220.0, "3 + 2^24 is 16777219, halfway: it rounds to even");
    assert_eq!(total_with(4, 2), 16_777_220.0, "2 + 2^24, then + 1 rounds up to even");
    assert_eq!(total_with(4, 1), LARGE, "1 + 2^24 rounds down to even");
}

#[test]
fn every_schedule_ends_at_a_total_some_order_gives() {
    for n in 2..=8usize {
        let totals: Vec<u32> = (0..n as u32).map(|before| total_with(n as u32, before).to_bits()).collect();
        let mut schedules = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
        schedules.extend((0..40).map(|i| Schedule::Random { seed: splitmix64(i) }));
        let mut seen = std::collections::BTreeSet::new();
        for schedule in schedules {
            let end = Session::new(machine(n), schedule).run_to_end().clone();
            assert!(end.is_finished());
            let total = f32_of(end.memory[TOTAL]);
            assert!(totals.contains(&total.to_bits()), "{n} {schedule:?}: {total}");
            seen.insert(total.to_bits());
        }
        let serial = Session::new(machine(n), Schedule::Serial).run_to_end().clone();
        assert_eq!(f32_of(serial.memory[TOTAL]), LARGE, "{n}: thread 0 first, every one rounds away");
        if n >= 3 {
            assert!(seen.len() >= 2, "{n}: some schedule ends elsewhere: {seen:?}");
        }
    }
}

#[test]
fn a_run_is_one_chain_only_when_each_addition_replaced_a_total_another_left() {
    // Three inputs served as 1.0, 2^24, 1.0: totals 0 → 1 → 2^24 → 2^24.
    let bits = |x: f32| x.to_bits();
    let run = SumRun { total_bits: bits(LARGE), replaced: vec![bits(1.0), bits(0.0), bits(LARGE)], retries: vec![0; 3], gave_up: 0 };
    let c = check(3, &run);
    assert!(c.one_chain && c.promise_held(0), "{c:?}");
    assert_eq!((c.ones_before, c.replayed), (1, LARGE));
    // Two additions that both replaced 0.0: one of them was lost, whatever the total says.
    let lost = SumRun { replaced: vec![bits(0.0), bits(0.0), bits(LARGE)], ..run.clone() };
    assert!(!check(3, &lost).one_chain);
    // The right chain, with a total that is not where it ends.
    let off = SumRun { total_bits: bits(LARGE + 2.0), ..run };
    assert!(!check(3, &off).promise_held(0));
}

#[test]
fn on_a_real_device_the_additions_form_one_chain() {
    let Some(ctx) = gpu() else { return };
    for (invocations, workgroup_size) in [(1, 1), (64, 64), (4096, 64), (10_000, 256)] {
        let params = check_params(GpuParams { invocations, workgroup_size }, &limits(&ctx)).unwrap();
        let run = pollster::block_on(run_sum(&ctx, params)).unwrap();
        let c = check(invocations, &run);
        assert!(c.promise_held(run.gave_up), "{params:?}: {c:?}");
        eprintln!("float sum {params:?} on {}: total {}, {} ones first", ctx.adapter.name, c.total, c.ones_before);
    }
}
