// subgroupAdd inside a branch on the value: only the lanes that took it are active there, so
// the sum covers the kept values alone (of the lanes the GPU runs together at that moment).
// The browser refuses a subgroup call in non-uniform control flow; this kernel switches that
// check off, on purpose, to show what the branch does.
enable subgroups;
diagnostic(off, subgroup_uniformity);

struct Params {
    count: u32,
}

struct Record {
    total: u32,
    size: u32,
    lane: u32,
    first: u32,
}

// A value is kept at or above this (the lesson's Rust code uses the same number).
const KEEP: u32 = 4u;

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> records: array<Record>;
@group(0) @binding(2) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(subgroup_size) size: u32,
        @builtin(subgroup_invocation_id) lane: u32) {
    let i = gid.x;
    let inside = i < params.count;
    let value = select(0u, input[min(i, params.count - 1u)], inside); // step: load
    let first = subgroupBroadcastFirst(i);
    var total = 0u; // step: zero
    if value >= KEEP { // step: if
        total = subgroupAdd(value); // step: add
    }
    if inside {
        records[i] = Record(total, size, lane, first); // step: store
    }
}

// playground: workgroups=2 workgroup_size=8 params=16 input=index
