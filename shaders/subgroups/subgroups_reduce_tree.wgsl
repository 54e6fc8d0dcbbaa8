// A workgroup's sum the way the barrier chapter builds it: halving strides in workgroup
// memory, a barrier after every level, then the workgroup's total
// written to its slot of `sums`. One of
// the lesson's three reductions, run and timed beside the other two on the same input.
struct Params {
    count: u32,
}

const MAX_WIDTH: u32 = 1024u;
var<workgroup> cells: array<u32, MAX_WIDTH>;

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;

override workgroup_size: u32 = 256u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) id: u32,
        @builtin(workgroup_id) group: vec3<u32>) {
    cells[id] = select(0u, input[min(gid.x, params.count - 1u)], gid.x < params.count);
    workgroupBarrier();
    for (var stride = workgroup_size / 2u; stride > 0u; stride = stride / 2u) {
        if id < stride {
            cells[id] = cells[id] + cells[id + stride];
        }
        workgroupBarrier();
    }
    if id == 0u {
        sums[group.x] = cells[0];
    }
}

// playground: workgroup_size=64 params=64 input=index
