//! A litmus test as WGSL: the kernel that runs many instances of it at once, and the kernel that
//! counts how each instance ended. Both are generated from the test, and the page shows them
//! exactly as they are compiled.
//!
//! The test kernel gives every instance its own `x`, `y` and `z`. Every invocation plays every
//! thread of the test, each for a different instance (as GPUHarbor's kernels do: the threads of
//! a test share the invocations rather than taking turns over them):
//! - **across**: thread `k` of an instance is played in the group of workgroups `k` ahead of
//!   thread 0's, so no two threads of an instance share a workgroup;
//! - **same**: the threads of an instance in one workgroup.
//!
//! Which instance a lane plays thread `k` of is permuted per thread, so partners sit at unrelated
//! lanes, and never the same instance twice. The stress that makes weak outcomes show:
//! workgroups start in a shuffled order (`shuffle`), the locations of one instance are far apart
//! and neighbouring instances' scattered, and each invocation waits, a bounded while, until the
//! partners of its thread-0 instance have started, so they overlap.
//!
//! Barriers stand at the top of the kernel, between phases: WGSL requires every invocation of a
//! workgroup to reach the same barrier. Each thread's statements between its barriers run in that
//! phase, on its own instance.

use crate::model::litmus::{AxisOf, LitmusTest, Op, Placement, Rmw, LOCATIONS};
use crate::model::Space;
use std::fmt::Write;

/// The largest workgroup the generated kernels are sized for (their workgroup memory).
pub const MAX_WORKGROUP: u32 = 256;

/// A buffer a generated kernel binds, in the order of its `@binding`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Buffer {
    /// `x`, `y` and `z` of every instance, in storage memory.
    Locations,
    /// Each instance's registers.
    Registers,
    /// One flag per thread of each instance: it has started.
    Arrived,
    /// The order workgroups play in.
    Shuffle,
    /// Workgroup memory's final values, copied out for the count.
    Finals,
    /// One counter per outcome, then one for anything no outcome lists.
    Counts,
    Params,
}

/// A kernel's source and what it binds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    pub source: String,
    pub bindings: Vec<Buffer>,
}

/// The two kernels of a test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernels {
    pub test: Generated,
    pub count: Generated,
    /// Outcomes the count kernel tells apart (its counters less the last, for anything else).
    pub outcomes: usize,
}

/// The uniform both kernels read, word by word.
pub const PARAMS: &str = "struct Params {
    instances: u32,  // instances per dispatch
    groups: u32,     // workgroups (thread k of an instance is played k groups ahead, across)
    lane_step: u32,  // permutes the lanes each thread takes (1 + 2 × k × lane_step is odd)
    loc_step: u32,   // coprime with the instances: scatters each location's region
    spin_limit: u32, // how long an invocation waits for its partners, at most
}
";

/// Generates both kernels of `test`, its instances `source_text` (shown in their heading).
pub fn kernels(test: &LitmusTest, source_text: &str, workgroup_size: u32) -> Kernels {
    let axes = test.axes();
    let finals: Vec<usize> = axes.iter().filter(|a| a.of == AxisOf::Final).map(|a| a.loc).collect();
    let outcomes = axes.iter().map(|a| a.values.len()).product();
    Kernels { test: test_kernel(test, source_text, workgroup_size, &finals), count: count_kernel(test, &finals, outcomes), outcomes }
}

fn heading(out: &mut String, test: &LitmusTest, source_text: &str, what: &str) {
    let placement = match test.placement {
        Placement::Across => "each thread of an instance in a workgroup of its own",
        Placement::Same => "the threads of an instance in one workgroup",
        Placement::Mixed => "the threads of an instance in workgroups as the test's labels place them",
    };
    let memory = match test.memory {
        Space::Storage => "x, y and z in a storage buffer",
        Space::Workgroup => "x, y and z in workgroup memory",
    };
    let _ = writeln!(out, "// {what}, generated from the litmus test:");
    for line in source_text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let _ = writeln!(out, "//   {line}");
    }
    let _ = writeln!(out, "// Placement: {placement}. Memory: {memory}. Every atomic is relaxed.\n");
}

fn binding(out: &mut String, bindings: &mut Vec<Buffer>, buffer: Buffer, declaration: &str) {
    let _ = writeln!(out, "@group(0) @binding({}) {declaration}", bindings.len());
    bindings.push(buffer);
}

