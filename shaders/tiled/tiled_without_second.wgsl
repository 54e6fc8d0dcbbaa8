// Tiled matrix multiply WITHOUT the second barrier: an invocation that finishes a tile early
// may copy the next tile over cells that others are still multiplying with. Otherwise the
// same kernel as tiled.wgsl.

struct Params {
    n: u32,
    tile: u32,
}

@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read_write> c: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;

// The widest tile the page offers is 16 × 16.
const MAX_TILE_CELLS: u32 = 256u;
var<workgroup> tile_a: array<u32, MAX_TILE_CELLS>;
var<workgroup> tile_b: array<u32, MAX_TILE_CELLS>;

// tile × tile, set by the page.
override workgroup_size: u32 = 16u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(local_invocation_index) id: u32, @builtin(workgroup_id) group: vec3<u32>) {
    let n = params.n;
    let tile = params.tile;
    let tiles = n / tile;
    let ty = id / tile;
    let tx = id % tile;
    let row = (group.x / tiles) * tile + ty;
    let col = (group.x % tiles) * tile + tx;
    var acc = 0u; // step: acc
    for (var m = 0u; m < tiles; m++) { // step: tiles
        tile_a[id] = a[row * n + m * tile + tx]; // step: load-a
        tile_b[id] = b[(m * tile + ty) * n + col]; // step: load-b
        workgroupBarrier(); // step: barrier-loaded
        for (var k = 0u; k < tile; k++) { // step: dot
            acc = acc + tile_a[ty * tile + k] * tile_b[k * tile + tx]; // step: mul-add
        }
        // (no barrier: the next copy may overwrite cells still in use)
    }
    c[row * n + col] = acc; // step: store
}

// playground: workgroups=4 workgroup_size=4 elements=16 params=4,2 a=index b=index
