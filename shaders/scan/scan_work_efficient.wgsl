// Inclusive prefix sums of one tile per workgroup, the work-efficient way (an up-sweep, then a
// down-sweep). Up: for d = 1, 2, 4 …, the invocation at the end of each block of 2d adds the
// cell d places back, so it ends holding its block's total. Down: for d = n/4 … 1, the
// invocation d past the end of each block adds that block's total, carrying it forward. In
// a level no invocation reads a cell another writes, so one barrier a level suffices; and it
// adds about 2n times where Hillis–Steele adds about n log n times.

struct Params {
    count: u32,
    mode: u32,
}

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@group(0) @binding(2) var<storage, read_write> tile_sums: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;

const MAX_WIDTH: u32 = 1024u;
const KEEP_BELOW: u32 = 50u;
var<workgroup> cells: array<u32, MAX_WIDTH>;

override workgroup_size: u32 = 64u;

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
    // Each invocation's `value` is its own cell: nobody else writes it.
    var value = element(gid.x); // step: load
    cells[id] = value; // step: store
    var d = 1u; // step: up-first
    workgroupBarrier(); // step: barrier-loaded
    loop {
        if d >= workgroup_size { break; } // step: up-loop
        if (id + 1u) % (2u * d) == 0u { // step: up-active
            let other = cells[id - d]; // step: up-read
            value = value + other; // step: up-add
            cells[id] = value; // step: up-write
        }
        workgroupBarrier(); // step: up-barrier
        d = d * 2u; // step: up-double
        continue; // step: up-next
    }
    d = workgroup_size / 4u; // step: down-first
    loop {
        if d == 0u { break; } // step: down-loop
        if id >= d && (id + 1u) % (2u * d) == d { // step: down-active
            let other = cells[id - d]; // step: down-read
            value = value + other; // step: down-add
            cells[id] = value; // step: down-write
        }
        workgroupBarrier(); // step: down-barrier
        d = d / 2u; // step: down-halve
        continue; // step: down-next
    }
    if gid.x < params.count {
        output[gid.x] = value;
    }
    if id == workgroup_size - 1u {
        tile_sums[group.x] = value;
    }
}

// playground: workgroups=2 workgroup_size=4 params=8 input=3,1,4,1,5,9,2,6
