// Parallel append: each invocation looks at its input, and only those that pass the filter
// claim an output slot. atomicAdd hands out slots 0, 1, 2, … so no two invocations write the
// same one, and `count` ends at exactly the number kept. The order of the output is the order
// the GPU served the claims, which nothing fixes.

struct Params {
    invocations: u32,
}

// A value is kept when it is below this (the lesson's Rust code uses the same number).
const LIMIT: u32 = 50u;

@group(0) @binding(0) var<storage, read_write> count: atomic<u32>;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read_write> output: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= params.invocations {
        return;
    }
    let value = input[id.x]; // step: load
    if !(value < LIMIT) { return; } // step: filter
    let slot = atomicAdd(&count, 1u); // step: claim
    output[slot] = value; // step: write
}

// playground: workgroup_size=8 input=random:2
