//! The real-GPU figures the lessons show parse in full and agree with the model.

use syncscope::lessons::append::measured::{parse_append_report, H100_APPEND};
use syncscope::lessons::atomic_counter::measured::{parse_ticket_report, H100_TICKETS};
use syncscope::lessons::cas_max::measured::{parse_cas_report, H100_CAS};
use syncscope::lessons::race::measured::{parse_report, H100_RACE};
use syncscope::lessons::race::Variant;

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

#[test]
fn the_h100_ticket_report_parses_and_every_run_was_exact() {
    let (adapter, rows) = parse_ticket_report(H100_TICKETS).expect("data/h100-tickets.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 4);
    for r in &rows {
        assert_eq!(r.exact_permutations, r.runs, "atomicAdd tickets were exact in every run: {r:?}");
        assert_eq!(r.workgroups, r.invocations.div_ceil(r.workgroup_size));
        assert!(r.whole_workgroups.0 <= r.whole_workgroups.1 && r.whole_workgroups.1 <= r.workgroups, "{r:?}");
        assert!(r.lane_order.0 <= r.lane_order.1 && r.lane_order.1 <= r.neighbour_pairs, "{r:?}");
        assert!(r.gpu_ms_median.is_some());
    }
    // The page reads the decimals by hand; they must agree with Rust's own float parser.
    let written: Vec<f64> = H100_TICKETS
        .lines()
        .skip_while(|l| !l.contains("\"rows\""))
        .skip(1)
        .take(rows.len())
        .map(|l| l.trim().trim_end_matches(',').trim_end_matches(']').rsplit(',').next().unwrap().trim().parse().unwrap())
        .collect();
    let read: Vec<f64> = rows.iter().map(|r| r.gpu_ms_median.unwrap()).collect();
    assert_eq!(read.len(), written.len());
    for (r, w) in read.iter().zip(&written) {
        assert!((r - w).abs() <= 1e-12 * w.abs().max(1.0), "{r} vs {w}");
    }
}

#[test]
fn the_h100_append_report_parses_and_every_count_was_exact() {
    use syncscope::lessons::append::{input_value, LIMIT};
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

#[test]
fn the_h100_atomic_ops_report_covers_every_op_on_both_types_all_explained() {
    use syncscope::lessons::atomic_ops::measured::{parse_atomic_ops_report, H100_ATOMIC_OPS};
    use syncscope::lessons::atomic_ops::AtomicOp;
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

#[test]
fn the_h100_spinlock_report_kept_every_guaranteed_account() {
    use syncscope::lessons::spinlock::measured::{parse_spinlock_report, H100_SPINLOCK};
    let (adapter, rows) = parse_spinlock_report(H100_SPINLOCK).expect("data/h100-spinlock.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 6);
    for r in &rows {
        assert_eq!(r.consistent, r.runs, "{r:?}");
        assert!(r.entered.1 <= r.invocations && r.lost.1 <= r.entered.1, "{r:?}");
    }
}

#[test]
fn the_h100_barrier_report_has_no_stale_read_with_the_barrier() {
    use syncscope::lessons::barrier::measured::{parse_barrier_report, H100_BARRIER};
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
fn the_h100_reduction_report_summed_right_and_was_timed() {
    use syncscope::lessons::reduction::measured::{parse_reduction_report, H100_REDUCTION};
    let (adapter, rows) = parse_reduction_report(H100_REDUCTION).expect("data/h100-reduction.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 4);
    for r in &rows {
        assert_eq!(r.right, r.runs, "{r:?}");
        assert!(r.tree_ms.is_some_and(|ms| ms > 0.0) && r.atomic_ms.is_some_and(|ms| ms > 0.0), "{r:?}");
    }
    assert!(H100_REDUCTION.contains("\"trace_of_8_matches\": true"));
}

#[test]
fn the_h100_tiled_report_is_right_with_both_barriers() {
    use syncscope::lessons::tiled::measured::{parse_tiled_report, H100_TILED};
    let (adapter, rows) = parse_tiled_report(H100_TILED).expect("data/h100-tiled.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 15);
    for r in &rows {
        assert!(r.runs_wrong <= r.runs && r.wrong.0 <= r.wrong.1 && r.wrong.1 <= r.n * r.n, "{r:?}");
        if r.variant == "both" {
            assert_eq!(r.runs_wrong, 0, "{r:?}");
        }
    }
}

#[test]
fn the_h100_storage_report_saw_every_write_where_wgsl_promises_it() {
    use syncscope::lessons::barrier::measured::{parse_across_report, H100_ACROSS};
    use syncscope::lessons::barrier::Across;
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

#[test]
fn the_h100_histogram_report_is_exact_where_atomic_and_timed_everywhere() {
    use syncscope::lessons::histogram::measured::{parse_histogram_report, H100_HISTOGRAM};
    use syncscope::lessons::histogram::DISTINCT;
    let (adapter, rows) = parse_histogram_report(H100_HISTOGRAM).expect("data/h100-histogram.json parses");
    assert!(adapter.contains("H100"), "{adapter}");
    assert_eq!(rows.len(), 2 * DISTINCT.len() * 3);
    for r in &rows {
        assert!(DISTINCT.contains(&r.distinct), "{r:?}");
        assert!(r.ms.is_some_and(|ms| ms > 0.0), "{r:?}");
        if r.variant == "plain" {
            assert!(!r.exact && u64::from(r.lost) < u64::from(r.values) * u64::from(r.repeats), "{r:?}");
        } else {
            assert!(r.exact && r.lost == 0, "{r:?}");
        }
    }
}

#[test]
fn the_h100_message_passing_report_counts_every_instance_within_its_promises() {
    use syncscope::lessons::message_passing::measured::{parse_message_passing_report, H100_MESSAGE_PASSING};
    use syncscope::lessons::message_passing::{check, MessagePassingVariant, Outcome};
    use syncscope::site::settings::LessonVariant;
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

/// Every table-shaped data file, beside the schema its lesson reads it by.
fn files_and_schemas() -> Vec<(&'static str, &'static str, syncscope::data::measured::Schema)> {
    use syncscope::lessons::*;
    vec![
        ("h100-tickets.json", atomic_counter::measured::H100_TICKETS, atomic_counter::measured::SCHEMA),
        ("h100-append.json", append::measured::H100_APPEND, append::measured::SCHEMA),
        ("h100-cas-max.json", cas_max::measured::H100_CAS, cas_max::measured::SCHEMA),
        ("h100-atomic-ops.json", atomic_ops::measured::H100_ATOMIC_OPS, atomic_ops::measured::SCHEMA),
        ("h100-spinlock.json", spinlock::measured::H100_SPINLOCK, spinlock::measured::SCHEMA),
        ("h100-barrier.json", barrier::measured::H100_BARRIER, barrier::measured::SCHEMA),
        ("h100-across.json", barrier::measured::H100_ACROSS, barrier::measured::ACROSS_SCHEMA),
        ("h100-reduction.json", reduction::measured::H100_REDUCTION, reduction::measured::SCHEMA),
        ("h100-tiled.json", tiled::measured::H100_TILED, tiled::measured::SCHEMA),
        ("h100-histogram.json", histogram::measured::H100_HISTOGRAM, histogram::measured::SCHEMA),
        ("h100-message-passing.json", message_passing::measured::H100_MESSAGE_PASSING, message_passing::measured::SCHEMA),
        ("h100-litmus.json", litmus::measured::H100_LITMUS, litmus::measured::SCHEMA),
    ]
}

#[test]
fn every_data_file_has_exactly_its_schemas_columns_each_of_its_type() {
    use syncscope::data::measured::Table;
    for (file, text, schema) in files_and_schemas() {
        let table = Table::parse(text).unwrap_or_else(|| panic!("{file} has a table"));
        assert_eq!(table.conforms(schema), Ok(()), "{file}");
        assert!(table.rows.iter().all(|r| r.len() == schema.len()), "{file}");
    }
    // Every file in data/ is either one of those or the race report (read field by field).
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let mut on_disk: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).filter(|n| n.ends_with(".json")).collect();
    on_disk.sort();
    let mut known: Vec<String> = files_and_schemas().iter().map(|(f, _, _)| f.to_string()).collect();
    known.push("h100-race.json".into());
    known.sort();
    assert_eq!(on_disk, known);
}

#[test]
fn a_renamed_column_or_a_value_of_the_wrong_type_is_refused() {
    use syncscope::data::measured::Table;
    use syncscope::lessons::tiled::measured::{parse_tiled_report, H100_TILED, SCHEMA};
    let renamed = H100_TILED.replacen("\"wrong_min\"", "\"wrong_fewest\"", 1);
    let err = Table::parse(&renamed).unwrap().conforms(SCHEMA).unwrap_err();
    assert!(err.contains("wrong_min") && err.contains("wrong_fewest"), "{err}");
    assert_eq!(parse_tiled_report(&renamed), None);
    // A number where the variant's name belongs.
    let first_row = H100_TILED.lines().find(|l| l.trim_start().starts_with("[\"")).unwrap();
    let retyped = H100_TILED.replacen(first_row, &first_row.replacen("[\"both\"", "[7", 1), 1);
    assert_ne!(retyped, H100_TILED, "the first row names the variant 'both'");
    let err = Table::parse(&retyped).unwrap().conforms(SCHEMA).unwrap_err();
    assert!(err.contains("variant"), "{err}");
}

#[test]
fn columns_are_read_by_name_not_by_position() {
    // Swap two columns, names and cells together: the file means the same, and reads the same.
    use syncscope::lessons::tiled::measured::{parse_tiled_report, H100_TILED};
    let swap = |line: &str| -> String {
        let inner = line.trim().trim_end_matches(',');
        let inner = &inner[1..inner.len() - 1];
        let mut cells: Vec<&str> = inner.split(", ").collect();
        cells.swap(1, 2);
        format!("[{}]{}", cells.join(", "), if line.trim_end().ends_with(',') { "," } else { "" })
    };
    let swapped: String = H100_TILED
        .lines()
        .map(|l| {
            let t = l.trim_start();
            if let Some(columns) = t.strip_prefix("\"columns\": ") {
                format!("  \"columns\": {},", swap(columns).trim_end_matches(','))
            } else if t.starts_with('[') {
                format!("    {}", swap(t))
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(swapped.contains("\"columns\": [\"variant\", \"tile\", \"n\""), "{swapped}");
    assert_eq!(parse_tiled_report(&swapped), parse_tiled_report(H100_TILED));
    assert!(parse_tiled_report(H100_TILED).is_some());
}
