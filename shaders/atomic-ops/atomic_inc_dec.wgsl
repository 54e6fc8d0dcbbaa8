// CUDA's atomicInc and atomicDec, which WGSL does not have, built from a compare-exchange loop.
// atomicInc(&cell, limit) stores old + 1, or 0 once old has reached the limit: a counter that
// wraps around after `limit`. atomicDec(&cell, limit) stores old - 1, or the limit once old is 0
// (or past the limit). Both return the old value, as every WGSL atomic does.
//
// Every invocation applies the same step to the cell, so whatever the order, the old values
// returned are the first `invocations` values of the cell's walk, each once: the page checks that.

struct Params {
    invocations: u32,
    // 0: increment, 1: decrement.
    decrement: u32,
    limit: u32,
}

// No loop on a GPU may spin for ever: after this many failed tries an invocation gives up and
// counts itself in `gave_up`, which the page reports.
const MAX_TRIES: u32 = 1048576u;

@group(0) @binding(0) var<storage, read_write> cell: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> olds: array<u32>;
@group(0) @binding(2) var<storage, read_write> gave_up: atomic<u32>;
@group(0) @binding(3) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

fn increment(old: u32, limit: u32) -> u32 {
    return select(old + 1u, 0u, old >= limit);
}

fn decrement(old: u32, limit: u32) -> u32 {
    return select(old - 1u, limit, old == 0u || old > limit);
}

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= params.invocations {
        return;
    }
    var old = atomicLoad(&cell);
    for (var tries = 0u; tries < MAX_TRIES; tries++) {
        let next = select(increment(old, params.limit), decrement(old, params.limit), params.decrement == 1u);
        let r = atomicCompareExchangeWeak(&cell, old, next);
        if r.exchanged {
            olds[id.x] = old;
            return;
        }
        old = r.old_value;
    }
    atomicAdd(&gave_up, 1u);
}

// playground: workgroup_size=8 params=8,0,3
