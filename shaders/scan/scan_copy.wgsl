// Reads every element once and writes it once: the least memory traffic a scan can have, so
// its time is the bound a scan's time is set against on the same GPU.

struct Params {
    count: u32,
}

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;

override workgroup_size: u32 = 256u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x < params.count {
        output[gid.x] = input[gid.x];
    }
}
