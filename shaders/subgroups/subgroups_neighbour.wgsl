// The lockstep folklore, tested: each invocation writes its cell of workgroup memory and, with
// no barrier, reads the next lane's in its subgroup (across = 0) or the cell `subgroup_size`
// on, in the next subgroup (across = 1). WGSL promises neither fresh; a 0 is a stale read.
// The next lane is asked for its index (subgroupShuffle); the next subgroup's is assumed, and
// the page checks that layout from the add kernel's records.
enable subgroups;

struct Params {
    across: u32,
}

struct Stats {
    fresh: atomic<u32>,
    stale: atomic<u32>,
    // Reads that found a value no invocation wrote to that cell: impossible.
    impossible: atomic<u32>,
}

const MAX_WIDTH: u32 = 1024u;
var<workgroup> cells: array<u32, MAX_WIDTH>;

@group(0) @binding(0) var<storage, read_write> stats: Stats;
@group(0) @binding(1) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(local_invocation_index) id: u32, @builtin(subgroup_size) size: u32,
        @builtin(subgroup_invocation_id) lane: u32) {
    // Asked before any cell is written, so the question orders nothing below.
    var theirs = subgroupShuffle(id, (lane + 1u) % size);
    if params.across == 1u {
        theirs = (id + size) % workgroup_size;
    }
    cells[id] = id + 1u; // step: write
    let seen = cells[theirs]; // step: read
    if seen == theirs + 1u {
        atomicAdd(&stats.fresh, 1u);
    } else if seen == 0u {
        atomicAdd(&stats.stale, 1u);
    } else {
        atomicAdd(&stats.impossible, 1u);
    }
}

// playground: workgroup_size=32
