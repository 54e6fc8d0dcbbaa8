// A whole array's inclusive scan in one dispatch: decoupled look-back with a fallback.
//
// Each workgroup takes a ticket (its tile, 4,096 values), scans the tile in registers with
// subgroup operations, posts the tile's sum, then looks back at the tiles before it until one
// has posted its inclusive prefix; it adds what it passed and posts its own inclusive prefix.
// A ticket, not the workgroup id, names the tile: a tile only waits on tiles that already
// started. Should a tile it waits on stay silent (its workgroup not running), the fallback
// sums that tile from the input itself and posts it: nothing waits on a workgroup forever.
//
// A tile's state and value share one atomic word, so no other write has to be made visible
// first: 16 bits of value under the state, two words a tile for a full 32-bit sum. A state
// only moves forward (not ready < aggregate < inclusive prefix): every post is an atomicMax.
enable subgroups;

struct Params {
    // Input length in vec4s (the values, padded with zeros to a multiple of 4).
    vecs: u32,
    tiles: u32,
    // 1: a tile that stays silent is summed from the input; 0: give up after `max_polls`.
    fallback: u32,
    // How many looks at the same tile before the fallback (or the give-up); 0: none at all.
    max_polls: u32,
}

struct Stats {
    // Tickets handed out.
    tile: atomic<u32>,
    fallbacks: atomic<u32>,
    give_ups: atomic<u32>,
    // How many windows of tiles each look-back read: [1], [2] … [7 or more]; [0] is tile 0.
    depth: array<atomic<u32>, 8>,
}

const NOT_READY: u32 = 0u;
const AGGREGATE: u32 = 1u;
const INCLUSIVE: u32 = 2u;
const VECS_PER_INVOCATION: u32 = 4u;
// Slots for one value per subgroup: 256 invocations in subgroups of 4 or more.
const MAX_SUBGROUPS: u32 = 64u;

@group(0) @binding(0) var<storage, read> input: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4<u32>>;
// Two words a tile: the low and the high 16 bits of its value, each under the state.
@group(0) @binding(2) var<storage, read_write> flags: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> stats: Stats;
@group(0) @binding(4) var<uniform> params: Params;

// Compiled with 256.
override workgroup_size: u32 = 256u;

var<workgroup> ticket: u32;
var<workgroup> slots_taken: atomic<u32>;
var<workgroup> subgroup_sums: array<u32, MAX_SUBGROUPS>;
// The look-back, as its first subgroup leaves it for the whole workgroup.
var<workgroup> look_at: u32;
var<workgroup> polls: u32;
var<workgroup> prefix: u32;
var<workgroup> found: u32;
var<workgroup> stalled: u32;

fn post(tile: u32, state: u32, value: u32) {
    atomicMax(&flags[2u * tile], (state << 16u) | (value & 0xffffu));
    atomicMax(&flags[2u * tile + 1u], (state << 16u) | (value >> 16u));
}

// The sum of one tile's input, by the whole workgroup: what the fallback posts for a silent tile.
fn tile_sum(tile: u32, slot: u32, lane: u32, size: u32, id: u32) -> u32 {
    var sum = 0u;
    for (var k = 0u; k < VECS_PER_INVOCATION; k++) {
        let i = tile * workgroup_size * VECS_PER_INVOCATION + slot * size * VECS_PER_INVOCATION + k * size + lane;
        let v = select(vec4(0u), input[min(i, params.vecs - 1u)], i < params.vecs);
        sum += v.x + v.y + v.z + v.w;
    }
    sum = subgroupAdd(sum);
    workgroupBarrier();
    if lane == 0u {
        subgroup_sums[MAX_SUBGROUPS - 1u - slot] = sum;
    }
    workgroupBarrier();
    var total = 0u;
    for (var s = 0u; s < workgroup_size / size; s++) {
        total += subgroup_sums[MAX_SUBGROUPS - 1u - s];
    }
    return total;
}

