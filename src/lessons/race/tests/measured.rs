//! The lesson's figures from real GPUs (data/) parse in full and agree with its model.

use crate::lessons::race::measured::{parse_report, H100_RACE};
use crate::lessons::race::Variant;

#[test]
fn the_h100_report_parses_and_every_run_is_within_the_model() {
    let report = parse_report(H100_RACE).expect("data/h100-race.json parses");
    assert!(report.adapter.contains("H100"), "{}", report.adapter);
    assert_eq!(report.race.len(), 8);
    for row in &report.race {
        let variant = Variant::from_name(&row.variant).unwrap();
        let allowed = variant.allowed_final_counts(row.invocations);
        let total: u32 = row.final_counts.iter().map(|(_, n)| n).sum();
        assert_eq!(total, row.runs, "{row:?}");
        assert!(row.final_counts.iter().all(|(c, _)| allowed.contains(c)), "{row:?}");
    }
}
