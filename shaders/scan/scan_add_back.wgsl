// A large scan's third dispatch: every element adds the running total of the tiles before its
// own, which the second dispatch left in `tile_sums`. Each dispatch sees everything the one
// before it wrote: the end of a dispatch is the barrier across workgroups that WGSL has.
//
// With `params.mode` 1 the scan was of keep-flags, so a kept value's sum is one past its place
// in the output: it is written there, and the kept values keep their input order.

struct Params {
    count: u32,
    mode: u32,
}

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@group(0) @binding(2) var<storage, read> tile_sums: array<u32>;
@group(0) @binding(3) var<storage, read_write> kept: array<u32>;
@group(0) @binding(4) var<uniform> params: Params;

const KEEP_BELOW: u32 = 50u;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(workgroup_id) group: vec3<u32>) {
    if gid.x >= params.count {
        return;
    }
    var sum = output[gid.x];
    if group.x > 0u {
        sum = sum + tile_sums[group.x - 1u];
    }
    output[gid.x] = sum;
    if params.mode == 1u {
        let v = input[gid.x];
        if v < KEEP_BELOW {
            kept[sum - 1u] = v;
        }
    }
}

// playground: workgroups=2 workgroup_size=4 params=8 input=3,1,4,1,5,9,2,6 output=3,4,8,9,5,14,16,22 tile_sums=9,31
