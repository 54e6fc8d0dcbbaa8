// A workgroup's sum with subgroups: subgroupAdd in every subgroup, one slot per subgroup in
// workgroup memory, one barrier, then every subgroup adds up the slots (each lane a stride of
// them) and subgroupAdd again. One barrier in all, where the tree needs one per level.
//
// Slots are taken with an atomicAdd on a workgroup counter, so nothing assumes which
// invocations share a subgroup or how many subgroups there are; slots never taken stay 0
// (workgroup memory starts zeroed).
enable subgroups;

struct Params {
    count: u32,
}

const MAX_WIDTH: u32 = 1024u;
// At most one slot per 4 invocations (WGSL's smallest subgroup), plus room for the last
// stride of the widest subgroup, 128, to read past the end into zeros.
const SLOTS: u32 = MAX_WIDTH / 4u + 128u;
var<workgroup> slots: array<u32, SLOTS>;
var<workgroup> next_slot: atomic<u32>;

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;

override workgroup_size: u32 = 256u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) id: u32,
        @builtin(workgroup_id) group: vec3<u32>, @builtin(subgroup_size) size: u32, @builtin(subgroup_invocation_id) lane: u32) {
    let value = select(0u, input[min(gid.x, params.count - 1u)], gid.x < params.count);
    let mine = subgroupAdd(value);
    // The lowest active lane (subgroupElect(), which naga lacks) takes the slot.
    if lane == subgroupBroadcastFirst(lane) {
        slots[atomicAdd(&next_slot, 1u)] = mine;
    }
    workgroupBarrier();
    // The bounds are the same in every lane, so the subgroupAdd after the loop stays in
    // uniform control flow.
    var part = 0u;
    for (var base = 0u; base < (workgroup_size + 3u) / 4u; base += size) {
        part += slots[base + lane];
    }
    let all = subgroupAdd(part);
    if id == 0u {
        sums[group.x] = all;
    }
}

// playground: workgroup_size=64 params=64 input=index
