// Inclusive prefix sums of one tile per workgroup, the Hillis–Steele way. Each invocation
// loads its value into workgroup memory; then, for offsets 1, 2, 4 … up to the workgroup's
// width, every invocation at or past the offset reads the cell that many places back, waits
// until everyone has read, adds what it read to its own cell, and waits again. The first wait
// keeps a read from seeing a cell its owner has already added into; the second keeps the next
// step's reads from seeing a cell not yet written. The tile's total goes to `tile_sums`, for a
// large scan's second dispatch.
//
// `params.mode` 1 scans keep-flags instead of values (1 where a value passes the append
// lesson's filter): the positions of an ordered compaction.

struct Params {
    count: u32,
    mode: u32,
}

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@group(0) @binding(2) var<storage, read_write> tile_sums: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;

const MAX_WIDTH: u32 = 1024u;
// The append lesson's filter: a value is kept when below this.
const KEEP_BELOW: u32 = 50u;
var<workgroup> cells: array<u32, MAX_WIDTH>;

override workgroup_size: u32 = 64u;

// Element `i` of what is scanned; 0 past the end, so a last, partial tile sums right.
fn element(i: u32) -> u32 {
    if i >= params.count {
        return 0u;
    }
    let v = input[i];
    return select(v, u32(v < KEEP_BELOW), params.mode == 1u);
}

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) id: u32,
        @builtin(workgroup_id) group: vec3<u32>) {
    var value = element(gid.x); // step: load
    cells[id] = value; // step: store
    var offset = 1u; // step: first
    workgroupBarrier(); // step: barrier-loaded
    loop {
        if offset >= workgroup_size { break; } // step: loop
        var other = 0u; // step: zero
        if id >= offset { // step: active
            other = cells[id - offset]; // step: read
        }
        workgroupBarrier(); // step: barrier-read
        value = value + other; // step: add
        cells[id] = value; // step: write
        workgroupBarrier(); // step: barrier-step
        offset = offset * 2u; // step: double
        continue; // step: next
    }
    if gid.x < params.count {
        output[gid.x] = value;
    }
    if id == workgroup_size - 1u {
        tile_sums[group.x] = value;
    }
}

// playground: workgroups=2 workgroup_size=4 params=8 input=3,1,4,1,5,9,2,6
