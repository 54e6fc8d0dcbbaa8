// The same exchange with the barrier taken out: each invocation writes its cell of workgroup
// memory and reads its right-hand neighbour's at once. Workgroup memory starts zeroed,
// so a 0 read back means the neighbour had not written yet: nothing here prevents it.
// The tickets are taken where the barrier was and just after it: without a barrier, a lane
// can "leave" before the others "arrive".

struct Params {
    invocations: u32,
}

// The largest workgroup any adapter offers; each workgroup uses its first `workgroup_size` cells.
const MAX_WORKGROUP: u32 = 1024u;

@group(0) @binding(0) var<storage, read_write> got: array<u32>;
@group(0) @binding(1) var<storage, read_write> tickets: array<vec2<u32>>;
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> cells: array<u32, MAX_WORKGROUP>;
var<workgroup> counter: atomic<u32>;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lane: u32,
        @builtin(workgroup_id) group: vec3<u32>) {
    // Lanes past the last invocation still take part, as in barrier.wgsl.
    let id = gid.x;
    let working = id < params.invocations;
    let size = min(workgroup_size, params.invocations - group.x * workgroup_size);
    let value = id + 1u; // step: value
    cells[lane] = value; // step: write
    var arrived = 0u;
    if working { arrived = atomicAdd(&counter, 1u); }
    var departed = 0u;
    if working { departed = atomicAdd(&counter, 1u); }
    let neighbour = cells[(lane + 1u) % size]; // step: read
    if working {
        got[id] = neighbour; // step: record
        tickets[id] = vec2(arrived, departed);
    }
}

// playground: workgroup_size=8
