// The fair three-pass scan, pass 2 of 3: one workgroup turns the tiles' sums into each tile's
// exclusive prefix (the sum of every tile before it), in place. Cooperatively, 1,024 sums a
// round: each invocation a vec4 of them, scanned in the lane, across its subgroup, then across
// the workgroup; the next round's vec4 is loaded before this round's work, so the rounds' loads
// overlap. A 2^27-value scan has 16,384 tiles: 16 rounds.
enable subgroups;

struct Params {
    tiles: u32,
}

// Slots for one value per subgroup: 256 invocations in subgroups of 4 or more.
const MAX_SUBGROUPS: u32 = 64u;

// The sums as vec4s; its length is a multiple of 4, the words past `tiles` unused.
@group(0) @binding(0) var<storage, read_write> tile_sums: array<vec4<u32>>;
@group(0) @binding(1) var<uniform> params: Params;

// Compiled with 256.
override workgroup_size: u32 = 256u;

var<workgroup> slots_taken: atomic<u32>;
var<workgroup> subgroup_sums: array<u32, MAX_SUBGROUPS>;

// Past the end, zeros, without reading: a clamped read of the last vec4 would meet its
// owner's write with only workgroup barriers between, which order no storage (a data race).
fn load(i: u32, vecs: u32) -> vec4<u32> {
    if i < vecs {
        return tile_sums[i];
    }
    return vec4(0u);
}

@compute @workgroup_size(workgroup_size)
fn main(@builtin(local_invocation_index) id: u32, @builtin(subgroup_size) size: u32,
        @builtin(subgroup_invocation_id) lane: u32) {
    // Each subgroup takes a slot: its place in a round, whatever invocations the GPU put in it.
    var taken = 0u;
    if lane == 0u {
        taken = atomicAdd(&slots_taken, 1u);
    }
    let slot = subgroupBroadcastFirst(taken);
    let subgroups = workgroup_size / size;
    let vecs = (params.tiles + 3u) / 4u;
    let rounds = (vecs + workgroup_size - 1u) / workgroup_size;
    // The sum of every round before this one.
    var carried = 0u;
    var next = load(slot * size + lane, vecs);
    for (var round = 0u; round < rounds; round++) {
        let at = round * workgroup_size + slot * size + lane;
        let v = next;
        next = load(at + workgroup_size, vecs);
        let within = vec4(v.x, v.x + v.y, v.x + v.y + v.z, v.x + v.y + v.z + v.w);
        let through = subgroupInclusiveAdd(within.w);
        if lane == size - 1u {
            subgroup_sums[slot] = through;
        }
        workgroupBarrier();
        var earlier = carried;
        var round_total = 0u;
        for (var s = 0u; s < subgroups; s++) {
            earlier += select(0u, subgroup_sums[s], s < slot);
            round_total += subgroup_sums[s];
        }
        // Exclusive: each tile's prefix leaves its own sum out.
        let before = earlier + through - within.w;
        if at < vecs {
            tile_sums[at] = vec4(before, before + within.x, before + within.y, before + within.z);
        }
        carried += round_total;
        // Nobody writes the next round's subgroup sums before everyone has read these.
        workgroupBarrier();
    }
}

// playground: workgroup_size=64 elements=128 params=512 tile_sums=index
