// A split barrier built from workgroup atomics, as CUDA's cuda::barrier does it: arrive (take
// a ticket; the last to arrive resets the count and opens the next phase), do work that needs
// nobody else, then wait for the phase to move past the token read before arriving. Each
// invocation writes its cell first and reads its neighbour's after the wait.
//
// Nothing here is promised. WGSL gives no forward progress to an invocation waiting on another,
// so every wait gives up after MAX_TRIES and is counted; and its atomics are relaxed, so seeing
// the phase open does not make the neighbour's write visible: a stale read is counted too.
// workgroupBarrier() promises both (arrive_wait_workgroup_barrier.wgsl).

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
var<workgroup> arrived: atomic<u32>;
var<workgroup> phase: atomic<u32>;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lane: u32,
        @builtin(workgroup_id) group: vec3<u32>) {
    // Set up, as CUDA's init(&bar, count) and __syncthreads() do: one lane writes the
    // barrier's state, and every lane, working or not, meets at a real barrier before using it.
    if lane == 0u {
        atomicStore(&arrived, 0u);
        atomicStore(&phase, 0u);
    }
    workgroupBarrier();
    let id = gid.x;
    if id >= params.invocations {
        return;
    }
    // The last workgroup may be short: it waits for the lanes it has.
    let size = min(workgroup_size, params.invocations - group.x * workgroup_size);
    let mine = lane + 1u; // step: mine
    atomicStore(&data[lane], mine); // step: write
    let token = atomicLoad(&phase); // step: token
    var now = atomicAdd(&arrived, 1u); // step: arrive
    now = now + 1u; // step: count
    tickets[id] = now;
    if now >= size { // step: last
        atomicStore(&arrived, 0u); // step: reset
        atomicAdd(&phase, 1u); // step: open
        atomicAdd(&stats.opened, 1u);
    }
    let own = atomicLoad(&data[lane]); // step: work
    var tries = 0u;
    loop {
        let seen = atomicLoad(&phase); // step: wait
        if seen != token { break; } // step: through

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
