// Producers in one dispatch, consumers in the next: the portable handoff. Run twice, with
// phase 0 then phase 1. Everything a dispatch wrote is visible to the dispatches after it, so
// when the consumers start every flag is set and every message written. WGSL promises both,
// and the page checks them: a give-up or a stale read here is a bug of the GPU. The wait stays
// bounded all the same.

struct Params {
    workgroups: u32,
    spin_limit: u32,
    phase: u32, // 0: produce, 1: consume
}

struct Stats {
    consumed: atomic<u32>,
    stale: atomic<u32>,
    gave_up: atomic<u32>,
    longest_wait: atomic<u32>,
}

const MESSAGE: u32 = 42u;

@group(0) @binding(0) var<storage, read_write> data: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> flags: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> stats: Stats;
@group(0) @binding(3) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lane: u32) {
    let mine = wid.x * workgroup_size + lane;
    // The message this invocation consumes: the next workgroup's, at the mirrored lane.
    let theirs = ((wid.x + 1u) % params.workgroups) * workgroup_size + (workgroup_size - 1u - lane);

    if params.phase == 0u {
        atomicStore(&data[mine], MESSAGE); // step: write-data
        atomicStore(&flags[mine], 1u); // step: write-flag
        return; // step: next-dispatch
    }

    var waited = 0u;
    loop {
        if atomicLoad(&flags[theirs]) != 0u { break; } // step: wait
        waited += 1u; // step: count
        // `>=` rather than `==`: a dispatch with a zeroed uniform (each pipeline is primed with one) must end too.
        if waited >= params.spin_limit { break; } // step: again
    }
    if waited >= params.spin_limit { // step: saw-flag
        atomicAdd(&stats.gave_up, 1u); // step: give-up
    } else {
        let seen = atomicLoad(&data[theirs]); // step: read-data
        atomicAdd(&stats.consumed, 1u);
        if seen != MESSAGE { atomicAdd(&stats.stale, 1u); } // step: stale
        atomicMax(&stats.longest_wait, waited);
    }
}

// playground: workgroups=2 workgroup_size=4 params=2,50,1 data=42,42,42,42,42,42,42,42 flags=1,1,1,1,1,1,1,1