@compute @workgroup_size(workgroup_size)
fn main(@builtin(local_invocation_index) id: u32, @builtin(subgroup_size) size: u32,
        @builtin(subgroup_invocation_id) lane: u32) {
    if id == 0u {
        ticket = atomicAdd(&stats.tile, 1u); // step: ticket
    }
    let tile = workgroupUniformLoad(&ticket);
    if tile >= params.tiles {
        return;
    }
    // Each subgroup takes a slot: its place in the tile, whatever invocations the GPU put in it.
    var taken = 0u;
    if lane == 0u {
        taken = atomicAdd(&slots_taken, 1u);
    }
    let slot = subgroupBroadcastFirst(taken);

    // 1. The tile in registers: vec4 loads, each subgroup scanning its run of them.
    let first = tile * workgroup_size * VECS_PER_INVOCATION + slot * size * VECS_PER_INVOCATION;
    var sums: array<vec4<u32>, VECS_PER_INVOCATION>;
    var running = 0u;
    for (var k = 0u; k < VECS_PER_INVOCATION; k++) {
        let i = first + k * size + lane;
        let v = select(vec4(0u), input[min(i, params.vecs - 1u)], i < params.vecs); // step: load
        let within = vec4(v.x, v.x + v.y, v.x + v.y + v.z, v.x + v.y + v.z + v.w);
        let before = subgroupExclusiveAdd(within.w);
        sums[k] = within + vec4(running + before);
        running += subgroupAdd(within.w);
    }
    if lane == 0u {
        subgroup_sums[slot] = running;
    }
    workgroupBarrier();
    var earlier = 0u;
    var aggregate = 0u;
    for (var s = 0u; s < workgroup_size / size; s++) {
        earlier += select(0u, subgroup_sums[s], s < slot);
        aggregate += subgroup_sums[s];
    }

    // 2. Post the tile's sum: the whole prefix for tile 0, the tile's own for the rest.
    if id == 0u {
        post(tile, select(AGGREGATE, INCLUSIVE, tile == 0u), aggregate); // step: post
        look_at = tile - 1u;
        found = select(0u, 1u, tile == 0u);
    }

    // 3. Look back: the first subgroup reads a window of tiles at once, nearest first, and
    //    adds them up to the first inclusive prefix; a tile not ready stops the window there.
    var windows = 0u;
    loop {
        if workgroupUniformLoad(&found) == 1u {
            break;
        }
        windows++;
        // Only the first subgroup reads where it stands; its lane 0 moves it on below.
        var at = 0u;
        if slot == 0u {
            at = look_at;
        }
        let t = i32(at) - i32(lane);
        var low = 0u;
        var high = 0u;
        // With max_polls 0 no tile is looked at: each counts as silent and the fallback sums it
        // (how the tests run the fallback on a GPU that never leaves a tile silent).
        if slot == 0u && t >= 0 && params.max_polls > 0u {
            low = atomicLoad(&flags[2u * u32(t)]); // step: look
            high = atomicLoad(&flags[2u * u32(t) + 1u]);
        }
        let state = low >> 16u;
        // Both halves posted in one state, or the tile is not ready yet (half posted). Tile 0's
        // own sum is its inclusive prefix, so no look goes past it.
        let ready = t >= 0 && state != NOT_READY && state == (high >> 16u);
        let first_inclusive = subgroupMin(select(size, lane, ready && (state == INCLUSIVE || t == 0)));
        let first_silent = subgroupMin(select(size, lane, t >= 0 && !ready));
        // The tiles this window adds: up to the first inclusive prefix if it comes before any
        // silent tile, else up to the first silent one.
        let take = select(first_silent, first_inclusive + 1u, first_inclusive < first_silent);
        let passed = subgroupAdd(select(0u, (low & 0xffffu) | (high << 16u), lane < take));
        if slot == 0u && lane == 0u {
            prefix += passed;
            if first_inclusive < first_silent {
                found = 1u;
            } else if take == 0u {
                polls++;
            } else {
                look_at = at - take;
                polls = 0u;
            }
            stalled = select(0u, 1u, found == 0u && polls >= params.max_polls);
        }
        // 4. The same tile silent `max_polls` times: sum it from the input (the fallback), or give up.
        if workgroupUniformLoad(&stalled) == 1u {
            if params.fallback == 0u {
                if id == 0u {
                    atomicAdd(&stats.give_ups, 1u);
                    found = 1u;
                }
            } else {
                let silent = look_at;
                let sum = tile_sum(silent, slot, lane, size, id); // step: fallback
                if id == 0u {
                    atomicAdd(&stats.fallbacks, 1u);
                    // Tile 0's sum is its inclusive prefix.
                    post(silent, select(AGGREGATE, INCLUSIVE, silent == 0u), sum);
                    prefix += sum;
                    polls = 0u;
                    stalled = 0u;
                    look_at = silent - 1u;
                    found = select(0u, 1u, silent == 0u);
                }
            }
        }
    }

    // 5. Post the inclusive prefix, then write every value with what came before it.
    let before = workgroupUniformLoad(&prefix);
    if id == 0u {
        if tile > 0u {
            post(tile, INCLUSIVE, before + aggregate); // step: inclusive
        }
        atomicAdd(&stats.depth[min(windows, 7u)], 1u);
    }
    for (var k = 0u; k < VECS_PER_INVOCATION; k++) {
        let i = first + k * size + lane;
        if i < params.vecs {
            output[i] = sums[k] + vec4(before + earlier); // step: write
        }
    }
}
