//! The lesson's figures from real GPUs (data/) parse in full and agree with its model.

#[test]
fn the_h100_tiled_report_is_right_with_both_barriers() {
    use crate::lessons::tiled::measured::{parse_tiled_report, H100_TILED};
    let (adapter, rows) = parse_tiled_report(H100_TILED).expect("data/h100-tiled.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 15);
    for r in &rows {
        assert!(r.runs_wrong <= r.runs && r.wrong.0 <= r.wrong.1 && r.wrong.1 <= r.n * r.n, "{r:?}");
        if r.variant == "both" {
            assert_eq!(r.runs_wrong, 0, "{r:?}");
        }
    }
}
