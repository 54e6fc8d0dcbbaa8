// The other way to sum: every invocation adds its value into one counter with atomicAdd.
// Correct, and simple; every add goes to the same address. A GPU may do them one at a time, or
// combine a warp's adds into one: the lesson times it.

struct Params {
    count: u32,
}

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> total: atomic<u32>;
@group(0) @binding(2) var<uniform> params: Params;

override workgroup_size: u32 = 256u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x < params.count {
        atomicAdd(&total, input[gid.x]);
    }
}

// playground: workgroups=2 workgroup_size=8 params=16 input=3,1,4,1,5,9,2,6,5,3,5,8,9,7,9,3
