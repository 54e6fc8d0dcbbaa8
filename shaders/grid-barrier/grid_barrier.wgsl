// A barrier across every workgroup of the dispatch, from an atomic arrival count and a spin:
// each workgroup writes its part, lane 0 arrives and waits (at most spin_limit loads) until the
// count says every workgroup has arrived, then the workgroup reads the next one's part.
//
// It needs every workgroup running at once. WGSL promises nothing of the kind: a GPU holds so
// many workgroups at a time and starts the rest as slots come free, and a spinning workgroup
// never frees its slot. Past that size the unbounded barrier deadlocks; here the spin gives up
// and is counted. `phase` runs the same work as two dispatches instead (1: write the parts,
// 2: read them), the portable answer: the end of a dispatch is a barrier across all workgroups.

struct Params {
    workgroups: u32,
    spin_limit: u32,
    phase: u32, // 0: one dispatch with the grid barrier; 1, 2: the two dispatches
}

struct Stats {
    arrived: atomic<u32>,
    passed: atomic<u32>,
    gave_up: atomic<u32>,
    stale: atomic<u32>,
    longest_wait: atomic<u32>,
}

@group(0) @binding(0) var<storage, read_write> part: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> stats: Stats;
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> through: u32;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lane: u32) { // step: slot
    let mine = wid.x * workgroup_size + lane;
    if params.phase != 2u {
        atomicStore(&part[mine], mine + 1u); // step: work
    }
    if params.phase == 0u {
        workgroupBarrier(); // the whole workgroup has written its part
        if lane == 0u {
            atomicAdd(&stats.arrived, 1u); // step: arrive
            var waited = 0u;
            loop {
                if atomicLoad(&stats.arrived) >= params.workgroups { break; } // step: wait
                waited += 1u; // step: count
                // `>=`: a dispatch with a zeroed uniform (each pipeline is primed with one) ends too.
                if waited >= params.spin_limit { break; } // step: again
            }
            if waited >= params.spin_limit {
                atomicAdd(&stats.gave_up, 1u); // step: give-up
                through = 0u;
            } else {
                atomicAdd(&stats.passed, 1u);
                atomicMax(&stats.longest_wait, waited);
                through = 1u;
            }
        }
        // The rest of the workgroup waits for lane 0's answer; a workgroup that gave up stops.
        if workgroupUniformLoad(&through) == 0u {
            return;
        }
    } else if params.phase == 2u && lane == 0u { // step: next-dispatch
        atomicAdd(&stats.passed, 1u);
    }
    if params.phase != 1u {
        let theirs = ((wid.x + 1u) % max(params.workgroups, 1u)) * workgroup_size + lane;
        let seen = atomicLoad(&part[theirs]); // step: read
        if seen != theirs + 1u { // step: check
            atomicAdd(&stats.stale, 1u);
        }
    }
} // step: leave

// playground: workgroups=4 workgroup_size=4 params=4,50,0
