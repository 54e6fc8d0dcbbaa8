//! The lesson's figures from real GPUs (data/) parse in full and agree with its model.

use crate::lessons::cas_max::measured::{parse_cas_report, H100_CAS};

#[test]
fn the_h100_cas_report_parses_and_every_run_found_the_maximum() {
    let (adapter, rows) = parse_cas_report(H100_CAS).expect("data/h100-cas-max.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 6);
    for r in &rows {
        assert!(r.inputs == "mixed" || r.inputs == "non-positive", "{r:?}");
        assert_eq!((r.exact, r.gave_up), (r.runs, 0), "{r:?}");
        assert!(r.retries.0 <= r.retries.1 && r.retries.1 <= r.retries.2, "{r:?}");
    }
}
