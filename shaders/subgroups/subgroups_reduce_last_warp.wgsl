// The older, unrolled "last warp needs no barrier": the tree with barriers while the
// stride is above 32, then the last six levels (32, 16 … 1) in the first 32 lanes with none, trusting that the 32 lanes of a
// warp run in lockstep. WGSL promises nothing of the kind (nor does CUDA since Volta), and a
// subgroup may be narrower than 32: a lane can read a cell its partner has not yet written,
// or has already added into. The page counts the workgroups whose sum came out wrong.
struct Params {
    count: u32,
}

const MAX_WIDTH: u32 = 1024u;
const WARP: u32 = 32u;
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
    var stride = workgroup_size / 2u;
    for (; stride > WARP; stride = stride / 2u) {
        if id < stride {
            cells[id] = cells[id] + cells[id + stride];
        }
        workgroupBarrier();
    }
    // No barrier from here on.
    if id < WARP {
        for (; stride > 0u; stride = stride / 2u) {
            cells[id] = cells[id] + cells[id + stride];
        }
    }
    workgroupBarrier();
    if id == 0u {
        sums[group.x] = cells[0];
    }
}

// playground: workgroup_size=64 params=64 input=index
