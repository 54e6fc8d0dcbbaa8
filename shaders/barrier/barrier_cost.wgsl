// What a barrier costs: `rounds` rounds of a neighbour exchange through workgroup memory. Each
// invocation writes its cell, waits, adds its right-hand neighbour's cell, and waits again
// before the next round overwrites it: two workgroupBarrier()s a round with `barriers` = 1.
// With 0 the same loads, stores and additions run without them, racing, timed only: the
// difference between the two times, over the barriers taken, is what one barrier costs.
//
// With the barriers every value is fixed: x starts at the lane's index and each round adds the
// neighbour's x of the round before, as the page's check works out on the CPU.

struct Params {
    rounds: u32,
    barriers: u32,
}

// The largest workgroup any adapter offers; each workgroup uses its first `workgroup_size` cells.
const MAX_WORKGROUP: u32 = 1024u;

@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> params: Params;

var<workgroup> cells: array<u32, MAX_WORKGROUP>;

override workgroup_size: u32 = 256u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(local_invocation_index) lane: u32, @builtin(workgroup_id) group: vec3<u32>) {
    var x = lane;
    let right = (lane + 1u) % workgroup_size;
    // `params` is a uniform, so every barrier below stands in uniform control flow.
    for (var round = 0u; round < params.rounds; round++) {
        cells[lane] = x;
        if params.barriers != 0u {
            workgroupBarrier();
        }
        x += cells[right];
        if params.barriers != 0u {
            workgroupBarrier();
        }
    }
    out[group.x * workgroup_size + lane] = x;
}

// playground: workgroup_size=8 params=2,1
