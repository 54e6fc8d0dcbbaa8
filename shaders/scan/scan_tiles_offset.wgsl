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

fn load_tile(i: u32, full: bool) -> vec4<u32> {
    if full {
        return input[i];
    }
    return load(i);
}

fn store(i: u32, v: vec4<u32>) {
    if i < params.vecs {
        output[i] = v;
    }
}

fn scan_row(v: vec4<u32>, running: ptr<function, u32>, size: u32) -> vec4<u32> {
    let within = vec4(v.x, v.x + v.y, v.x + v.y + v.z, v.x + v.y + v.z + v.w);
    let through = subgroupInclusiveAdd(within.w);
    let scanned = within + vec4(*running + through - within.w);
    *running += subgroupShuffle(through, size - 1u);
    return scanned;
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
    var v0 = load_tile(index(tile, slot, size, 0u, lane), full);
    var v1 = load_tile(index(tile, slot, size, 1u, lane), full);
    var v2 = load_tile(index(tile, slot, size, 2u, lane), full);
    var v3 = load_tile(index(tile, slot, size, 3u, lane), full);
    var v4 = load_tile(index(tile, slot, size, 4u, lane), full);
    var v5 = load_tile(index(tile, slot, size, 5u, lane), full);
    var v6 = load_tile(index(tile, slot, size, 6u, lane), full);
    var v7 = load_tile(index(tile, slot, size, 7u, lane), full);
    var running = 0u;
    v0 = scan_row(v0, &running, size);
    v1 = scan_row(v1, &running, size);
    v2 = scan_row(v2, &running, size);
    v3 = scan_row(v3, &running, size);
    v4 = scan_row(v4, &running, size);
    v5 = scan_row(v5, &running, size);
    v6 = scan_row(v6, &running, size);
    v7 = scan_row(v7, &running, size);
    if lane == 0u {
        subgroup_sums[slot] = running;
    }
    workgroupBarrier();
    var earlier = tile_sums[tile];
    for (var s = 0u; s < workgroup_size / size; s++) {
        earlier += select(0u, subgroup_sums[s], s < slot);
    }
    let before = vec4(earlier);
    store(index(tile, slot, size, 0u, lane), v0 + before);
    store(index(tile, slot, size, 1u, lane), v1 + before);
    store(index(tile, slot, size, 2u, lane), v2 + before);
    store(index(tile, slot, size, 3u, lane), v3 + before);
    store(index(tile, slot, size, 4u, lane), v4 + before);
    store(index(tile, slot, size, 5u, lane), v5 + before);
    store(index(tile, slot, size, 6u, lane), v6 + before);
    store(index(tile, slot, size, 7u, lane), v7 + before);
}

// playground: workgroups=2 workgroup_size=32 elements=512 params=512,2 input=index tile_sums=0,523776
