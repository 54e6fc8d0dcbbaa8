//! The lesson's figures from real GPUs (data/) parse in full and keep every promise.

#[test]
fn the_h100_subgroups_report_kept_every_promise() {
    use crate::lessons::subgroups::measured::{parse_subgroups_report, H100_SUBGROUPS};
    use crate::lessons::subgroups::report::{SIZES, WAYS};
    let (adapter, rows) = parse_subgroups_report(H100_SUBGROUPS).expect("data/h100-subgroups.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), WAYS.len() * SIZES.len());
    for (r, way) in rows.iter().zip(WAYS.iter().cycle()) {
        assert_eq!(&r.way, way);
        assert_eq!(r.subgroup_size, 32, "an H100's subgroup is its warp: {r:?}");
        if matches!(r.way.as_str(), "subgroup-add" | "butterfly" | "reduce-tree" | "reduce-subgroup-add" | "compaction-ballot" | "compaction-per-value") {
            assert_eq!(r.runs_exact, r.runs, "{r:?}");
        }
        if r.way.starts_with("reduce") || r.way.starts_with("compaction") {
            assert!(r.gpu_ms_median.is_some_and(|ms| ms > 0.0), "{r:?}");
        }
    }
}
