//! The lesson's figures from real GPUs (data/) parse in full and keep every account and
//! promise.

#[test]
fn the_h100_scopes_report_kept_every_account_and_promise() {
    use crate::lessons::scopes::measured::{parse_reach_report, H100_SCOPES};
    use crate::lessons::scopes::report::SIZES;
    use crate::lessons::scopes::BarrierReach;
    let (adapter, rows) = parse_reach_report(H100_SCOPES).expect("data/h100-scopes.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), BarrierReach::ALL.len() * SIZES.len());
    for r in &rows {
        assert_eq!((r.consistent, r.promise_held), (r.runs, r.runs), "{r:?}");
        assert!(r.stale.1 <= r.invocations, "{r:?}");
    }
}
