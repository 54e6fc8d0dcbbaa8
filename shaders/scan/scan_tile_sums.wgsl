// A large scan's second dispatch: one workgroup turns every tile's total into the running
// total up to and including that tile. Each invocation first scans a run of consecutive tiles
// on its own, then the workgroup scans the runs' totals the Hillis–Steele way, and each
// invocation adds the total of the runs before its own to every tile of its run.

struct Params {
    tiles: u32,
}

@group(0) @binding(0) var<storage, read_write> tile_sums: array<u32>;
@group(0) @binding(1) var<uniform> params: Params;

const MAX_WIDTH: u32 = 1024u;
var<workgroup> totals: array<u32, MAX_WIDTH>;

override workgroup_size: u32 = 256u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(local_invocation_index) id: u32) {
    let per = (params.tiles + workgroup_size - 1u) / workgroup_size;
    let start = min(id * per, params.tiles);
    let end = min(start + per, params.tiles);
    var running = 0u;
    for (var i = start; i < end; i = i + 1u) {
        running = running + tile_sums[i];
        tile_sums[i] = running;
    }
    totals[id] = running;
    workgroupBarrier();
    for (var offset = 1u; offset < workgroup_size; offset = offset * 2u) {
        var other = 0u;
        if id >= offset {
            other = totals[id - offset];
        }
        workgroupBarrier();
        totals[id] = totals[id] + other;
        workgroupBarrier();
    }
    var before = 0u;
    if id > 0u {
        before = totals[id - 1u];
    }
    for (var i = start; i < end; i = i + 1u) {
        tile_sums[i] = tile_sums[i] + before;
    }
}

// playground: workgroup_size=4 elements=16 params=16 tile_sums=3,1,4,1,5,9,2,6,5,3,5,8,9,7,9,3
