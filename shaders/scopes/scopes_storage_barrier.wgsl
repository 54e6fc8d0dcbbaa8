// Each invocation writes its cell of a storage buffer, meets storageBarrier(), and reads a
// neighbour's cell: the next lane of its own workgroup, or (params.across = 1) the same lane of
// the next workgroup. Each cell is written once, with its invocation's index + 1, so a read
// finds either that value or 0, a cell not written yet (stale).
//
// A barrier's scope is its workgroup. With the neighbour in the same workgroup, storageBarrier()
// waits for it and orders its write to storage memory before the read: WGSL promises no stale
// read. With the neighbour in the next workgroup, the barrier waits for nobody there: that
// workgroup may not even have started.

struct Params {
    workgroups: u32,
    across: u32,
}

struct Stats {
    fresh: atomic<u32>,
    stale: atomic<u32>,
    impossible: atomic<u32>,
}

@group(0) @binding(0) var<storage, read_write> cells: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> stats: Stats;
@group(0) @binding(2) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lane: u32) {
    let mine = wid.x * workgroup_size + lane;
    var theirs = wid.x * workgroup_size + (lane + 1u) % workgroup_size;
    if params.across == 1u {
        theirs = ((wid.x + 1u) % params.workgroups) * workgroup_size + lane;
    }

    atomicStore(&cells[mine], mine + 1u); // step: write
    storageBarrier(); // step: barrier
    let seen = atomicLoad(&cells[theirs]); // step: read
    if seen == theirs + 1u { // step: count
        atomicAdd(&stats.fresh, 1u);
    } else if seen == 0u {
        atomicAdd(&stats.stale, 1u);
    } else {
        atomicAdd(&stats.impossible, 1u);
    }
}

// playground: workgroups=2 workgroup_size=4 params=2,1
