// The third way, and the one vendor guides recommend: each workgroup sums its slice in
// workgroup memory by halving strides, as the tree does, and then adds its one partial sum
// to the total with a single atomicAdd. One dispatch instead of one per level, and one atomic
// per workgroup instead of one per value.

struct Params {
    count: u32,
}

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> total: atomic<u32>;
@group(0) @binding(2) var<uniform> params: Params;

const MAX_WIDTH: u32 = 1024u;
var<workgroup> cells: array<u32, MAX_WIDTH>;

override workgroup_size: u32 = 256u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) id: u32) {
    // Lanes past the end add nothing, but still reach every barrier.
    cells[id] = select(0u, input[min(gid.x, params.count - 1u)], gid.x < params.count);
    workgroupBarrier();
    for (var stride = workgroup_size / 2u; stride > 0u; stride = stride / 2u) {
        if id < stride {
            cells[id] = cells[id] + cells[id + stride];
        }
        workgroupBarrier();
    }
    if id == 0u {
        atomicAdd(&total, cells[0]);
    }
}

// playground: workgroups=2 workgroup_size=8 params=16 input=3,1,4,1,5,9,2,6,5,3,5,8,9,7,9,3
