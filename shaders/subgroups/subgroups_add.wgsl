// subgroupAdd: every invocation gets its subgroup's sum, with no workgroup memory and no
// barrier. Each also records its subgroup's size, its lane, and the first invocation's index,
// which names the subgroup: WGSL promises no layout, so the host groups by that name.
enable subgroups;

struct Params {
    count: u32,
}

struct Record {
    total: u32,
    size: u32,
    lane: u32,
    first: u32,
}

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> records: array<Record>;
@group(0) @binding(2) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(subgroup_size) size: u32,
        @builtin(subgroup_invocation_id) lane: u32) {
    // An invocation past the end adds 0 but still takes part: returning early would leave
    // the subgroupAdd below in non-uniform control flow.
    let i = gid.x;
    let inside = i < params.count;
    let value = select(0u, input[min(i, params.count - 1u)], inside); // step: load
    let total = subgroupAdd(value); // step: add
    let first = subgroupBroadcastFirst(i);
    if inside {
        records[i] = Record(total, size, lane, first); // step: store
    }
}

// playground: workgroups=2 workgroup_size=8 params=16 input=index