/// `&mem[slot(1u, i0)]` or `&wmem[wslot(1u, j0)]`: where location `loc` lives for the instance
/// this invocation plays thread `k` of.
fn place(test: &LitmusTest, loc: usize, k: usize) -> String {
    match test.memory {
        Space::Storage => format!("&mem[slot({loc}u, i{k})]"),
        Space::Workgroup => format!("&wmem[wslot({loc}u, j{k})]"),
    }
}

fn statement(test: &LitmusTest, op: Op, k: usize) -> String {
    let reg = |r: usize| test.registers[r].clone();
    let at = |loc: usize| place(test, loc, k);
    match op {
        Op::Store { loc, value, .. } => format!("atomicStore({}, {value}u); // {} = {value}", at(loc), LOCATIONS[loc]),
        Op::Load { reg: r, loc, .. } => format!("{} = atomicLoad({});", reg(r), at(loc)),
        Op::Rmw { reg: r, loc, rmw, .. } => match rmw {
            Rmw::Add(v) => format!("{} = atomicAdd({}, {v}u);", reg(r), at(loc)),
            Rmw::Exchange(v) => format!("{} = atomicExchange({}, {v}u);", reg(r), at(loc)),
            Rmw::CompareExchange { expected, value } => {
                format!("{} = atomicCompareExchangeWeak({}, {expected}u, {value}u).old_value;", reg(r), at(loc))
            }
        },
        Op::Barrier(_) => String::new(),
        // WGSL has no fence: the lab runs such a test only as its nearest WGSL test, without.
        Op::Fence { .. } => String::new(),
    }
}

