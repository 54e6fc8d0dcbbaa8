//! The lesson's figures from real GPUs (data/) parse in full and agree with its model.

use crate::lessons::atomic_counter::measured::{parse_ticket_report, H100_TICKETS};

#[test]
fn the_h100_ticket_report_parses_and_every_run_was_exact() {
    let (adapter, rows) = parse_ticket_report(H100_TICKETS).expect("data/h100-tickets.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 4);
    for r in &rows {
        assert_eq!(r.exact_permutations, r.runs, "atomicAdd tickets were exact in every run: {r:?}");
        assert_eq!(r.workgroups, r.invocations.div_ceil(r.workgroup_size));
        assert!(r.whole_workgroups.0 <= r.whole_workgroups.1 && r.whole_workgroups.1 <= r.workgroups, "{r:?}");
        assert!(r.lane_order.0 <= r.lane_order.1 && r.lane_order.1 <= r.neighbour_pairs, "{r:?}");
        assert!(r.gpu_ms_median.is_some());
    }
    // The page reads the decimals by hand; they must agree with Rust's own float parser.
    let written: Vec<f64> = H100_TICKETS
        .lines()
        .skip_while(|l| !l.contains("\"rows\""))
        .skip(1)
        .take(rows.len())
        .map(|l| l.trim().trim_end_matches(',').trim_end_matches(']').rsplit(',').next().unwrap().trim().parse().unwrap())
        .collect();
    let read: Vec<f64> = rows.iter().map(|r| r.gpu_ms_median.unwrap()).collect();
    assert_eq!(read.len(), written.len());
    for (r, w) in read.iter().zip(&written) {
        assert!((r - w).abs() <= 1e-12 * w.abs().max(1.0), "{r} vs {w}");
    }
}
