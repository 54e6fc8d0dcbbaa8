// Ballot compaction: keep the values at or above KEEP with one atomicAdd per subgroup. Every
// lane gets the same mask, bit i set when lane i keeps; its place is the count of kept lanes
// below it. One elected lane reserves the subgroup's room and broadcasts where it starts.
// params.per_value = 1 runs the append lesson's way, one atomicAdd per kept value, instead.
enable subgroups;

struct Params {
    count: u32,
    per_value: u32,
}

struct Counts {
    kept: atomic<u32>,
    // How many atomicAdds reached `kept`: the contention on one address.
    atomics: atomic<u32>,
}

const KEEP: u32 = 4u;

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@group(0) @binding(2) var<storage, read_write> counts: Counts;
@group(0) @binding(3) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(subgroup_invocation_id) lane: u32) {
    let i = gid.x;
    let inside = i < params.count;
    let value = select(0u, input[min(i, params.count - 1u)], inside); // step: load
    let keep = inside && value >= KEEP; // step: keep
    if params.per_value == 1u {
        if keep {
            output[atomicAdd(&counts.kept, 1u)] = value;
            atomicAdd(&counts.atomics, 1u);
        }
        return;
    }
    // Only 32 lanes fit in .x: wider subgroups (64, 128) use the other words too.
    let ballot = subgroupBallot(keep); // step: ballot
    let word = lane / 32u;
    let below = (1u << (lane % 32u)) - 1u;
    // Kept lanes below this one: in its own word of the mask, then in the words before it.
    let rank = countOneBits(ballot[word] & below) + select(0u, countOneBits(ballot.x), word > 0u) // step: rank
        + select(0u, countOneBits(ballot.y), word > 1u) + select(0u, countOneBits(ballot.z), word > 2u);
    let kept = countOneBits(ballot.x) + countOneBits(ballot.y) + countOneBits(ballot.z) + countOneBits(ballot.w);
    var base = 0u;
    // The lowest active lane is elected (what subgroupElect() says, which naga lacks).
    if lane == subgroupBroadcastFirst(lane) { // step: elect
        base = atomicAdd(&counts.kept, kept); // step: reserve
        atomicAdd(&counts.atomics, 1u);
    }
    base = subgroupBroadcastFirst(base); // step: broadcast
    if keep { // step: if
        output[base + rank] = value; // step: store
    }
}

// playground: workgroups=2 workgroup_size=8 params=16,0 input=index
