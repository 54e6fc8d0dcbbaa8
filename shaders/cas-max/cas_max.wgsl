// atomicMax for f32, which WGSL does not have. `best` holds the bits of an f32 in an
// atomic<u32>. Each invocation reads it, and while its own value is above the one it read,
// tries to swap its value in with atomicCompareExchangeWeak. A failed swap means another
// invocation got there first (or, being "weak", the swap failed for no reason): it takes the
// value that was there and tries again. Every failed try is counted.

struct Params {
    invocations: u32,
}

// No loop on a GPU may be allowed to spin for ever: after this many failed tries an
// invocation gives up and counts itself in `gave_up`. A real failure means `best` changed,
// and it changes at most once per invocation, so only weak failures could take an
// invocation past the number of invocations; the page reports any give-up.
const MAX_TRIES: u32 = 1048576u;

@group(0) @binding(0) var<storage, read_write> best: atomic<u32>;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read_write> retries: array<u32>;
@group(0) @binding(3) var<storage, read_write> gave_up: atomic<u32>;
@group(0) @binding(4) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

// x is a NaN: all exponent bits set and a fraction. Read from the bits, with integer operations:
// WGSL lets a compiler assume no NaN reaches a float operation, so a float comparison with one
// may give anything.
fn is_nan(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u;
}

// a is above b: greater, or +0.0 over -0.0, which compare equal as floats.
fn above(a: f32, b: f32) -> bool {
    return a > b || (a == b && bitcast<u32>(a) == 0u && bitcast<u32>(b) == 0x80000000u);
}

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= params.invocations {
        return;
    }
    let value = input[id.x]; // step: load-value
    var old = atomicLoad(&best); // step: load-old
    var tries = 0u;
    // A NaN takes no part, as CUDA's fmaxf leaves one out: the maximum of the other inputs.
    if is_nan(value) { retries[id.x] = 0u; return; } // step: nan
    loop {
        if !above(value, bitcast<f32>(old)) { break; } // step: test
        let r = atomicCompareExchangeWeak(&best, old, bitcast<u32>(value)); old = r.old_value; // step: cas
        if r.exchanged { break; } // step: exchanged
        tries = tries + 1u; // step: retry
        if tries == MAX_TRIES {
            atomicAdd(&gave_up, 1u);
            break;
        }
        continue; // step: continue
    }
    retries[id.x] = tries; // step: record
}

// playground: workgroup_size=4 best=4286578688 input=1069547520,3221225472,1077936128,1075838976
