//! The lesson's figures from real GPUs (data/) parse in full and keep every promise: the
//! promised ways exact in every run, the compaction in order, the single pass exact with no
//! look-back given up wherever it had a fallback.

#[test]
fn the_h100_scan_report_kept_every_promise() {
    use crate::lessons::scan::measured::{parse_scan_report, H100_SCAN};
    use crate::lessons::scan::report::{SINGLE_PASS_SIZES, SIZES};
    let (adapter, rows) = parse_scan_report(H100_SCAN).expect("data/h100-scan.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 5 * SIZES.len() + 4 * SINGLE_PASS_SIZES.len());
    for r in &rows {
        if r.way != "one-barrier" {
            assert_eq!(r.runs_exact, r.runs, "{r:?}");
        }
        if r.way == "single-pass" || r.way == "single-pass-tickets" {
            assert_eq!((r.wrong_max, r.give_ups), (0, 0), "{r:?}");
        }
        if ["three-dispatches", "copy", "single-pass", "single-pass-tickets", "single-pass-no-fallback"].contains(&r.way.as_str()) {
            assert!(r.gpu_ms_median.is_some_and(|ms| ms > 0.0) && r.gb_per_s.is_some(), "{r:?}");
        }
    }
}
