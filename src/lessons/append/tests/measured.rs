//! The lesson's figures from real GPUs (data/) parse in full and agree with its model.

use crate::lessons::append::measured::{parse_append_report, H100_APPEND};

#[test]
fn the_h100_append_report_parses_and_every_count_was_exact() {
    use crate::lessons::append::{input_value, LIMIT};
    let (adapter, rows) = parse_append_report(H100_APPEND).expect("data/h100-append.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 4);
    for r in &rows {
        assert_eq!(r.exact, r.runs, "{r:?}");
        let kept = (0..r.invocations).filter(|&i| i64::from(input_value(i)) < LIMIT).count() as u32;
        assert_eq!(r.kept, kept, "the report's inputs are the lesson's: {r:?}");
        assert!(r.slots_changed.0 <= r.slots_changed.1 && r.slots_changed.1 <= r.kept, "{r:?}");
        assert!(r.in_input_order.0 <= r.in_input_order.1 && r.in_input_order.1 <= r.kept, "{r:?}");
    }
}
