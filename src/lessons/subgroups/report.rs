//! Runs the subgroups lesson on this machine's GPU (native wgpu over Vulkan) and prints, as
//! JSON: the subgroup size the kernels read back, whether `subgroupAdd` and the butterfly were
//! exact, what the divergent `subgroupAdd` summed, how many neighbour reads without a barrier
//! were stale (same subgroup, next subgroup), the two compactions' times and atomics, and the
//! three reductions' times and wrong workgroups.
//!
//! ```sh
//! cargo run --release --example report -- subgroups > data/<gpu>-subgroups.json
//! ```

use super::measured::SubgroupColumns;
use crate::data::measured::names;
use crate::data::report::count;
use crate::data::Json;
use crate::gpu::params::GpuParams;
use crate::lessons::subgroups::gpu::run_subgroups;
use crate::lessons::subgroups::{check, SubgroupsRun};

const RUNS: usize = 5;
const REPEATS: u32 = 20;

/// `(invocations, workgroup)`: small enough to stay in cache, then sizes that do not.
pub const SIZES: [(u32, u32); 5] = [(1 << 16, 64), (1 << 16, 256), (1 << 20, 256), (1 << 22, 256), (1 << 22, 1024)];

/// The ways of a report, in the order each size's rows come.
pub const WAYS: [&str; 10] = [
    "subgroup-add",
    "butterfly",
    "divergent",
    "neighbour-same-subgroup",
    "neighbour-next-subgroup",
    "compaction-ballot",
    "compaction-per-value",
    "reduce-tree",
    "reduce-subgroup-add",
    "reduce-last-warp-no-barrier",
];

fn median(mut v: Vec<f64>) -> Option<f64> {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied()
}

/// Runs the report and prints it to standard output.
pub fn main() {
    let ctx = crate::data::report::gpu_or_exit();
    if ctx.adapter.subgroups.is_none() {
        eprintln!("{} has no subgroups: nothing to report", ctx.adapter.name);
        std::process::exit(1);
    }
    let mut rows = Vec::new();
    for (n, w) in SIZES {
        let params = GpuParams { invocations: n, workgroup_size: w };
        pollster::block_on(run_subgroups(&ctx, params, REPEATS)).expect("warm-up");
        let runs: Vec<SubgroupsRun> = (0..RUNS).map(|_| pollster::block_on(run_subgroups(&ctx, params, REPEATS)).expect("run")).collect();
        for r in &runs {
            assert!(check(r, params).promise_held && check(r, params).consistent, "{n}/{w}: {r:?}");
        }
        let size = runs[0].layout.sizes.first().copied().unwrap_or(0);
        let per_ms = |ns: Option<f64>| ns.map(|ns| ns / 1e6 / f64::from(REPEATS));
        let row = |way: &str, wrong: Vec<u32>, stale: Vec<u32>, atomics: Option<f64>, gpu: Vec<Option<f64>>| {
            SubgroupColumns {
                way: way.to_owned(),
                invocations: n,
                workgroup_size: w,
                subgroup_size: size,
                runs: count(RUNS),
                runs_exact: count(wrong.iter().filter(|&&x| x == 0).count()),
                wrong_min: wrong.iter().copied().min().unwrap_or(0),
                wrong_max: wrong.iter().copied().max().unwrap_or(0),
                stale_min: stale.iter().copied().min().unwrap_or(0),
                stale_max: stale.iter().copied().max().unwrap_or(0),
                atomics,
                gpu_ms_median: median(gpu.into_iter().flatten().collect()),
            }
            .to_json()
        };
        let none = || vec![0u32; RUNS];
        rows.push(row(WAYS[0], runs.iter().map(|r| r.add.wrong).collect(), none(), None, vec![]));
        rows.push(row(WAYS[1], runs.iter().map(|r| r.butterfly.wrong).collect(), none(), None, vec![]));
        rows.push(row(WAYS[2], runs.iter().map(|r| r.divergent.active - r.divergent.whole).collect(), none(), None, vec![]));
        for k in 0..2 {
            rows.push(row(WAYS[3 + k], none(), runs.iter().map(|r| r.neighbours[k].stale).collect(), None, vec![]));
        }
        for k in 0..2 {
            let wrong = runs.iter().map(|r| u32::from(!r.compactions[k].same_values)).collect();
            let atomics = Some(f64::from(runs[0].compactions[k].atomics));
            rows.push(row(WAYS[5 + k], wrong, none(), atomics, runs.iter().map(|r| per_ms(r.compactions[k].gpu_ns)).collect()));
        }
        for k in 0..3 {
            rows.push(row(WAYS[7 + k], runs.iter().map(|r| r.reductions[k].wrong).collect(), none(), None, runs.iter().map(|r| per_ms(r.reductions[k].gpu_ns)).collect()));
        }
    }
    crate::data::report::print_report(
        "subgroups/report",
        &ctx,
        &names(SubgroupColumns::SCHEMA),
        rows,
        vec![
            ("repeats_per_timed_pass", Json::from(REPEATS)),
            (
                "notes",
                Json::from("gpu_ms_median: one dispatch (the timed pass over its repeats). subgroup_size: as the kernels read it back. atomics: atomicAdds that reached the compaction's counter in one run."),
            ),
        ],
    );
}
