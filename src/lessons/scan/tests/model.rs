//! The scan in the model: Hillis–Steele and the work-efficient sweeps end right under every
//! schedule, at every width; with one barrier taken away lockstep still ends right and a serial
//! schedule does not; the sweeps read fewer partner cells.

use crate::lessons::scan::{cells_base, down_start, inclusive_scan, model_values, tile_run, tile_scans, ScanWay, MODEL_THREADS};
use crate::model::{splitmix64, Effect, Schedule, Session};

fn schedules() -> Vec<Schedule> {
    let mut s = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
    s.extend((0..40).map(|i| Schedule::Random { seed: splitmix64(i) }));
    s
}

fn cells_at_end(way: ScanWay, n: usize, schedule: Schedule) -> Vec<u32> {
    let end = Session::new(way.machine(n), schedule).run_to_end().clone();
    assert!(end.is_finished(), "{way:?} {n} {schedule:?}");
    end.memory[cells_base(n)..].iter().map(|&v| v as u32).collect()
}

#[test]
fn hillis_steele_and_the_sweeps_end_right_under_every_schedule() {
    for way in [ScanWay::HillisSteele, ScanWay::WorkEfficient] {
        for n in MODEL_THREADS {
            let want = inclusive_scan(&model_values(n));
            for schedule in schedules() {
                assert_eq!(cells_at_end(way, n, schedule), want, "{way:?} {n} {schedule:?}");
            }
        }
    }
}

#[test]
fn one_barrier_is_right_in_lockstep_and_wrong_when_a_thread_runs_ahead() {
    for n in MODEL_THREADS {
        let want = inclusive_scan(&model_values(n));
        assert_eq!(cells_at_end(ScanWay::OneBarrier, n, Schedule::Lockstep), want, "{n}: every read comes before any write");
        if n >= 3 {
            let serial = cells_at_end(ScanWay::OneBarrier, n, Schedule::Serial);
            assert_ne!(serial, want, "{n}: t2 reads cells[1] after t1 added into it");
            // A half-updated read only ever adds more: no sum comes out short.
            assert!(serial.iter().zip(&want).all(|(g, w)| g >= w), "{n}: {serial:?} against {want:?}");
        }
    }
    // The picture the page describes, with 8 threads: cells[2] counts input[0] twice.
    let serial = cells_at_end(ScanWay::OneBarrier, 8, Schedule::Serial);
    assert_eq!(&serial[..3], &[3, 4, 11]);
}

#[test]
fn the_sweeps_read_fewer_partner_cells_than_hillis_steele() {
    let reads = |way: ScanWay, n: usize| {
        let mut s = Session::new(way.machine(n), Schedule::Lockstep);
        s.run_to_end();
        let ticks = s.ticks();
        let program = way.program(n);
        ticks.iter().flatten().filter(|e| program.lines[e.pc].marker.ends_with("read") && matches!(e.effect, Effect::Loaded { .. })).count()
    };
    assert_eq!((reads(ScanWay::HillisSteele, 8), reads(ScanWay::WorkEfficient, 8)), (17, 11));
    for n in 4..=*MODEL_THREADS.end() {
        assert!(reads(ScanWay::WorkEfficient, n) < reads(ScanWay::HillisSteele, n), "{n}");
    }
}

#[test]
fn the_down_sweep_starts_at_half_the_largest_power_of_two_below_the_width() {
    assert_eq!([2, 3, 4, 5, 8, 9, 12, 16].map(down_start), [0, 1, 1, 2, 2, 4, 4, 4]);
}

#[test]
fn tile_runs_count_wrong_sums_and_keep_the_first_wrong_tile() {
    let values = [1, 2, 3, 4, 5, 6, 7, 8];
    let want = tile_scans(&values, 4);
    assert_eq!(want, vec![1, 3, 6, 10, 5, 11, 18, 26]);
    let right = tile_run(ScanWay::HillisSteele, &want, &want, 4);
    assert_eq!((right.wrong, right.wrong_tiles, right.first_wrong), (0, 0, None));
    let mut got = want.clone();
    got[6] = 99;
    got[7] = 98;
    let wrong = tile_run(ScanWay::OneBarrier, &got, &want, 4);
    assert_eq!((wrong.wrong, wrong.wrong_tiles), (2, 1));
    assert_eq!(wrong.first_wrong, Some((1, vec![(5, 5), (11, 11), (99, 18), (98, 26)])));
    assert_eq!(tile_run(ScanWay::OneBarrier, &want[..6], &want, 4).wrong, 2, "sums never written count as wrong");
}

#[test]
fn the_compactions_are_shown_from_the_first_slot_where_they_part() {
    use crate::lessons::scan::{append_beside, shown_slots, SHOWN_KEPT};
    let ordered = [5, 6, 7, 8, 9];
    let served = append_beside(&[5, 6, 8, 7, 9, 0], 5, &ordered);
    assert_eq!((served.same_values, served.out_of_place, served.first_apart), (true, 2, Some(2)));
    assert_eq!(served.values, vec![5, 6, 8, 7, 9], "only the slots atomicAdd handed out");
    assert!(!append_beside(&[5, 6, 7, 8, 1], 5, &ordered).same_values);
    assert_eq!(append_beside(&ordered, 5, &ordered).first_apart, None);
    assert_eq!(shown_slots(Some(2), 5), 0..5, "fewer than a row: all of them");
    assert_eq!(shown_slots(Some(40), 100), 40..40 + SHOWN_KEPT);
    assert_eq!(shown_slots(Some(95), 100), 100 - SHOWN_KEPT..100, "a full row at the end");
    assert_eq!(shown_slots(None, 100), 0..SHOWN_KEPT);
    assert_eq!(shown_slots(None, 0), 0..0);
}
