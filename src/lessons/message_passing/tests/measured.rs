//! The lesson's figures from real GPUs (data/) parse in full and agree with its model.

#[test]
fn the_h100_message_passing_report_counts_every_instance_within_its_promises() {
    use crate::lessons::message_passing::measured::{parse_message_passing_report, H100_MESSAGE_PASSING};
    use crate::lessons::message_passing::{check, MessagePassingVariant, Outcome};
    use crate::site::settings::LessonVariant;
    let report = parse_message_passing_report(H100_MESSAGE_PASSING).expect("data/h100-message-passing.json parses");
    assert!(report.adapter.contains("H100"), "{}", report.adapter);
    assert!(!report.rows.is_empty() && report.rows.len() % 4 == 0);
    for r in &report.rows {
        let variant = MessagePassingVariant::from_name(&r.variant).expect("a known variant");
        // The report's columns follow Outcome::ALL; check() wants them by slot.
        let mut by_slot = [0u64; 4];
        for (o, n) in Outcome::ALL.iter().zip(r.counts) {
            by_slot[o.slot()] = n;
        }
        let c = check(variant, &by_slot, u64::from(r.instances) * u64::from(r.dispatches));
        assert!(c.ok(), "{r:?}: {c:?}");
        assert!(r.per_second > 0.0, "{r:?}");
    }
    assert!(report.many_per_second > 0.0 && report.smallest_per_second > 0.0);
}
