// Reads every element once and writes it once: the least memory traffic a scan can have, so
// its time is the bound a scan's time is set against on the same GPU. As the single-pass scan
// reads its tiles: vec4 loads, four per invocation, neighbours reading neighbouring vec4s.

struct Params {
    // Length in vec4s (the values, padded with zeros to a multiple of 4).
    vecs: u32,
}

@group(0) @binding(0) var<storage, read> input: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4<u32>>;
@group(0) @binding(2) var<uniform> params: Params;

override workgroup_size: u32 = 256u;
const VECS_PER_INVOCATION: u32 = 4u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) id: u32) {
    let first = group.x * workgroup_size * VECS_PER_INVOCATION + id;
    for (var k = 0u; k < VECS_PER_INVOCATION; k++) {
        let i = first + k * workgroup_size;
        if i < params.vecs {
            output[i] = input[i];
        }
    }
}
