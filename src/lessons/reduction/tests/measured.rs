//! The lesson's figures from real GPUs (data/) parse in full and agree with its model.

#[test]
fn the_h100_reduction_report_summed_right_and_was_timed() {
    use crate::lessons::reduction::measured::{parse_reduction_report, H100_REDUCTION};
    let (adapter, rows) = parse_reduction_report(H100_REDUCTION).expect("data/h100-reduction.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 4);
    for r in &rows {
        assert_eq!(r.right, r.runs, "{r:?}");
        assert!([r.tree_ms, r.atomic_ms, r.tree_atomic_ms].iter().all(|t| t.is_some_and(|ms| ms > 0.0)), "{r:?}");
    }
    assert!(H100_REDUCTION.contains("\"trace_of_8_matches\": true"));
}
