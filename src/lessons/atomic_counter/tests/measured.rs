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
    // The page reads the decimals by hand; within a part in 10^12 of Rust's own float parser.
    for r in &rows {
        let exact = r.gpu_ms_median.unwrap();
        let text = exact.to_string();
        let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
        let by_hand = crate::data::measured::decimal_by_hand(whole, fraction).unwrap();
        assert!((by_hand - exact).abs() <= 1e-12 * exact.abs().max(1.0), "{by_hand} vs {exact}");
    }
}
