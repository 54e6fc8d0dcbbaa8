// A latch built from workgroup atomics, as CUDA's cuda::latch does it: set to the number of
// invocations expected, each counts down, does work that needs nobody else, then waits until
// the count reaches zero. The count is never reset, so the latch is spent once it has opened
// (single use). Each invocation writes its cell first and reads its neighbour's after the wait.
//
// Nothing here is promised: no forward progress for a waiting invocation (every wait gives up
// after MAX_TRIES and is counted), and relaxed atomics (a stale neighbour read is counted).

struct Params {
    invocations: u32,
}

struct Stats {
    opened: atomic<u32>,
    released: atomic<u32>,
    gave_up: atomic<u32>,
    stale: atomic<u32>,
    longest_wait: atomic<u32>,
}

const MAX_WORKGROUP: u32 = 1024u;
const MAX_TRIES: u32 = 20000u;

@group(0) @binding(0) var<storage, read_write> stats: Stats;
@group(0) @binding(1) var<storage, read_write> tickets: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> data: array<atomic<u32>, MAX_WORKGROUP>;
var<workgroup> left: atomic<u32>;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lane: u32,
        @builtin(workgroup_id) group: vec3<u32>) {
    // The last workgroup may be short: it expects the lanes it has.
    let size = min(workgroup_size, params.invocations - min(params.invocations, group.x * workgroup_size));
    // Set up, as CUDA's init(&done, count) and __syncthreads() do: one lane sets the count, and
    // every lane, working or not, meets at a real barrier before using it.
    if lane == 0u {
        atomicStore(&left, size);
    }
    workgroupBarrier();
    let id = gid.x;
    if id >= params.invocations {
        return;
    }
    let mine = lane + 1u; // step: mine
    atomicStore(&data[lane], mine); // step: write
    var now = atomicSub(&left, 1u); // step: arrive
    now = now - 1u; // step: count
    // Arrival tickets as the other kernels number them: 1 for the first to count down.
    tickets[id] = size - now;
    let own = atomicLoad(&data[lane]); // step: work
    var tries = 0u;
    loop {
        let seen = atomicLoad(&left); // step: wait
        if seen == 0u { break; } // step: through

        continuing {
            tries = tries + 1u; // step: tries
            break if tries >= MAX_TRIES; // step: again
        }
    }
    if tries >= MAX_TRIES { // step: late
        atomicAdd(&stats.gave_up, 1u); // step: give-up
    } else {
        atomicAdd(&stats.released, 1u);
    }
    atomicMax(&stats.longest_wait, tries);
    let next = (lane + 1u) % size;
    let got = atomicLoad(&data[next]); // step: read
    if got != next + 1u || own != mine {
        atomicAdd(&stats.stale, 1u);
    }
}

// playground: workgroup_size=8
