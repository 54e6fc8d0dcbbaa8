//! The message-passing lesson's GPU panels as JSON: each variant's four outcome counters as
//! the kernel left them, and the throughput comparison's two runs.

use crate::data::{adapter, Json};
use crate::gpu::params::GpuParams;
use crate::gpu::AdapterSummary;
use crate::lessons::message_passing::gpu::{LitmusRun, Throughput};
use crate::lessons::message_passing::{check, MessagePassingVariant, Outcome};
use crate::site::settings::LessonVariant;

fn outcome_key(o: Outcome) -> &'static str {
    match o {
        Outcome::ReaderFirst => "reader_first",
        Outcome::WriterFirst => "writer_first",
        Outcome::Interleaved => "interleaved",
        Outcome::Weak => "weak",
    }
}

/// One run: its layout, the counters as read back (`outcomes[2 × flag + data]`), the same by
/// name, and its wall clock.
fn litmus(variant: MessagePassingVariant, r: &LitmusRun) -> Vec<(&'static str, Json)> {
    let c = check(variant, &r.counts, r.instances());
    vec![
        (
            "layout",
            Json::object([
                ("workgroups", Json::from(r.layout.workgroups)),
                ("lanes", Json::from(r.layout.lanes)),
                ("lane_step", Json::from(r.layout.lane_step)),
                ("flag_step", Json::from(r.layout.flag_step)),
                ("instances_per_dispatch", Json::from(r.layout.instances())),
            ]),
        ),
        ("dispatches", Json::from(r.dispatches)),
        ("counters", Json::array(r.counts.iter().copied())),
        ("counts", Json::object(Outcome::ALL.iter().map(|o| (outcome_key(*o), Json::from(r.counts[o.slot()]))))),
        ("instances_counted", Json::from(c.total)),
        ("instances_expected", Json::from(c.expected_total)),
        ("forbidden", Json::from(c.forbidden)),
        ("promise_kept", Json::from(c.ok())),
        ("wall_ms", Json::from(r.wall_ms)),
        ("instances_per_second", Json::from(r.per_second())),
    ]
}

fn sizes(params: GpuParams) -> [(&'static str, Json); 3] {
    [("invocations", Json::from(params.invocations)), ("workgroup_size", Json::from(params.workgroup_size)), ("workgroups", Json::from(params.workgroups()))]
}

/// Every variant, in [`MessagePassingVariant::ALL`]'s order, with the seed of its shuffled
/// workgroup order; a variant that cannot pair invocations at these sizes says why.
pub fn runs(gpu: &AdapterSummary, params: GpuParams, dispatches: u32, runs: &[(MessagePassingVariant, u64, Result<LitmusRun, String>)]) -> Json {
    let each = runs.iter().map(|(v, seed, r)| {
        let mut pairs = vec![
            ("variant", Json::from(v.name())),
            ("kernel", Json::from(v.kernel().file_name())),
            ("weak_allowed", Json::from(v.allows(Outcome::Weak))),
            ("seed", Json::from(*seed)),
        ];
        match r {
            Ok(r) => pairs.extend(litmus(*v, r)),
            Err(why) => pairs.push(("not_run", Json::from(why.as_str()))),
        }
        Json::object(pairs)
    });
    let mut parameters = sizes(params).to_vec();
    parameters.push(("dispatches", Json::from(dispatches)));
    Json::object([
        ("syncscope", Json::from("message-passing/runs")),
        ("adapter", adapter(gpu)),
        ("parameters", Json::object(parameters)),
        ("variants", Json::Array(each.collect())),
    ])
}

pub fn throughput(gpu: &AdapterSummary, variant: MessagePassingVariant, params: GpuParams, t: &Throughput) -> Json {
    let mut parameters = sizes(params).to_vec();
    parameters.push(("dispatches", Json::from(t.many.dispatches)));
    parameters.push(("smallest_dispatches", Json::from(t.smallest.dispatches)));
    Json::object([
        ("syncscope", Json::from("message-passing/throughput")),
        ("adapter", adapter(gpu)),
        ("variant", Json::from(variant.name())),
        ("kernel", Json::from(variant.kernel().file_name())),
        ("parameters", Json::object(parameters)),
        ("many", Json::object(litmus(variant, &t.many))),
        ("smallest", Json::object(litmus(variant, &t.smallest))),
        ("ratio", Json::from(t.ratio())),
    ])
}
