//! The barrier lesson's GPU panels as JSON: the neighbour exchange (what every invocation read,
//! and its arrival and departure tickets), and the storage-buffer demonstration (what every
//! invocation read, each way).

use crate::data::{adapter, Json};
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::barrier::{check, check_across, kernels, Across, BarrierRun, BarrierVariant};
use crate::site::settings::LessonVariant;

fn sizes(params: GpuParams) -> Json {
    Json::object([
        ("invocations", Json::from(params.invocations)),
        ("workgroup_size", Json::from(params.workgroup_size)),
        ("workgroups", Json::from(params.workgroups())),
    ])
}

pub fn run(gpu: &AdapterSummary, variant: BarrierVariant, params: GpuParams, run: &BarrierRun, wall_ms: f64) -> Json {
    let c = check(params, run);
    Json::object([
        ("syncscope", Json::from("barrier/run")),
        ("adapter", adapter(gpu)),
        ("variant", Json::from(variant.name())),
        ("kernel", Json::from(variant.kernel().file_name())),
        ("parameters", sizes(params)),
        ("right_reads", Json::from(c.right)),
        ("stale_reads", Json::from(c.stale)),
        ("impossible_reads", Json::from(c.impossible)),
        ("stale_within_four", Json::from(c.stale_within_four)),
        ("stale_across_four", Json::from(c.stale_across_four)),
        ("workgroups_all_arrived_before_any_left", Json::from(c.ordered_workgroups)),
        ("workgroups_with_each_ticket_once", Json::from(c.whole_ticket_workgroups)),
        ("got", Json::array(run.got.iter().copied())),
        ("arrival_tickets", Json::array(run.arrive.iter().copied())),
        ("departure_tickets", Json::array(run.depart.iter().copied())),
        ("wall_ms", Json::from(wall_ms)),
    ])
}

/// Each way in [`Across::ALL`]'s order, with what every invocation read.
pub fn across(gpu: &AdapterSummary, params: GpuParams, ways: &[(Across, Vec<u32>)], wall_ms: f64) -> Json {
    let each = ways.iter().map(|(how, got)| {
        let c = check_across(*how, params, got);
        Json::object([
            ("how", Json::from(how.name())),
            ("dispatches", Json::from(if *how == Across::NextWorkgroupTwoDispatches { 2u32 } else { 1 })),
            ("every_write_seen_promised", Json::from(how.guaranteed())),
            ("right_reads", Json::from(c.right)),
            ("stale_reads", Json::from(c.stale)),
            ("impossible_reads", Json::from(c.impossible)),
            ("got", Json::array(got.iter().copied())),
        ])
    });
    Json::object([
        ("syncscope", Json::from("barrier/across")),
        ("adapter", adapter(gpu)),
        ("kernel", Json::from(kernels::ACROSS_WORKGROUPS.file_name())),
        ("parameters", sizes(params)),
        ("ways", Json::Array(each.collect())),
        ("wall_ms", Json::from(wall_ms)),
    ])
}
