//! The lesson's figures from real GPUs (data/) parse in full and agree with its model.

#[test]
fn the_h100_spinlock_report_kept_every_guaranteed_account() {
    use crate::lessons::spinlock::measured::{parse_spinlock_report, H100_SPINLOCK};
    let (adapter, rows) = parse_spinlock_report(H100_SPINLOCK).expect("data/h100-spinlock.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 6);
    for r in &rows {
        assert_eq!(r.consistent, r.runs, "{r:?}");
        assert!(r.entered.1 <= r.invocations && r.lost.1 <= r.entered.1, "{r:?}");
    }
}
