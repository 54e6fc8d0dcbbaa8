//! The message-passing lesson (`src/lessons/message_passing/report.rs`): its figures from real GPUs (`data/h100-message-passing.json`), read by column name.

use crate::data::measured::{columns, Schema, Table};

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

columns! {
    /// One row of the message-passing report, as its file has it.
    pub struct MessagePassingColumns {
        pub variant: String,
        pub instances: u32,
        pub workgroup_size: u32,
        pub dispatches: u32,
        pub reader_first: u32,
        pub writer_first: u32,
        pub interleaved: u32,
        pub weak: u32,
        pub instances_per_s: f64,
    }
}

pub const SCHEMA: Schema = MessagePassingColumns::SCHEMA;

impl From<MessagePassingColumns> for MeasuredLitmus {
    fn from(c: MessagePassingColumns) -> MeasuredLitmus {
        MeasuredLitmus {
            variant: c.variant,
            instances: c.instances,
            workgroup_size: c.workgroup_size,
            dispatches: c.dispatches,
            counts: [c.reader_first, c.writer_first, c.interleaved, c.weak].map(u64::from),
            per_second: c.instances_per_s,
        }
    }
}

pub fn parse_message_passing_report(text: &str) -> Option<MeasuredMessagePassing> {
    let table = Table::parse(text)?;
    let rows = table.read(SCHEMA, |r| MessagePassingColumns::read(&r).map(MeasuredLitmus::from))?;

    Some(MeasuredMessagePassing {
        adapter: table.adapter,
        rows,
        many_instances: number(text, "throughput_many_instances")?,
        many_per_second: decimal(field(text, "throughput_many_per_second")?)?,
        smallest_per_second: decimal(field(text, "throughput_smallest_per_second")?)?,
    })
}
