//! The lesson's figures from real GPUs (data/) parse in full and keep every account and
//! promise.

#[test]
fn the_h100_grid_barrier_report_kept_every_account_and_promise() {
    use crate::lessons::grid_barrier::measured::{parse_grid_report, H100_GRID_BARRIER};
    use crate::lessons::grid_barrier::report::sizes;
    let (adapter, rows) = parse_grid_report(H100_GRID_BARRIER).expect("data/h100-grid-barrier.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 2 * sizes().len());
    for r in &rows {
        assert_eq!((r.consistent, r.promise_held), (r.runs, r.runs), "{r:?}");
        assert!(r.gave_up.1 <= r.workgroups, "{r:?}");
    }
}
