//! The real-GPU figures in data/: every file read by its lesson's schema (each lesson's own
//! checks of what its figures say are in its folder's tests).

/// Every table-shaped data file, beside the schema its lesson reads it by.
fn files_and_schemas() -> Vec<(&'static str, &'static str, syncscope::data::measured::Schema)> {
    use syncscope::lessons::{LESSONS, REFERENCE};
    let files = LESSONS.iter().chain(REFERENCE).flat_map(|l| l.measured);
    files.filter_map(|m| Some((m.file, m.text, m.schema?))).collect()
}

#[test]
fn every_data_file_has_exactly_its_schemas_columns_each_of_its_type() {
    use syncscope::data::measured::Table;
    for (file, text, schema) in files_and_schemas() {
        let table = Table::parse(text).unwrap_or_else(|| panic!("data/{file} has no table (adapter, columns and rows)"));
        if let Err(why) = table.conforms(schema) {
            panic!("data/{file}: {why}");
        }
        assert!(table.rows.iter().all(|r| r.len() == schema.len()), "{file}");
    }
    // Every file in data/ is a lesson's, and every lesson's file is in data/.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let mut on_disk: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).filter(|n| n.ends_with(".json")).collect();
    on_disk.sort();
    let mut known: Vec<String> =
        syncscope::lessons::LESSONS.iter().chain(syncscope::lessons::REFERENCE).flat_map(|l| l.measured).map(|m| m.file.to_owned()).collect();
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

/// A row written through its columns (as a report runner writes it) reads back as the same row:
/// every field by its name, every decimal with every digit it had.
#[test]
fn a_row_written_by_its_columns_reads_back_the_same_with_full_precision() {
    use syncscope::data::measured::Table;
    use syncscope::data::report::report_text;
    use syncscope::data::Json;
    use syncscope::lessons::atomic_counter::measured::TicketColumns;
    let rows = [Some(0.1 + 0.2), Some(1.0 / 3.0), Some(123_456.789_012_345), None].map(|gpu_ms_median| TicketColumns {
        invocations: 4096,
        workgroup_size: 64,
        runs: 10,
        runs_with_exact_permutation: 10,
        workgroups_served_whole_min: 3,
        workgroups_served_whole_max: 64,
        workgroups: 64,
        neighbours_in_lane_order_min: 0,
        neighbours_in_lane_order_max: 4032,
        neighbour_pairs: 4032,
        gpu_ms_median,
    });
    let columns: Vec<&str> = TicketColumns::SCHEMA.iter().map(|(name, _)| *name).collect();
    let text = report_text("test", Json::object([("name", Json::from("Test GPU"))]), &columns, rows.iter().map(TicketColumns::to_json).collect(), vec![]);
    assert!(text.contains("0.30000000000000004"), "{text}");
    let table = Table::parse(&text).unwrap();
    assert_eq!(table.conforms(TicketColumns::SCHEMA), Ok(()));
    let read: Vec<TicketColumns> = table.rows().map(|r| TicketColumns::read(&r).unwrap()).collect();
    assert_eq!(read, rows);
}

/// A file whose column is missing, renamed or of the wrong type fails, naming the column.
#[test]
fn a_missing_field_is_named() {
    use syncscope::data::measured::Table;
    use syncscope::lessons::atomic_counter::measured::{TicketColumns, H100_TICKETS};
    let without = H100_TICKETS.replacen("\"gpu_ms_median\"", "\"gpu_ms\"", 1);
    let err = Table::parse(&without).unwrap().conforms(TicketColumns::SCHEMA).unwrap_err();
    assert!(err.contains("\"gpu_ms_median\"") && err.contains("\"gpu_ms\""), "{err}");
}