fn test_kernel(test: &LitmusTest, source_text: &str, workgroup_size: u32, finals: &[usize]) -> Generated {
    let threads = test.threads.len();
    let mut out = String::new();
    heading(&mut out, test, source_text, "The test, many instances at once");
    out.push_str(PARAMS);
    out.push('\n');
    let mut bindings = Vec::new();
    if test.memory == Space::Storage {
        binding(&mut out, &mut bindings, Buffer::Locations, "var<storage, read_write> mem: array<atomic<u32>>; // x of every instance, then y, then z");
    }
    if !test.registers.is_empty() {
        binding(&mut out, &mut bindings, Buffer::Registers, "var<storage, read_write> regs: array<u32>; // each instance's registers");
    }
    binding(&mut out, &mut bindings, Buffer::Arrived, "var<storage, read_write> arrived: array<atomic<u32>>; // per thread of each instance: started");
    binding(&mut out, &mut bindings, Buffer::Shuffle, "var<storage, read> shuffle: array<u32>; // the workgroup each one plays");
    if test.memory == Space::Workgroup && !finals.is_empty() {
        binding(&mut out, &mut bindings, Buffer::Finals, "var<storage, read_write> finals: array<u32>; // final values, copied out");
    }
    binding(&mut out, &mut bindings, Buffer::Params, "var<uniform> params: Params;");
    if test.memory == Space::Workgroup {
        let _ = writeln!(
            out,
            "var<workgroup> wmem: array<atomic<u32>, {}>; // x, y, z of this workgroup's instances",
            LOCATIONS.len() as u32 * workgroup_size.min(MAX_WORKGROUP)
        );
    }
    let _ = writeln!(out, "\noverride workgroup_size: u32 = {workgroup_size}u;");
    let _ = writeln!(out, "const THREADS: u32 = {threads}u;");
    let _ = writeln!(out, "const REGISTERS: u32 = {}u;", test.registers.len());
    out.push_str(
        "
// The lane of its workgroup's instances whose thread `k` this lane plays: a different
// permutation per thread, and never the same instance for two threads of one lane.
fn lane_for(lane: u32, k: u32) -> u32 {
    return (lane * (1u + 2u * k * params.lane_step) + k) % workgroup_size;
}
",
    );
    if test.memory == Space::Storage {
        out.push_str(
            "
// Location `loc` of instance `i`: x, y and z each in a region of its own, far apart, and
// neighbouring instances scattered across the region.
fn slot(loc: u32, i: u32) -> u32 {
    return loc * params.instances + (i * params.loc_step) % params.instances;
}
",
        );
    } else {
        out.push_str(
            "
// Location `loc` of this workgroup's instance `j`, scattered the same way.
fn wslot(loc: u32, j: u32) -> u32 {
    return loc * workgroup_size + (j * params.loc_step) % workgroup_size;
}
",
        );
    }
    out.push_str("\n@compute @workgroup_size(workgroup_size)\nfn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lane: u32) {\n");
    out.push_str("    let w = shuffle[wid.x];\n");
    match test.placement {
        Placement::Across => out.push_str(
            "    // Every invocation plays every thread of the test, each for a different instance: thread
    // k for instance ik, in the group of workgroups k ahead, so no two threads of an instance
    // share a workgroup.
",
        ),
        Placement::Same => out.push_str(
            "    // Every invocation plays every thread of the test, each for a different instance of its
    // own workgroup: thread k for instance ik, the workgroup's jk-th.
",
        ),
        Placement::Mixed => out.push_str(
            "    // Every invocation plays every thread of the test, each for a different instance: thread
    // k for instance ik, in the group of workgroups as far ahead as its workgroup's number in
    // the test, so threads the test places together share a workgroup and the others do not.
",
        ),
    }
    for k in 0..threads {
        match test.placement {
            Placement::Across => {
                let _ = writeln!(out, "    let i{k} = ((w + {k}u) % params.groups) * workgroup_size + lane_for(lane, {k}u);");
            }
            Placement::Same => {
                let _ = writeln!(out, "    let j{k} = lane_for(lane, {k}u);\n    let i{k} = w * workgroup_size + j{k};");
            }
            Placement::Mixed => {
                let g = test.groups[k];
                let _ = writeln!(out, "    let i{k} = ((w + {g}u) % params.groups) * workgroup_size + lane_for(lane, {k}u);");
            }
        }
    }
    for r in &test.registers {
        let _ = writeln!(out, "    var {r} = 0u;");
    }
    // The start flags also tell the count that every thread of every instance ran.
    out.push_str("\n    // Each thread played here has started");
    out.push_str(if threads > 1 { "; wait, a bounded while, until every thread of\n    // instance i0 has too.\n" } else { ".\n" });
    for k in 0..threads {
        let _ = writeln!(out, "    atomicStore(&arrived[i{k} * THREADS + {k}u], 1u);");
    }
    if threads > 1 {
        let all = (1..threads).map(|k| format!("atomicLoad(&arrived[i0 * THREADS + {k}u]) != 0u")).collect::<Vec<_>>().join(" && ");
        out.push_str("    for (var s = 0u; s < params.spin_limit; s++) {\n");
        let _ = writeln!(out, "        if {all} {{ break; }}");
        out.push_str("    }\n");
    }

    // Each thread's statements split at its barriers into phases.
    let phases: Vec<Vec<Vec<Op>>> = test.threads.iter().map(|ops| ops.split(|op| matches!(op, Op::Barrier(_))).map(<[Op]>::to_vec).collect()).collect();
    let phase_count = phases.iter().map(Vec::len).max().unwrap_or(1);
    for p in 0..phase_count {
        for (k, thread) in phases.iter().enumerate() {
            let Some(ops) = thread.get(p).filter(|ops| !ops.is_empty()) else { continue };
            let _ = writeln!(out, "\n    // T{k}, of instance i{k}");
            for op in ops {
                let _ = writeln!(out, "    {}", statement(test, *op, k));
            }
        }
        if p + 1 < phase_count {
            // The barrier every thread reaches here. In `same` placement it stands between the
            // phases of every instance of the workgroup; in `across`, between those of threads
            // whose partners are in other workgroups, where it orders nothing between them.
            let kinds: Vec<Space> =
                test.threads.iter().filter_map(|ops| ops.iter().filter_map(|op| if let Op::Barrier(s) = op { Some(*s) } else { None }).nth(p)).collect();
            out.push('\n');
            if kinds.contains(&Space::Workgroup) {
                out.push_str("    workgroupBarrier();\n");
            }
            if kinds.contains(&Space::Storage) {
                out.push_str("    storageBarrier();\n");
            }
        }
    }
    out.push('\n');
    for (k, ops) in test.threads.iter().enumerate() {
        for r in (0..test.registers.len()).filter(|&r| ops.iter().any(|op| matches!(op, Op::Load { reg, .. } | Op::Rmw { reg, .. } if *reg == r))) {
            let _ = writeln!(out, "    regs[i{k} * REGISTERS + {r}u] = {};", test.registers[r]);
        }
    }
    if test.memory == Space::Workgroup && !finals.is_empty() {
        out.push_str("\n    // Workgroup memory ends with the dispatch: copy the final values out once all are done.\n    workgroupBarrier();\n");
        for (f, &loc) in finals.iter().enumerate() {
            let _ = writeln!(out, "    finals[i0 * {}u + {f}u] = atomicLoad(&wmem[wslot({loc}u, j0)]); // {}", finals.len(), LOCATIONS[loc]);
        }
    }
    out.push_str("}\n");
    Generated { source: out, bindings }
}

