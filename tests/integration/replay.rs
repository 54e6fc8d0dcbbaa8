//! Building a replay from recorded accesses: ticket order, recorded values only, and the
//! disagreements marked.

use syncscope::model::{AccessRecord, ReplayAccess, ReplayError, ReplayTimeline};

fn racy(loaded: u32, load_ticket: u32, store_ticket: u32) -> AccessRecord {
    AccessRecord { loaded, stored: loaded + 1, load_ticket, store_ticket }
}

#[test]
fn lockstep_records_replay_as_all_loads_then_all_stores() {
    // What 4 lanes in lockstep record: tickets 0-3 for the loads, 4-7 for the stores.
    let records: Vec<_> = (0..4).map(|l| racy(0, l, 4 + l)).collect();
    let t = ReplayTimeline::from_records(&records, 0, 1).unwrap();
    assert_eq!(t.steps.len(), 8);
    assert!(t.steps[..4].iter().all(|s| matches!(s.access, ReplayAccess::Load { value: 0 })));
    assert_eq!(t.disagreements(), 0);
    assert_eq!(t.counter_at(8, 0), 1);
    assert_eq!(t.lanes_at(4)[2].loaded, Some(0));
    assert_eq!(t.lanes_at(4)[2].stored, None);
    assert_eq!(t.lanes_at(8)[2].stored, Some(1));
}

#[test]
fn a_load_that_the_ticket_order_cannot_explain_is_marked() {
    // Lane 1's ticket says it loaded after lane 0 stored 1, yet it recorded 0.
    let records = [racy(0, 0, 1), racy(0, 2, 3)];
    let t = ReplayTimeline::from_records(&records, 0, 1).unwrap();
    assert_eq!(t.disagreements(), 1);
    assert!(t.steps[2].disagrees);
    assert!(t.narrate(&t.steps[2]).contains("not what the replayed counter held"));
}

#[test]
fn atomic_records_replay_as_single_steps() {
    let records: Vec<_> = [2u32, 0, 1].iter().map(|&old| AccessRecord { loaded: old, stored: old + 1, load_ticket: old * 3, store_ticket: old * 3 }).collect();
    let t = ReplayTimeline::from_records(&records, 0, 3).unwrap();
    assert_eq!(t.steps.iter().map(|s| s.lane).collect::<Vec<_>>(), [1, 2, 0]);
    assert_eq!(t.disagreements(), 0);
    assert_eq!(t.counter_at(3, 0), 3);
}

#[test]
fn malformed_records_are_refused() {
    assert_eq!(ReplayTimeline::from_records(&[], 0, 0), Err(ReplayError::NoRecords));
    assert_eq!(ReplayTimeline::from_records(&[racy(0, 0, 1), racy(0, 1, 2)], 0, 1), Err(ReplayError::DuplicateTicket(1)));
    assert_eq!(ReplayTimeline::from_records(&[racy(0, 5, 2)], 0, 1), Err(ReplayError::StoreBeforeLoad { lane: 0 }));
}
