// A subgroup's sum by shuffles: each step every lane adds the value of the lane whose index
// differs from its own in one bit, half the subgroup away, then a quarter … then the next
// lane. After log2(size) steps every lane holds the sum, with no memory touched.
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
    let i = gid.x;
    let inside = i < params.count;
    var value = select(0u, input[min(i, params.count - 1u)], inside); // step: load
    // The mask is the same in every lane (the browser's compiler checks that it is uniform).
    for (var mask = size / 2u; mask > 0u; mask = mask / 2u) { // step: loop
        let other = subgroupShuffleXor(value, mask); // step: shuffle
        value = value + other; // step: add
    }
    let first = subgroupBroadcastFirst(i);
    if inside {
        records[i] = Record(value, size, lane, first); // step: store
    }
}

// playground: workgroup_size=64 params=64 input=index
