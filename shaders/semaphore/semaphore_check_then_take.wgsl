// The semaphore as it is often first written, and wrong: read the count, and if a slot looks
// free, take one with atomicAdd(-1). The read and the take are two atomics, not one: between
// them other invocations may take the same slot, the count goes below zero, and more than
// params.limit invocations are inside at once. Everything else is as in
// semaphore_acquire.wgsl: the same counts, the same bound on tries.

struct Params {
    invocations: u32,
    limit: u32,
}

struct Stats {
    entered: atomic<u32>,
    gave_up: atomic<u32>,
    inside: atomic<i32>,
    peak: atomic<i32>,
    over: atomic<u32>,
}

const MAX_TRIES: u32 = 20000u;

@group(0) @binding(0) var<storage, read_write> count: atomic<i32>;
@group(0) @binding(1) var<storage, read_write> stats: Stats;
@group(0) @binding(2) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= params.invocations {
        return;
    }
    var tries = 0u;
    loop {
        let seen = atomicLoad(&count); // step: read
        if seen < 1 { continue; } // step: free
        let old = atomicAdd(&count, -1); // step: take
        var inside = atomicAdd(&stats.inside, 1); // step: enter
        inside = inside + 1; // step: one more
        atomicMax(&stats.peak, inside); // step: peak
        atomicAdd(&stats.entered, 1u);
        if inside > i32(params.limit) { atomicAdd(&stats.over, 1u); }
        atomicAdd(&stats.inside, -1); // step: leave
        atomicAdd(&count, 1); // step: release
        return; // step: done

        continuing {
            tries = tries + 1u; // step: count
            break if tries >= MAX_TRIES; // step: again
        }
    }
    atomicAdd(&stats.gave_up, 1u); // step: give-up
}

// playground: workgroup_size=8 params=8,4 count=4
