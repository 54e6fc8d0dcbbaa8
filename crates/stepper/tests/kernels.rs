//! Small kernels lowered and run: what each stepped construct computes, and what the findings say.
#![cfg(feature = "wgsl")]

use std::sync::Arc;
use stepper::lower::lower;
use stepper::run::{Finding, Halt, Run, Setup, Status};

fn setup(workgroups: u32, buffers: Vec<((u32, u32), Vec<u32>)>) -> Setup {
    Setup { workgroups, subgroup_size: 4, overrides: Vec::new(), buffers }
}

fn start(source: &str, setup: &Setup) -> Run {
    let program = lower(source).unwrap_or_else(|r| panic!("{r}"));
    Run::new(Arc::new(program), setup).unwrap_or_else(|e| panic!("{e}"))
}

/// A seeded order: the same seed, the same run.
fn random(seed: u64) -> impl FnMut(&[u32]) -> usize {
    let mut state = seed;
    move |ready: &[u32]| {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % ready.len() as u64) as usize
    }
}

fn serial(_: &[u32]) -> usize {
    0
}

/// Each ready invocation in turn: every load before any store, in a counter.
fn round_robin() -> impl FnMut(&[u32]) -> usize {
    let mut turn = 0usize;
    move |ready: &[u32]| {
        turn += 1;
        turn % ready.len()
    }
}

fn races(run: &Run) -> usize {
    run.findings.iter().filter(|f| matches!(f, Finding::Race { .. })).count()
}

const LOAD_ADD_STORE: &str = "
@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
@compute @workgroup_size(4)
fn main() {
    var value = atomicLoad(&counter);
    value = value + 1u;
    atomicStore(&counter, value);
}";

#[test]
fn a_lost_update_happens_in_some_orders_and_not_others() {
    let mut run = start(LOAD_ADD_STORE, &setup(1, vec![]));
    run.run_to_end(serial, 100).unwrap();
    assert_eq!(run.buffer(0, 0).unwrap(), [4]);
    let mut run = start(LOAD_ADD_STORE, &setup(1, vec![]));
    run.run_to_end(round_robin(), 100).unwrap();
    assert_eq!(run.buffer(0, 0).unwrap(), [1], "all four load 0 before anyone stores");
    // Atomic loads and stores never race, however they interleave: the update is lost all the
    // same, and no finding says so (a plain `u32` would be a race; see below).
    assert_eq!(races(&run), 0);
    for seed in 0..50 {
        let mut run = start(LOAD_ADD_STORE, &setup(2, vec![]));
        run.run_to_end(random(seed), 100).unwrap();
        let count = run.buffer(0, 0).unwrap()[0];
        assert!((1..=8).contains(&count), "{count}");
    }
}

#[test]
fn each_step_is_a_shared_access_and_rests_on_its_line() {
    let run = start(LOAD_ADD_STORE, &setup(1, vec![]));
    let program = &run.program;
    // Lines 5 (load) and 7 (store): the add on line 6 is private and folds into the store's step.
    assert_eq!(program.step_lines(), [5, 7]);
    for inv in &run.invocations {
        assert_eq!(program.instrs[inv.pc as usize].line, 5);
    }
}

#[test]
fn atomic_add_counts_every_invocation_in_every_order() {
    let source = "
@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> tickets: array<u32>;
@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    tickets[id.x] = atomicAdd(&counter, 1u);
}";
    for seed in 0..30 {
        let mut run = start(source, &setup(3, vec![((0, 1), vec![0; 24])]));
        run.run_to_end(random(seed), 1000).unwrap();
        assert_eq!(run.buffer(0, 0).unwrap(), [24]);
        let mut tickets = run.buffer(0, 1).unwrap().to_vec();
        tickets.sort_unstable();
        assert_eq!(tickets, (0..24).collect::<Vec<_>>());
        assert_eq!(run.findings, []);
    }
}

#[test]
fn a_plain_counter_is_a_race_whatever_the_order() {
    let source = "
@group(0) @binding(0) var<storage, read_write> counter: u32;
@compute @workgroup_size(2)
fn main() {
    counter = counter + 1u;
}";
    for pick in [serial as fn(&[u32]) -> usize, |r: &[u32]| r.len() - 1] {
        let mut run = start(source, &setup(1, vec![]));
        run.run_to_end(pick, 100).unwrap();
        let Some(Finding::Race { first, second, .. }) = run.findings.first() else { panic!("{:?}", run.findings) };
        assert_ne!(first.invocation, second.invocation);
        assert!(first.write || second.write);
        assert_eq!(run.program.instrs[first.pc as usize].line, 5);
    }
}

const TREE: &str = "
var<workgroup> cells: array<u32, 8>;
@group(0) @binding(0) var<storage, read_write> sums: array<u32>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) id: u32, @builtin(workgroup_id) group: vec3<u32>) {
    cells[id] = id + 1u + group.x * 8u;
    workgroupBarrier();
    for (var stride = 4u; stride > 0u; stride = stride / 2u) {
        if id < stride {
            cells[id] = cells[id] + cells[id + stride];
        }
        workgroupBarrier();
    }
    if id == 0u {
        sums[group.x] = cells[0];
    }
}";