fn count_kernel(test: &LitmusTest, finals: &[usize], outcomes: usize) -> Generated {
    let axes = test.axes();
    let mut out = String::new();
    heading(&mut out, test, "", "How each instance ended, counted");
    out.push_str(PARAMS);
    out.push('\n');
    let mut bindings = Vec::new();
    if !test.registers.is_empty() {
        binding(&mut out, &mut bindings, Buffer::Registers, "var<storage, read> regs: array<u32>;");
    }
    if !finals.is_empty() {
        match test.memory {
            Space::Storage => {
                binding(&mut out, &mut bindings, Buffer::Locations, "var<storage, read> mem: array<u32>; // the test's locations, as it left them")
            }
            Space::Workgroup => binding(&mut out, &mut bindings, Buffer::Finals, "var<storage, read> finals: array<u32>;"),
        }
    }
    binding(&mut out, &mut bindings, Buffer::Arrived, "var<storage, read> arrived: array<u32>; // every thread of each instance: it ran");
    binding(
        &mut out,
        &mut bindings,
        Buffer::Counts,
        &format!("var<storage, read_write> counts: array<atomic<u32>>; // {outcomes} outcomes, then anything else"),
    );
    binding(&mut out, &mut bindings, Buffer::Params, "var<uniform> params: Params;");
    let _ = writeln!(
        out,
        "\noverride workgroup_size: u32 = 64u;\nconst THREADS: u32 = {}u;\nconst REGISTERS: u32 = {}u;\nconst OUTCOMES: u32 = {outcomes}u;\nconst NONE: u32 = 0xffffffffu;",
        test.threads.len(),
        test.registers.len()
    );
    for (a, axis) in axes.iter().enumerate() {
        let name = match axis.of {
            AxisOf::Register(r) => test.registers[r].clone(),
            AxisOf::Final => format!("final {}", LOCATIONS[axis.loc]),
        };
        let _ = writeln!(out, "\n// {name}: which of its values it holds.\nfn axis{a}(v: u32) -> u32 {{\n    switch v {{");
        for (n, v) in axis.values.iter().enumerate() {
            let _ = writeln!(out, "        case {v}u: {{ return {n}u; }}");
        }
        out.push_str("        default: { return NONE; }\n    }\n}\n");
    }
    out.push_str("\n@compute @workgroup_size(workgroup_size)\nfn main(@builtin(global_invocation_id) id: vec3<u32>) {\n    let i = id.x;\n    if i >= params.instances { return; }\n");
    out.push_str("    // An instance some thread of which never ran is counted as nothing the test lists.\n    for (var k = 0u; k < THREADS; k++) {\n        if arrived[i * THREADS + k] == 0u {\n            atomicAdd(&counts[OUTCOMES], 1u);\n            return;\n        }\n    }\n");
    let mut f = 0;
    for (a, axis) in axes.iter().enumerate() {
        let read = match (axis.of, test.memory) {
            (AxisOf::Register(r), _) => format!("regs[i * REGISTERS + {r}u]"),
            (AxisOf::Final, Space::Storage) => format!("mem[{}u * params.instances + (i * params.loc_step) % params.instances]", axis.loc),
            (AxisOf::Final, Space::Workgroup) => {
                f += 1;
                format!("finals[i * {}u + {}u]", finals.len(), f - 1)
            }
        };
        let _ = writeln!(out, "    let a{a} = axis{a}({read});");
    }
    if axes.is_empty() {
        out.push_str("    atomicAdd(&counts[0], 1u);\n}\n");
        return Generated { source: out, bindings };
    }
    let any_none = (0..axes.len()).map(|a| format!("a{a} == NONE")).collect::<Vec<_>>().join(" || ");
    let _ = writeln!(out, "    if {any_none} {{\n        atomicAdd(&counts[OUTCOMES], 1u);\n        return;\n    }}");
    // Mixed radix, the last axis fastest, as the outcomes are listed.
    let mut index = String::from("a0");
    for (a, axis) in axes.iter().enumerate().skip(1) {
        index = format!("({index}) * {}u + a{a}", axis.values.len());
    }
    let _ = writeln!(out, "    atomicAdd(&counts[{index}], 1u);\n}}");
    Generated { source: out, bindings }
}
