//! The message-passing lesson (`src/lessons/message_passing/report.rs`): its figures from real GPUs (`data/h100-message-passing.json`), read by column name.

use crate::data::measured::{Cell, Schema, Table};

use crate::data::measured::{decimal, field, number};

/// One variant and size of the message-passing report (`src/lessons/message_passing/report.rs`).
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredLitmus {
    pub variant: String,
    pub instances: u32,
    pub workgroup_size: u32,
    pub dispatches: u32,
    /// Outcome counts read back from the kernel, in the order of `Outcome::ALL`: reader
    /// first, writer first, interleaved, weak.
    pub counts: [u64; 4],
    pub per_second: f64,
}

/// The report: its rows, and the throughput comparison run beside them.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasuredMessagePassing {
    pub adapter: String,
    pub rows: Vec<MeasuredLitmus>,
    pub many_instances: u32,
    pub many_per_second: f64,
    pub smallest_per_second: f64,
}

pub const H100_MESSAGE_PASSING: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/h100-message-passing.json"));

/// The columns the report writes and the page reads.
pub const SCHEMA: Schema = &[
    ("variant", Cell::Text),
    ("instances", Cell::Whole),
    ("workgroup_size", Cell::Whole),
    ("dispatches", Cell::Whole),
    ("reader_first", Cell::Whole),
    ("writer_first", Cell::Whole),
    ("interleaved", Cell::Whole),
    ("weak", Cell::Whole),
    ("instances_per_s", Cell::Decimal),
];

pub fn parse_message_passing_report(text: &str) -> Option<MeasuredMessagePassing> {
    let table = Table::parse(text)?;
    let rows = table.read(SCHEMA, |r| {
        Some(MeasuredLitmus {
            variant: r.text("variant")?.to_owned(),
            instances: r.whole("instances")?,
            workgroup_size: r.whole("workgroup_size")?,
            dispatches: r.whole("dispatches")?,
            counts: [r.whole("reader_first")?, r.whole("writer_first")?, r.whole("interleaved")?, r.whole("weak")?].map(u64::from),
            per_second: r.decimal("instances_per_s")?,
        })
    })?;
    Some(MeasuredMessagePassing {
        adapter: table.adapter,
        rows,
        many_instances: number(text, "throughput_many_instances")?,
        many_per_second: decimal(field(text, "throughput_many_per_second")?)?,
        smallest_per_second: decimal(field(text, "throughput_smallest_per_second")?)?,
    })
}
