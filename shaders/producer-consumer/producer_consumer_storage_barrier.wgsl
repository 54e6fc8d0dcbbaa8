// Producer and consumer in different workgroups, as in the relaxed kernel, with
// storageBarrier() after the data and after the wait: the shape of CUDA's __threadfence()
// method. It is no fence. A WGSL barrier orders memory only among the invocations of one
// workgroup that meet at it, and the producer here is in another, so WGSL promises no more
// than in the relaxed kernel: stale reads and give-ups are counted, not ruled out.

struct Params {
    workgroups: u32,
    spin_limit: u32,
    phase: u32, // unused here: the two-dispatch kernel's
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

    atomicStore(&data[mine], MESSAGE); // step: write-data
    storageBarrier(); // step: barrier-write
    atomicStore(&flags[mine], 1u); // step: write-flag

    var waited = 0u;
    loop {
        if atomicLoad(&flags[theirs]) != 0u { break; } // step: wait
        waited += 1u; // step: count
        // `>=` rather than `==`: a dispatch with a zeroed uniform (each pipeline is primed with one) must end too.
        if waited >= params.spin_limit { break; } // step: again
    }
    storageBarrier(); // step: barrier-read
    if waited >= params.spin_limit { // step: saw-flag
        atomicAdd(&stats.gave_up, 1u); // step: give-up
    } else {
        let seen = atomicLoad(&data[theirs]); // step: read-data
        atomicAdd(&stats.consumed, 1u);
        if seen != MESSAGE { atomicAdd(&stats.stale, 1u); } // step: stale
        atomicMax(&stats.longest_wait, waited);
    }
}

// playground: workgroups=2 workgroup_size=4 params=2,50,0
