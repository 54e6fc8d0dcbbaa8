// What storageBarrier() orders, and what it does not. Each invocation writes id + 1 to its
// cell of a storage buffer, calls storageBarrier(), then reads one other cell: its neighbour's
// in its own workgroup, or the same lane's in the next workgroup. The buffer starts zeroed, so
// a 0 read back is a cell whose write was not seen.
//
// Within a workgroup the barrier makes the writes before it visible after it. Across
// workgroups nothing in one dispatch waits: the next workgroup may not have run yet. Run the
// writes and the reads as two dispatches (the `phases` parameter) and every read sees its
// write, because a dispatch starts only after the one before it has finished.

struct Params {
    invocations: u32,
    // Bit 1: write; bit 2: read. One dispatch does both; two dispatches do one each.
    phases: u32,
    // 0: read the neighbour in this workgroup; 1: read the same lane of the next workgroup.
    across: u32,
}

const WRITE: u32 = 1u;
const READ: u32 = 2u;

@group(0) @binding(0) var<storage, read_write> cells: array<u32>;
@group(0) @binding(1) var<storage, read_write> got: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lane: u32,
        @builtin(workgroup_id) group: vec3<u32>) {
    let id = gid.x;
    let n = params.invocations;
    let working = id < n;
    if working && (params.phases & WRITE) != 0u {
        cells[id] = id + 1u;
    }
    // Every lane reaches it, working or not: a barrier must be in uniform control flow.
    storageBarrier();
    if working && (params.phases & READ) != 0u {
        let start = group.x * workgroup_size;
        let size = min(workgroup_size, n - start);
        var other = start + (lane + 1u) % size;
        if params.across != 0u {
            other = (id + workgroup_size) % n;
        }
        got[id] = cells[other];
    }
}

// playground: workgroups=2 workgroup_size=4 params=8,3,1
