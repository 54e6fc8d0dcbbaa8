//! The lesson's figures from real GPUs (data/) parse in full and keep every guaranteed account.

#[test]
fn the_h100_arrive_wait_report_kept_every_guaranteed_account() {
    use crate::lessons::arrive_wait::measured::{parse_arrive_wait_report, H100_ARRIVE_WAIT};
    use crate::lessons::arrive_wait::report::SIZES;
    use crate::lessons::arrive_wait::ArriveWait;
    use crate::site::settings::LessonVariant;
    let (adapter, rows) = parse_arrive_wait_report(H100_ARRIVE_WAIT).expect("data/h100-arrive-wait.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), ArriveWait::ALL.len() * SIZES.len());
    for r in &rows {
        assert_eq!(r.consistent, r.runs, "{r:?}");
        if r.variant == ArriveWait::WorkgroupBarrier.name() {
            assert_eq!(r.clean, r.runs, "the barrier's promise: {r:?}");
        }
    }
}