#[test]
fn a_tree_sum_with_its_barriers_is_exact_and_race_free() {
    for seed in 0..30 {
        let mut run = start(TREE, &setup(2, vec![((0, 0), vec![0; 2])]));
        run.run_to_end(random(seed), 10_000).unwrap();
        assert_eq!(run.buffer(0, 0).unwrap(), [36, 100]);
        assert_eq!(run.findings, []);
        assert!(run.is_finished());
    }
}

#[test]
fn without_the_loops_barrier_the_tree_sum_races() {
    let source = TREE.replacen("        workgroupBarrier();\n    }", "    }", 1);
    assert_ne!(source, TREE);
    let mut run = start(&source, &setup(1, vec![((0, 0), vec![0; 1])]));
    run.run_to_end(serial, 10_000).unwrap();
    let lines: Vec<u32> = run
        .findings
        .iter()
        .filter_map(|f| match f {
            Finding::Race { first, second, .. } => Some(run.program.instrs[first.pc.max(second.pc) as usize].line),
            _ => None,
        })
        .collect();
    assert!(lines.contains(&10), "{:?}", run.findings);
}

#[test]
fn a_barrier_in_a_branch_not_all_take_is_found() {
    let source = "
var<workgroup> cell: u32;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) id: u32) {
    if id < 2u {
        workgroupBarrier();
    }
    if id == 0u { cell = 1u; }
}";
    let mut run = start(source, &setup(1, vec![]));
    run.run_to_end(serial, 100).unwrap();
    let Some(Finding::Divergence { pc, other_pc: None, .. }) = run.findings.first() else { panic!("{:?}", run.findings) };
    assert_eq!(run.program.instrs[*pc as usize].line, 6);
    assert!(run.is_finished());
}

#[test]
fn an_index_past_the_end_is_found_and_kept_inside() {
    let source = "
var<workgroup> cells: array<u32, 4>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) id: u32) {
    cells[id + 1u] = id;
    out[id] = 7u;
}";
    let mut run = start(source, &setup(1, vec![((0, 0), vec![0; 3])]));
    run.run_to_end(serial, 100).unwrap();
    let oob: Vec<_> = run.findings.iter().filter(|f| matches!(f, Finding::OutOfBounds { .. })).collect();
    assert_eq!(oob.len(), 2, "{:?}", run.findings);
    assert!(matches!(oob[0], Finding::OutOfBounds { index: 4, len: 4, .. }));
    assert!(matches!(oob[1], Finding::OutOfBounds { index: 3, len: 3, .. }));
}

#[test]
fn a_spin_on_a_flag_nobody_sets_ends_in_a_clear_halt() {
    let source = "
@group(0) @binding(0) var<storage, read_write> flag: atomic<u32>;
@compute @workgroup_size(2)
fn main() {
    while atomicLoad(&flag) == 0u {}
}";
    let mut run = start(source, &setup(1, vec![]));
    assert_eq!(run.run_to_end(serial, 500), Err(Halt::StepBudget(500)));
    let mut run = start(PRIVATE_SPIN, &setup(1, vec![]));
    run.run_to_end(serial, 10).unwrap();
    assert!(matches!(run.findings[..], [Finding::Spin { instructions: stepper::run::PRIVATE_BUDGET, .. }]), "{:?}", run.findings);
    assert_eq!(run.invocations[0].status, Status::Stopped);
}

/// A loop that touches no shared memory and ends only after 2^32 turns: a spin, as the
/// interpreter sees it.
const PRIVATE_SPIN: &str = "
@group(0) @binding(0) var<storage, read_write> out: u32;
@compute @workgroup_size(1)
fn main() {
    var i = 0u;
    loop { i = i + 1u; if i == 0u { break; } }
    out = i;
}";

#[test]
fn a_run_given_a_smaller_private_budget_stops_a_spin_there() {
    let program = Arc::new(lower(PRIVATE_SPIN).unwrap_or_else(|r| panic!("{r}")));
    let run = Run::with_private_budget(program, &setup(1, vec![]), 500).unwrap();
    assert!(matches!(run.findings[..], [Finding::Spin { instructions: 500, .. }]), "{:?}", run.findings);
    assert_eq!(run.invocations[0].status, Status::Stopped);
}

