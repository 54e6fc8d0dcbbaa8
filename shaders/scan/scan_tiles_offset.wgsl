// The fair three-pass scan, pass 3 of 3: each workgroup scans its tile as the single pass does
// (every vec4 load issued first, each subgroup scanning its run in registers) and adds the
// tile's exclusive prefix that pass 2 left in `tile_sums`. No look-back: the end of pass 2 is
// the barrier across workgroups, and every prefix is there before this pass starts.
enable subgroups;

struct Params {
    // Input length in vec4s (the values, padded with zeros to a multiple of 4).
    vecs: u32,
    tiles: u32,
}

const VECS_PER_INVOCATION: u32 = 8u;
// Slots for one value per subgroup: 256 invocations in subgroups of 4 or more.
const MAX_SUBGROUPS: u32 = 64u;

@group(0) @binding(0) var<storage, read> input: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> tile_sums: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;

// Compiled with 256.
override workgroup_size: u32 = 256u;

var<workgroup> slots_taken: atomic<u32>;
var<workgroup> subgroup_sums: array<u32, MAX_SUBGROUPS>;

// Vec4 `k` of this lane's run in `tile`, as the single pass reads them.
fn index(tile: u32, slot: u32, size: u32, k: u32, lane: u32) -> u32 {
    return tile * workgroup_size * VECS_PER_INVOCATION + slot * size * VECS_PER_INVOCATION + k * size + lane;
}

fn load(i: u32) -> vec4<u32> {
    return select(vec4(0u), input[min(i, params.vecs - 1u)], i < params.vecs);
}

fn store(i: u32, v: vec4<u32>) {
    if i < params.vecs {
        output[i] = v;
    }
}

// A vec4 scanned in the lane: its four values added up left to right.
fn within(v: vec4<u32>) -> vec4<u32> {
    return vec4(v.x, v.x + v.y, v.x + v.y + v.z, v.x + v.y + v.z + v.w);
}

@compute @workgroup_size(workgroup_size)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(subgroup_size) size: u32,
        @builtin(subgroup_invocation_id) lane: u32) {
    let tile = group.x;
    var taken = 0u;
    if lane == 0u {
        taken = atomicAdd(&slots_taken, 1u);
    }
    let slot = subgroupBroadcastFirst(taken);
    let full = (tile + 1u) * workgroup_size * VECS_PER_INVOCATION <= params.vecs;
    // Loaded (and stored) as the single pass does: one branch for all eight.
    var v0: vec4<u32>;
    var v1: vec4<u32>;
    var v2: vec4<u32>;
    var v3: vec4<u32>;
    var v4: vec4<u32>;
    var v5: vec4<u32>;
    var v6: vec4<u32>;
    var v7: vec4<u32>;
    if full {
        v0 = input[index(tile, slot, size, 0u, lane)];
        v1 = input[index(tile, slot, size, 1u, lane)];
        v2 = input[index(tile, slot, size, 2u, lane)];
        v3 = input[index(tile, slot, size, 3u, lane)];
        v4 = input[index(tile, slot, size, 4u, lane)];
        v5 = input[index(tile, slot, size, 5u, lane)];
        v6 = input[index(tile, slot, size, 6u, lane)];
        v7 = input[index(tile, slot, size, 7u, lane)];
    } else {
        v0 = load(index(tile, slot, size, 0u, lane));
        v1 = load(index(tile, slot, size, 1u, lane));
        v2 = load(index(tile, slot, size, 2u, lane));
        v3 = load(index(tile, slot, size, 3u, lane));
        v4 = load(index(tile, slot, size, 4u, lane));
        v5 = load(index(tile, slot, size, 5u, lane));
        v6 = load(index(tile, slot, size, 6u, lane));
        v7 = load(index(tile, slot, size, 7u, lane));
    }
    // The tile scanned as the single pass scans it: each vec4 in its lane, then four rows' lane
    // totals at a time across the subgroup.
    let w0 = within(v0);
    let w1 = within(v1);
    let w2 = within(v2);
    let w3 = within(v3);
    let w4 = within(v4);
    let w5 = within(v5);
    let w6 = within(v6);
    let w7 = within(v7);
    let through_low = subgroupInclusiveAdd(vec4(w0.w, w1.w, w2.w, w3.w));
    let through_high = subgroupInclusiveAdd(vec4(w4.w, w5.w, w6.w, w7.w));
    let rows_low = subgroupShuffle(through_low, size - 1u);
    let rows_high = subgroupShuffle(through_high, size - 1u);
    let before1 = rows_low.x;
    let before2 = before1 + rows_low.y;
    let before3 = before2 + rows_low.z;
    let before4 = before3 + rows_low.w;
    let before5 = before4 + rows_high.x;
    let before6 = before5 + rows_high.y;
    let before7 = before6 + rows_high.z;
    let running = before7 + rows_high.w;
    v0 = w0 + vec4(through_low.x - w0.w);
    v1 = w1 + vec4(before1 + through_low.y - w1.w);
    v2 = w2 + vec4(before2 + through_low.z - w2.w);
    v3 = w3 + vec4(before3 + through_low.w - w3.w);
    v4 = w4 + vec4(before4 + through_high.x - w4.w);
    v5 = w5 + vec4(before5 + through_high.y - w5.w);
    v6 = w6 + vec4(before6 + through_high.z - w6.w);
    v7 = w7 + vec4(before7 + through_high.w - w7.w);
    if lane == 0u {
        subgroup_sums[slot] = running;
    }
    workgroupBarrier();
    var earlier = tile_sums[tile];
    for (var s = 0u; s < workgroup_size / size; s++) {
        earlier += select(0u, subgroup_sums[s], s < slot);
    }
    let before = vec4(earlier);
    if full {
        output[index(tile, slot, size, 0u, lane)] = v0 + before;
        output[index(tile, slot, size, 1u, lane)] = v1 + before;
        output[index(tile, slot, size, 2u, lane)] = v2 + before;
        output[index(tile, slot, size, 3u, lane)] = v3 + before;
        output[index(tile, slot, size, 4u, lane)] = v4 + before;
        output[index(tile, slot, size, 5u, lane)] = v5 + before;
        output[index(tile, slot, size, 6u, lane)] = v6 + before;
        output[index(tile, slot, size, 7u, lane)] = v7 + before;
    } else {
        store(index(tile, slot, size, 0u, lane), v0 + before);
        store(index(tile, slot, size, 1u, lane), v1 + before);
        store(index(tile, slot, size, 2u, lane), v2 + before);
        store(index(tile, slot, size, 3u, lane), v3 + before);
        store(index(tile, slot, size, 4u, lane), v4 + before);
        store(index(tile, slot, size, 5u, lane), v5 + before);
        store(index(tile, slot, size, 6u, lane), v6 + before);
        store(index(tile, slot, size, 7u, lane), v7 + before);
    }
}

// playground: workgroups=2 workgroup_size=32 elements=512 params=512,2 input=index tile_sums=0,523776
