// The lockstep folklore, tested: each invocation writes its own cell of workgroup memory and,
// with no barrier, reads a neighbour's: the next lane of its own subgroup (params.across = 0)
// or the invocation `subgroup_size` further on, in the next subgroup (params.across = 1).
// Folklore says the lanes of one warp run in lockstep, so the first read is always fresh;
// WGSL promises nothing either way without a barrier. A cell still 0 was read before its
// owner wrote it: stale.
//
// The neighbour in the same subgroup is found by asking it (subgroupShuffle of its index),
// never by assuming that a subgroup is a run of consecutive indices; the next subgroup's is
// assumed, and the page says so (the add kernel's records check the layout).
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
