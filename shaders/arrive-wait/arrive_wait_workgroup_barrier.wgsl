// WGSL's one arrive-and-wait: workgroupBarrier(). The work that needs nobody else comes first,
// because nothing can run between arriving and waiting. Every invocation writes its cell, works,
// meets the others at the barrier and reads its neighbour's cell, the same as the hand-built
// kernels, with the same counts. Here they are promised: nobody leaves the barrier before every
// invocation of the workgroup has reached it, and every workgroup-memory write before it is
// visible after it. So no give-up and no stale read, on any GPU.

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

@group(0) @binding(0) var<storage, read_write> stats: Stats;
@group(0) @binding(1) var<storage, read_write> tickets: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> data: array<atomic<u32>, MAX_WORKGROUP>;
// Only to number the arrivals, as the other kernels do; the barrier needs no count.
var<workgroup> arrived: atomic<u32>;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lane: u32,
        @builtin(workgroup_id) group: vec3<u32>) {
    let id = gid.x;
    let working = id < params.invocations;
    let mine = lane + 1u; // step: mine
    var own = 0u;
    if working {
        atomicStore(&data[lane], mine); // step: write
        own = atomicLoad(&data[lane]); // step: work
        tickets[id] = atomicAdd(&arrived, 1u) + 1u;
    }
    // Every lane reaches it, working or not: a barrier must be in uniform control flow.
    workgroupBarrier(); // step: barrier
    if working {
        atomicAdd(&stats.released, 1u);
        let size = min(workgroup_size, params.invocations - group.x * workgroup_size);
        let next = (lane + 1u) % size;
        let got = atomicLoad(&data[next]); // step: read
        if got != next + 1u || own != mine {
            atomicAdd(&stats.stale, 1u);
        }
    }
}

// playground: workgroup_size=8
