// atomicAdd for f32, which WGSL does not have: the same compare-exchange loop as the maximum,
// with the sum in place of the test. `total` holds an f32's bits in an atomic<u32>; each
// invocation reads it, adds its value as floats, and tries to swap the sum in. A failed swap
// means another invocation's addition came first: it adds to the total that one left and tries
// again. Each invocation records the total its own addition replaced, so the page can check
// that the additions form one chain from 0.0 to the end, in the order the GPU served them.
//
// Float addition rounds, so the order matters: with 16,777,216.0 (2^24) and ones, a one added
// after the large value rounds away, and ones added before it count.

struct Params {
    invocations: u32,
}

// No loop on a GPU may spin for ever: after this many failed tries an invocation gives up and
// counts itself in `gave_up`; the page reports any give-up.
const MAX_TRIES: u32 = 1048576u;

@group(0) @binding(0) var<storage, read_write> total: atomic<u32>;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read_write> retries: array<u32>;
@group(0) @binding(3) var<storage, read_write> replaced: array<u32>;
@group(0) @binding(4) var<storage, read_write> gave_up: atomic<u32>;
@group(0) @binding(5) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= params.invocations {
        return;
    }
    let value = input[id.x]; // step: load-value
    var old = atomicLoad(&total); // step: load-old
    var tries = 0u;
    loop {
        let sum = bitcast<f32>(old) + value; // step: add
        let r = atomicCompareExchangeWeak(&total, old, bitcast<u32>(sum)); // step: cas
        if r.exchanged { break; } // step: exchanged
        old = r.old_value;
        tries = tries + 1u; // step: retry
        if tries == MAX_TRIES {
            atomicAdd(&gave_up, 1u);
            break;
        }
        continue; // step: continue
    }
    retries[id.x] = tries; // step: record
    replaced[id.x] = old;
}

// playground: workgroup_size=4 input=1266679808,1065353216,1065353216,1065353216
