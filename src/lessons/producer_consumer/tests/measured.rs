//! The lesson's figures from real GPUs (data/) parse in full and keep every guaranteed account
//! and every promise.

#[test]
fn the_h100_producer_consumer_report_kept_every_account_and_promise() {
    use crate::lessons::producer_consumer::measured::{parse_handoff_report, H100_PRODUCER_CONSUMER};
    use crate::lessons::producer_consumer::report::SIZES;
    use crate::lessons::producer_consumer::Handoff;
    let (adapter, rows) = parse_handoff_report(H100_PRODUCER_CONSUMER).expect("data/h100-producer-consumer.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), Handoff::ALL.len() * SIZES.len());
    for r in &rows {
        assert_eq!((r.consistent, r.promise_held), (r.runs, r.runs), "{r:?}");
        assert!(r.consumed.1 <= r.invocations && r.stale.1 <= r.consumed.1, "{r:?}");
    }
}
