// A 256-bin histogram with bins private to each workgroup. The invocations count into
// workgroup memory with atomicAdd (contention stays inside the workgroup, in fast memory);
// after a barrier, each bin the workgroup touched is added to the storage buffer's bin with
// one atomicAdd: one per bin per workgroup instead of one per value.

struct Params {
    n: u32,
    stride: u32,
}

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>>;
@group(0) @binding(2) var<uniform> params: Params;

const PER_INVOCATION: u32 = 16u;
const BINS: u32 = 256u;
var<workgroup> local: array<atomic<u32>, BINS>;

override workgroup_size: u32 = 256u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lane: u32) {
    for (var k = 0u; k < PER_INVOCATION; k++) {
        let i = gid.x + k * params.stride;
        if i < params.n {
            let bin = input[i]; // step: load
            atomicAdd(&local[bin], 1u); // step: count
        }
    }
    workgroupBarrier(); // step: barrier
    for (var b = lane; b < BINS; b += workgroup_size) { // step: merge-loop
        let mine = atomicLoad(&local[b]); // step: merge-read
        if mine > 0u { atomicAdd(&bins[b], mine); } // step: merge-add
    }
}

// playground: workgroups=2 workgroup_size=4 params=8,8 input=0,1,0,2,0,1,0,2
