// Reads every element once and writes it once: the least memory traffic a scan can have, so
// its time is the bound a scan's time is set against on the same GPU. Vec4 loads, two per
// invocation, both issued before the first store, neighbours reading neighbouring vec4s: of
// the shapes tried on an H100 (one to eight vec4s an invocation) among the fastest.

struct Params {
    // Length in vec4s (the values, padded with zeros to a multiple of 4).
    vecs: u32,
}

@group(0) @binding(0) var<storage, read> input: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4<u32>>;
@group(0) @binding(2) var<uniform> params: Params;

override workgroup_size: u32 = 256u;
const VECS_PER_INVOCATION: u32 = 2u;

// Workgroups in rows, as many a row as the dispatch has: more than one dimension holds.
@compute @workgroup_size(workgroup_size)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) id: u32) {
    let first = (group.y * groups.x + group.x) * workgroup_size * VECS_PER_INVOCATION + id;
    var held: array<vec4<u32>, VECS_PER_INVOCATION>;
    for (var k = 0u; k < VECS_PER_INVOCATION; k++) {
        held[k] = input[min(first + k * workgroup_size, params.vecs - 1u)];
    }
    for (var k = 0u; k < VECS_PER_INVOCATION; k++) {
        let i = first + k * workgroup_size;
        if i < params.vecs {
            output[i] = held[k];
        }
    }
}

// playground: workgroups=2 workgroup_size=4 elements=16 params=16 input=index
