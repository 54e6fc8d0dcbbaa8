// A 256-bin histogram with a plain `+=` on the bins: a load, an add and a store. Two
// invocations that count into one bin at once can both load the same count, and one of the
// two increments is lost. Each invocation counts PER_INVOCATION values, `stride` apart.

struct Params {
    n: u32,
    stride: u32,
}

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> bins: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;

const PER_INVOCATION: u32 = 16u;

override workgroup_size: u32 = 256u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    for (var k = 0u; k < PER_INVOCATION; k++) {
        let i = gid.x + k * params.stride;
        if i < params.n {
            let bin = input[i]; // step: load
            bins[bin] = bins[bin] + 1u; // step: count
        }
    }
}

// playground: workgroups=2 workgroup_size=4 params=8,8 input=0,1,0,2,0,1,0,2
