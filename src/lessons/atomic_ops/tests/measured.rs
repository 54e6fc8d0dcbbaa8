//! The lesson's figures from real GPUs (data/) parse in full and agree with its model.

#[test]
fn the_h100_atomic_ops_report_covers_every_op_on_both_types_all_explained() {
    use crate::lessons::atomic_ops::measured::{parse_atomic_ops_report, H100_ATOMIC_OPS};
    use crate::lessons::atomic_ops::AtomicOp;
    let (adapter, rows) = parse_atomic_ops_report(H100_ATOMIC_OPS).expect("data/h100-atomic-ops.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 2 * 2 * AtomicOp::ALL.len());
    for layout in ["one-workgroup", "workgroup-each"] {
        for op in AtomicOp::NAMES {
            for ty in ["u32", "i32"] {
                let found = rows.iter().find(|r| r.op == op && r.ty == ty && r.layout == layout);
                let r = found.unwrap_or_else(|| panic!("{op} {ty} {layout}"));
                assert_eq!(r.explained, r.runs, "{op} {ty} {layout}");
                assert!(r.distinct_finals >= 1 && r.distinct_returns >= 1);
            }
        }
    }
}
