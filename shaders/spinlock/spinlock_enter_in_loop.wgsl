// A spinlock from compareExchangeWeak around counter++, the critical section inside the loop.
// Each try either takes the lock and runs the critical section in that same iteration, or
// counts a failure; after MAX_TRIES failures the invocation gives up, so no kernel can spin
// for ever. `stats` is instrumentation the page reads back: who entered, who gave up, and
// how often someone entered while another invocation was still inside.
//
// Nothing here is guaranteed. WGSL's atomics are all relaxed: taking the lock does not make
// the previous holder's store to `counter` visible (there is no acquire or release), and
// the language promises no forward progress to an invocation waiting on another.

struct Params {
    invocations: u32,
}

struct Stats {
    entered: atomic<u32>,
    gave_up: atomic<u32>,
    inside: atomic<u32>,
    overlaps: atomic<u32>,
}

// Tries before giving up: an override, so that the page's model can give up after a few
// while the GPU takes 20,000.
override MAX_TRIES: u32 = 20000u;

@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> stats: Stats;
@group(0) @binding(2) var<uniform> params: Params;
@group(0) @binding(3) var<storage, read_write> lock: atomic<u32>;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= params.invocations {
        return;
    }
    var tries = 0u;
    loop {
        let got = atomicCompareExchangeWeak(&lock, 0u, 1u).exchanged; // step: try
        if got { // step: got
            atomicAdd(&stats.entered, 1u);
            if atomicAdd(&stats.inside, 1u) != 0u { atomicAdd(&stats.overlaps, 1u); }
            var value = atomicLoad(&counter); // step: load
            value = value + 1u; // step: add
            atomicStore(&counter, value); // step: store
            atomicSub(&stats.inside, 1u);
            atomicStore(&lock, 0u); // step: unlock
            return;
        }
        tries = tries + 1u; // step: count
        if tries < MAX_TRIES { continue; } // step: again
        atomicAdd(&stats.gave_up, 1u); // step: give-up
        return; // step: stop
    }
}

// playground: workgroup_size=4 MAX_TRIES=100
