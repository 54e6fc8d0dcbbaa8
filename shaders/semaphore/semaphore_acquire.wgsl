// A counting semaphore from compare-exchange: `count` starts at the limit (params.limit); to
// acquire, an invocation reads the count and, if a slot is free, swaps it for one less; to
// release, it adds one back. The critical section sits inside the loop, in the iteration that
// took a slot, so a holder never waits for the rest of its group to stop trying. Every try is
// counted and an invocation gives up after MAX_TRIES, so nothing spins for ever.
//
// `stats` is instrumentation the page reads back: entries, give-ups, the most invocations ever
// inside at once (`peak`), and entries that found the limit already reached (`over`).
//
// What is guaranteed: each atomic on `count` is indivisible, so every slot taken is a slot
// that was free, and the count ends where it began. What is not: WGSL's atomics are relaxed,
// so `inside` (another address) may be counted in an order that disagrees with `count`, and
// no invocation is promised a turn.

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
        let want = seen - 1; // step: less
        let took = atomicCompareExchangeWeak(&count, seen, want).exchanged; // step: take
        if !took { continue; } // step: took
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
