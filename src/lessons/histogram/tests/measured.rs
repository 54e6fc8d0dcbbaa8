//! The lesson's figures from real GPUs (data/) parse in full and agree with its model.

#[test]
fn the_h100_histogram_report_is_exact_where_atomic_and_timed_everywhere() {
    use crate::lessons::histogram::measured::{parse_histogram_report, H100_HISTOGRAM};
    use crate::lessons::histogram::DISTINCT;
    let (adapter, rows) = parse_histogram_report(H100_HISTOGRAM).expect("data/h100-histogram.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 2 * DISTINCT.len() * 3);
    for r in &rows {
        assert!(DISTINCT.contains(&r.distinct), "{r:?}");
        assert!(r.ms.is_some_and(|ms| ms > 0.0), "{r:?}");
        if r.variant == "plain" {
            assert!(!r.exact && u64::from(r.lost) < u64::from(r.values) * u64::from(r.repeats), "{r:?}");
        } else {
            assert!(r.exact && r.lost == 0, "{r:?}");
        }
    }
}
