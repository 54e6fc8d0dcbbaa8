//! The lesson's figures from real GPUs (data/) parse in full and agree with its model.

use crate::lessons::cas_max::measured::{parse_cas_report, parse_sum_report, H100_CAS, H100_CAS_ADD};
use crate::lessons::cas_max::sum::total_with;

#[test]
fn the_h100_cas_report_parses_and_every_run_found_the_maximum() {
    let (adapter, rows) = parse_cas_report(H100_CAS).expect("data/h100-cas-max.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 9, "three input sets at three sizes");
    for r in &rows {
        assert!(["mixed", "non-positive", "with-nan"].contains(&r.inputs.as_str()), "{r:?}");
        assert_eq!((r.exact, r.gave_up), (r.runs, 0), "{r:?}");
        assert!(r.retries.0 <= r.retries.1 && r.retries.1 <= r.retries.2, "{r:?}");
    }
}

#[test]
fn the_h100_sum_report_parses_and_its_totals_are_what_its_orders_give() {
    let (adapter, rows) = parse_sum_report(H100_CAS_ADD).expect("data/h100-cas-add.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 3);
    for r in &rows {
        assert_eq!((r.runs_one_chain, r.gave_up), (r.runs, 0), "{r:?}");
        // The fewest ones first give the lowest total, the most the highest: as the CPU rounds.
        assert_eq!(r.total_min, f64::from(total_with(r.invocations, r.ones_before_min)), "{r:?}");
        assert_eq!(r.total_max, f64::from(total_with(r.invocations, r.ones_before_max)), "{r:?}");
        assert_eq!(r.exact_sum, 16_777_216.0 + f64::from(r.invocations - 1), "{r:?}");
    }
}
