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

/// The H200's report: every scan exact in every checked run, the single pass with no look-back
/// given up; and what the page says of it: at every size CUB was timed at, the single pass at
/// least as fast as CUB and at least 90 % of the copy over the same buffers, the fair
/// reduce-then-scan at least half the copy's speed and slower than the single pass.
#[test]
fn the_h200_single_pass_is_ahead_of_cub_and_the_fair_three_passes() {
    use crate::lessons::scan::measured::{parse_scan_report, H200_SCAN};
    use crate::lessons::scan::report::{SINGLE_PASS_SIZES, SIZES};
    let (adapter, rows) = parse_scan_report(H200_SCAN).expect("data/h200-scan.json parses");
    assert!(adapter.contains("H200"), "{adapter}");
    let cub_sizes: Vec<u32> = rows.iter().filter(|r| r.way == "cub").map(|r| r.invocations).collect();
    assert_eq!(cub_sizes, [1 << 24, 1 << 25, 1 << 26, 1 << 27]);
    assert_eq!(rows.len(), 5 * SIZES.len() + 5 * SINGLE_PASS_SIZES.len() + 2 * cub_sizes.len());
    for r in &rows {
        if r.way != "one-barrier" {
            assert_eq!(r.runs_exact, r.runs, "{r:?}");
        }
        if r.way.starts_with("single-pass") || r.way == "reduce-then-scan" {
            assert_eq!(r.wrong_max, 0, "{r:?}");
        }
    }
    let gb = |way: &str, n: u32| rows.iter().find(|r| r.way == way && r.invocations == n).and_then(|r| r.gb_per_s).unwrap_or_else(|| panic!("{way} at {n}"));
    for n in cub_sizes {
        let (single, copy, cub, fair) = (gb("single-pass", n), gb("copy", n), gb("cub", n), gb("reduce-then-scan", n));
        assert!(single >= cub, "{n}: single pass {single} behind CUB {cub}");
        assert!(single >= 0.9 * copy, "{n}: single pass {single} under 90 % of the copy {copy}");
        assert!(fair >= 0.5 * copy && fair < single, "{n}: reduce-then-scan {fair}, copy {copy}, single pass {single}");
    }
}
