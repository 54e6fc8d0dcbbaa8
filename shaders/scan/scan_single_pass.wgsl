// A whole array's inclusive scan in one dispatch: decoupled look-back with a fallback.
//
// Each workgroup takes a ticket (its tile, 8,192 values), scans the tile in registers with
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
    // How many looks at the same silent tile before the fallback (or the give-up); with 0 no
    // tile is looked at, each counts as silent and the fallback sums it (how the tests run the
    // fallback on a GPU that never leaves a tile silent).
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
const VECS_PER_INVOCATION: u32 = 8u;
// A look reads this many rows of a subgroup's width of tiles: 128 tiles with subgroups of 32.
const WINDOW_ROWS: u32 = 4u;
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
var<workgroup> prefix: u32;

fn post(tile: u32, state: u32, value: u32) {
    atomicMax(&flags[2u * tile], (state << 16u) | (value & 0xffffu));
    atomicMax(&flags[2u * tile + 1u], (state << 16u) | (value >> 16u));
}

// Vec4 `k` of this lane's run in `tile` (0 past the end), as the tile scan reads them.
fn index(tile: u32, slot: u32, size: u32, k: u32, lane: u32) -> u32 {
    return tile * workgroup_size * VECS_PER_INVOCATION + slot * size * VECS_PER_INVOCATION + k * size + lane;
}

fn load(i: u32) -> vec4<u32> {
    return select(vec4(0u), input[min(i, params.vecs - 1u)], i < params.vecs);
}

// The look-back, by the first subgroup alone, with no barrier: it reads a window of tiles at
// once (four a lane, nearest first) and adds them up to the first inclusive prefix; a tile not
// ready stops the window there. Returns the tile's exclusive prefix.
//
// Every branch and the loop's end depend only on subgroup-wide results (subgroupMin,
// subgroupAdd) and uniforms, so the lanes of the subgroup stay together throughout; the
// browser's uniformity analysis cannot see that, hence the diagnostic switched off here.
@diagnostic(off, subgroup_uniformity)
fn look_back(tile: u32, aggregate: u32, lane: u32, size: u32) -> u32 {
    var sum = 0u;
    var at = tile - 1u;
    var polls = 0u;
    var windows = 0u;
    loop {
        windows++;
        // One look: every load issued at once, row r lane l reading tile `at - (r × size + l)`.
        // After a look that found the nearest tile silent, only that tile is read again (one
        // lane's two loads, not a window's), until it has posted.
        let rows = select(1u, WINDOW_ROWS, polls == 0u);
        let width = select(1u, size, polls == 0u);
        var low: array<u32, WINDOW_ROWS>;
        var high: array<u32, WINDOW_ROWS>;
        for (var r = 0u; r < WINDOW_ROWS; r++) {
            let t = i32(at) - i32(r * size + lane);
            if r < rows && lane < width && t >= 0 && params.max_polls > 0u {
                low[r] = atomicLoad(&flags[2u * u32(t)]); // step: look
                high[r] = atomicLoad(&flags[2u * u32(t) + 1u]);
            }
        }
        // The rows nearest first: each adds its tiles up to the first inclusive prefix if one
        // comes before any silent tile, else up to the first silent one, which ends the look.
        var moved = 0u;
        var found = false;
        for (var r = 0u; r < WINDOW_ROWS; r++) {
            if r >= rows {
                break;
            }
            let t = i32(at) - i32(r * size + lane);
            let state = low[r] >> 16u;
            // Both halves posted in one state, or the tile is not ready yet (half posted).
            // Tile 0's own sum is its inclusive prefix, so no look goes past it.
            let ready = t >= 0 && state != NOT_READY && state == (high[r] >> 16u);
            let first_inclusive = subgroupMin(select(size, lane, lane < width && ready && (state == INCLUSIVE || t == 0)));
            let first_silent = subgroupMin(select(size, lane, lane < width && t >= 0 && !ready));
            let take = min(select(first_silent, first_inclusive + 1u, first_inclusive < first_silent), width);
            sum += subgroupAdd(select(0u, (low[r] & 0xffffu) | (high[r] << 16u), lane < take));
            moved += take;
            if first_inclusive < min(first_silent, width) {
                found = true;
                break;
            }
            if take < width {
                break;
            }
        }
        if found {
            break;
        }
        if moved == 0u {
            polls++;
        } else {
            at -= moved;
            polls = 0u;
        }
        if polls < params.max_polls {
            continue;
        }
        // The same tile silent `max_polls` times: give up, or sum it from the input (the fallback).
        if params.fallback == 0u {
            if lane == 0u {
                atomicAdd(&stats.give_ups, 1u);
            }
            break;
        }
        var part = 0u;
        for (var slot = 0u; slot < workgroup_size / size; slot++) {
            for (var k = 0u; k < VECS_PER_INVOCATION; k++) {
                let v = load(index(at, slot, size, k, lane)); // step: fallback
                part += v.x + v.y + v.z + v.w;
            }
        }
        let silent = subgroupAdd(part);
        if lane == 0u {
            atomicAdd(&stats.fallbacks, 1u);
            // Tile 0's sum is its inclusive prefix.
            post(at, select(AGGREGATE, INCLUSIVE, at == 0u), silent);
        }
        sum += silent;
        if at == 0u {
            break;
        }
        at -= 1u;
        polls = 0u;
    }
    if lane == 0u {
        post(tile, INCLUSIVE, sum + aggregate); // step: inclusive
        atomicAdd(&stats.depth[min(windows, 7u)], 1u);
    }
    return sum;
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

    // 1. The tile in registers: every vec4 load issued first, then each subgroup scans its run.
    var sums: array<vec4<u32>, VECS_PER_INVOCATION>;
    for (var k = 0u; k < VECS_PER_INVOCATION; k++) {
        sums[k] = load(index(tile, slot, size, k, lane)); // step: load
    }
    var running = 0u;
    for (var k = 0u; k < VECS_PER_INVOCATION; k++) {
        let v = sums[k];
        let within = vec4(v.x, v.x + v.y, v.x + v.y + v.z, v.x + v.y + v.z + v.w);
        sums[k] = within + vec4(running + subgroupExclusiveAdd(within.w));
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

    // 2. Post the tile's sum (for tile 0, its inclusive prefix), then look back.
    if tile == 0u {
        if id == 0u {
            post(0u, INCLUSIVE, aggregate); // step: post
            atomicAdd(&stats.depth[0], 1u);
        }
    } else if slot == 0u {
        if lane == 0u {
            post(tile, AGGREGATE, aggregate);
        }
        let before = look_back(tile, aggregate, lane, size);
        if lane == 0u {
            prefix = before;
        }
    }

    // 3. Every value with what came before it.
    let before = workgroupUniformLoad(&prefix) + earlier;
    for (var k = 0u; k < VECS_PER_INVOCATION; k++) {
        let i = index(tile, slot, size, k, lane);
        if i < params.vecs {
            output[i] = sums[k] + vec4(before); // step: write
        }
    }
}
