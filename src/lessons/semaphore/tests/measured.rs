//! The lesson's figures from real GPUs (data/) parse in full and keep every guaranteed account.

#[test]
fn the_h100_semaphore_report_kept_every_guaranteed_account() {
    use crate::lessons::semaphore::measured::{parse_semaphore_report, H100_SEMAPHORE};
    use crate::lessons::semaphore::report::SIZES;
    use crate::lessons::semaphore::Semaphore;
    let (adapter, rows) = parse_semaphore_report(H100_SEMAPHORE).expect("data/h100-semaphore.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), Semaphore::ALL.len() * SIZES.len());
    for r in &rows {
        assert_eq!(r.consistent, r.runs, "{r:?}");
        assert!(r.entered.1 <= r.invocations && r.peak.0 >= 1 && r.peak.1 <= r.entered.1, "{r:?}");
    }
}