#[test]
fn storage_barriers_do_not_order_two_workgroups() {
    let source = "
@group(0) @binding(0) var<storage, read_write> cell: u32;
@group(0) @binding(1) var<storage, read_write> seen: array<u32>;
@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) group: vec3<u32>) {
    if group.x == 0u { cell = 1u; }
    storageBarrier();
    if group.x == 1u { seen[0] = cell; }
}";
    let mut run = start(source, &setup(2, vec![((0, 1), vec![0])]));
    run.run_to_end(serial, 100).unwrap();
    assert_eq!(races(&run), 1, "{:?}", run.findings);
    // Within one workgroup the same barrier orders them.
    let one = source
        .replace("@workgroup_size(1)", "@workgroup_size(2)")
        .replace("group.x == 0u", "id == 0u")
        .replace("group.x == 1u", "id == 1u")
        .replace("@builtin(workgroup_id) group: vec3<u32>", "@builtin(local_invocation_index) id: u32");
    let mut run = start(&one, &setup(1, vec![((0, 1), vec![0])]));
    run.run_to_end(serial, 100).unwrap();
    assert_eq!(run.findings, []);
    assert_eq!(run.buffer(0, 1).unwrap(), [1]);
}

#[test]
fn subgroup_operations_count_the_active_lanes_only() {
    let source = "
enable subgroups;
@group(0) @binding(0) var<storage, read_write> all: array<u32>;
@group(0) @binding(1) var<storage, read_write> some: array<u32>;
@group(0) @binding(2) var<storage, read_write> ballot: array<u32>;
@group(0) @binding(3) var<storage, read_write> scan: array<u32>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) id: u32, @builtin(subgroup_invocation_id) lane: u32) {
    all[id] = subgroupAdd(id);
    if lane != 1u {
        some[id] = subgroupAdd(1u);
    }
    ballot[id] = subgroupBallot(id % 2u == 0u).x;
    scan[id] = subgroupExclusiveAdd(lane) + subgroupShuffleXor(lane, 1u) * 100u;
}";
    let buffers: Vec<_> = (0..4).map(|b| ((0, b), vec![0; 8])).collect();
    for seed in 0..10 {
        let mut run = start(source, &setup(1, buffers.clone()));
        run.run_to_end(random(seed), 1000).unwrap();
        assert_eq!(run.buffer(0, 0).unwrap(), [6, 6, 6, 6, 22, 22, 22, 22]);
        assert_eq!(run.buffer(0, 1).unwrap(), [3, 0, 3, 3, 3, 0, 3, 3]);
        assert_eq!(run.buffer(0, 2).unwrap(), [0b0101; 8]);
        assert_eq!(run.buffer(0, 3).unwrap(), [100, 0, 301, 203, 100, 0, 301, 203]);
    }
}

#[test]
fn calls_pointers_switches_and_loops_compute_as_wgsl_says() {
    let source = "
struct Pair { a: u32, b: vec2<u32> }
@group(0) @binding(0) var<storage, read_write> out: array<Pair>;
const K: u32 = 3u;
override scale: u32 = 2u;
fn bump(p: ptr<function, u32>, by: u32) -> u32 {
    *p += by;
    return *p * 2u;
}
fn kind(x: u32) -> u32 {
    switch x % 3u {
        case 0u: { return 10u; }
        case 1u, 2u: { if x > 4u { return 20u; } }
        default: {}
    }
    return 30u;
}
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) id: u32) {
    var total = 0u;
    for (var i = 0u; i < 10u; i++) {
        if i % 2u == 0u { continue; }
        if i > 7u { break; }
        total += i;
    }
    var x = id;
    let twice = bump(&x, K);
    let f = f32(id) * 1.5;
    out[id] = Pair(total * scale, vec2(twice + kind(id + 3u), u32(f) + u32(select(-1i, 1i, id > 1u) + 5i)));
}";
    let mut s = setup(1, vec![((0, 0), vec![0; 16])]);
    s.overrides = vec![("scale".into(), 3)];
    let mut run = start(source, &s);
    run.run_to_end(serial, 1000).unwrap();
    // 1 + 3 + 5 + 7 = 16; the struct's vec2 sits at words 2 and 3 (align 8).
    let out = run.buffer(0, 0).unwrap();
    let expect = |id: u32| {
        let kind = match (id + 3) % 3 {
            0 => 10,
            _ if id + 3 > 4 => 20,
            _ => 30,
        };
        let f = (id as f32 * 1.5) as u32;
        [48, 0, (id + 3) * 2 + kind, f + if id > 1 { 6 } else { 4 }]
    };
    for id in 0..4 {
        assert_eq!(out[id as usize * 4..id as usize * 4 + 4], expect(id), "invocation {id}");
    }
}

#[test]
fn what_is_not_stepped_is_refused_with_its_place() {
    let texture = "
@group(0) @binding(0) var t: texture_2d<f32>;
@compute @workgroup_size(1)
fn main() {}";
    let r = lower(texture).unwrap_err();
    assert_eq!(r.line, 2, "{r}");
    assert!(r.reason.contains("storage, uniform, workgroup and private"), "{r}");
    let typo = "@compute @workgroup_size(1)\nfn main() {\n    let x = 1u +;\n}";
    let r = lower(typo).unwrap_err();
    assert_eq!(r.line, 3, "{r}");
    let none = "fn f() {}";
    assert_eq!(lower(none).unwrap_err().reason, "no @compute entry point");
    for junk in ["", "\u{0}\u{1}\u{2}", &"{".repeat(10_000)] {
        assert!(lower(junk).is_err());
    }
}
