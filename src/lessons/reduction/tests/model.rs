//! The reduction tree in the model: under every schedule the workgroup memory after each
//! barrier is the seed's table, and the sum lands in cells[0] (when the width is a power of two).

use crate::lessons::reduction::{cells_base, strides, trace, Tree, MODEL_THREADS, VALUES};
use crate::model::{splitmix64, Effect, Schedule, Session};

#[test]
fn every_schedule_walks_the_seeds_table() {
    for n in MODEL_THREADS {
        let values: Vec<u32> = (0..n).map(|i| VALUES[i % 16]).collect();
        let want = trace(&values);
        assert_eq!(want.len(), 1 + strides(n).len());
        let mut schedules = vec![Schedule::Lockstep, Schedule::RoundRobin, Schedule::Serial];
        schedules.extend((0..30).map(|i| Schedule::Random { seed: splitmix64(i) }));
        for schedule in schedules {
            let mut s = Session::new(Tree::machine(n), schedule);
            assert!(s.run_to_end().is_finished(), "{n} {schedule:?}");
            // The cells each time a barrier releases: after loading, then after each stride.
            let mut seen = Vec::new();
            s.seek(0);
            while s.cursor() < s.known_ticks() {
                s.seek(s.cursor() + 1);
                if s.last_events().iter().any(|e| matches!(e.effect, Effect::BarrierReleased { .. })) {
                    let m = s.current();
                    seen.push(m.memory[cells_base(n)..cells_base(n) + n].iter().map(|&v| v as u32).collect::<Vec<_>>());
                }
            }
            assert_eq!(seen, want, "{n} threads, {schedule:?}");
        }
    }
}

#[test]
fn the_seeds_trace_ends_at_31() {
    let t = trace(&VALUES[..8]);
    assert_eq!(t[1], vec![8, 10, 6, 7, 5, 9, 2, 6]);
    assert_eq!(t[2][..2], [14, 17]);
    assert_eq!(t[3][0], 31);
    assert_eq!(strides(8), vec![4, 2, 1]);
    // Not a power of two: the tree drops a value (3 + 1 + 4 + 1 + 5 = 14, but 5 is never added).
    assert_eq!(trace(&VALUES[..5]).last().unwrap()[0], 9);
}
