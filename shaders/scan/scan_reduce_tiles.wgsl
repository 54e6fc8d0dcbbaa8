// The fair three-pass scan, pass 1 of 3: each workgroup sums its tile (8,192 values, the single
// pass's tile) and writes the sum to `tile_sums`. Built like the single pass: every vec4 load
// issued first, summed in registers, then across the subgroup and the workgroup.
//
// Reduce, then scan: this pass reads the array, pass 3 reads it again and writes it, so the
// array crosses memory three times against the single pass's two. What it buys: no workgroup
// ever waits on another inside a dispatch, so it needs no forward-progress reasoning at all.
enable subgroups;

struct Params {
    // Input length in vec4s (the values, padded with zeros to a multiple of 4).
    vecs: u32,
    tiles: u32,
}

const VECS_PER_INVOCATION: u32 = 8u;

@group(0) @binding(0) var<storage, read> input: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> tile_sums: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;

// Compiled with 256.
override workgroup_size: u32 = 256u;

var<workgroup> total: atomic<u32>;

fn load(i: u32) -> vec4<u32> {
    return select(vec4(0u), input[min(i, params.vecs - 1u)], i < params.vecs);
}

fn load_tile(i: u32, full: bool) -> vec4<u32> {
    if full {
        return input[i];
    }
    return load(i);
}

@compute @workgroup_size(workgroup_size)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) id: u32,
        @builtin(subgroup_invocation_id) lane: u32) {
    let tile = group.x;
    // A sum needs no order: neighbouring invocations read neighbouring vec4s, row by row.
    let first = tile * workgroup_size * VECS_PER_INVOCATION + id;
    let full = (tile + 1u) * workgroup_size * VECS_PER_INVOCATION <= params.vecs;
    let v0 = load_tile(first, full);
    let v1 = load_tile(first + workgroup_size, full);
    let v2 = load_tile(first + 2u * workgroup_size, full);
    let v3 = load_tile(first + 3u * workgroup_size, full);
    let v4 = load_tile(first + 4u * workgroup_size, full);
    let v5 = load_tile(first + 5u * workgroup_size, full);
    let v6 = load_tile(first + 6u * workgroup_size, full);
    let v7 = load_tile(first + 7u * workgroup_size, full);
    let s = (v0 + v1) + (v2 + v3) + (v4 + v5) + (v6 + v7);
    let part = subgroupAdd(s.x + s.y + s.z + s.w);
    if lane == 0u {
        atomicAdd(&total, part);
    }
    workgroupBarrier();
    if id == 0u {
        tile_sums[tile] = atomicLoad(&total);
    }
}

// playground: workgroups=2 workgroup_size=32 elements=512 params=512,2 input=index
