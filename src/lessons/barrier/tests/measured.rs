//! The lesson's figures from real GPUs (data/) parse in full and agree with its model.

#[test]
fn the_h100_barrier_report_has_no_stale_read_with_the_barrier() {
    use crate::lessons::barrier::measured::{parse_barrier_report, H100_BARRIER};
    let (adapter, rows) = parse_barrier_report(H100_BARRIER).expect("data/h100-barrier.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 6);
    for r in &rows {
        assert_eq!(r.sound, r.runs, "{r:?}");
        assert_eq!(r.workgroups, r.invocations.div_ceil(r.workgroup_size));
        if r.variant == "with" {
            assert_eq!((r.stale.1, r.ordered_workgroups.0), (0, r.workgroups), "{r:?}");
        }
    }
}

#[test]
fn the_h100_storage_report_saw_every_write_where_wgsl_promises_it() {
    use crate::lessons::barrier::measured::{parse_across_report, H100_ACROSS};
    use crate::lessons::barrier::Across;
    let (adapter, rows) = parse_across_report(H100_ACROSS).expect("data/h100-across.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 9);
    for r in &rows {
        let how = Across::ALL.into_iter().find(|a| a.name() == r.how).expect("a known way");
        assert_eq!(r.impossible, 0, "{r:?}");
        if how.guaranteed() {
            assert_eq!(r.runs_stale, 0, "{r:?}");
        }
    }
}
