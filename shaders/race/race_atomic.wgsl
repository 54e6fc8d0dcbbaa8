// The same increment as one indivisible read-modify-write: no update can be lost.

struct Params {
    invocations: u32,
}

@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
@group(0) @binding(1) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= params.invocations {
        return;
    }
    atomicAdd(&counter, 1u); // step: atomic-add
}

// playground: workgroup_size=4
