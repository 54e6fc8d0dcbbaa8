// A whole array's inclusive scan in one dispatch: decoupled look-back with a fallback.
//
// Each workgroup sums its tile (8,192 values) and posts the sum, scans the tile in registers
// with subgroup operations, then looks back at the tiles before it until one has posted its
// inclusive prefix; it adds what it passed and posts its own inclusive prefix. Should a tile it
// waits on stay silent (its workgroup not running), the fallback sums that tile from the input
// itself and posts it: nothing waits on a workgroup forever.
//
// Which tile: with `tickets`, the next from an atomic counter, so a tile only waits on tiles
// that started (the way without the fallback needs that), at the cost of a round trip before
// the first load. Otherwise the workgroup id: the fallback sums any tile not yet started.
//
// A tile's post is two atomic words, each 16 bits of its value under the state, so a look needs
// no other write made visible first. A look trusts a tile when both words carry one state; two
// halves from two posts (its own, a fallback's) agree, as every post of one state for one tile
// carries the same value. A state only moves forward (not ready < aggregate < inclusive
// prefix): every post is an atomicMax.
enable subgroups;

struct Params {
    // Input length in vec4s (the values, padded with zeros to a multiple of 4).
    vecs: u32,
    tiles: u32,
    // 1: a tile that stays silent is summed from the input; 0: give up after `max_polls`.
    fallback: u32,
    // Looks at one silent tile before the fallback (or the give-up); with 0 every tile counts
    // as silent and is summed (how the tests run the fallback on any GPU).
    max_polls: u32,
}

struct Stats {
    // Tickets handed out (none where tiles go by workgroup id).
    next_tile: atomic<u32>,
    fallbacks: atomic<u32>,
    give_ups: atomic<u32>,
    // How many looks each look-back took: [1], [2] … [7 or more]; [0] is tile 0.
    depth: array<atomic<u32>, 8>,
}

const NOT_READY: u32 = 0u;
const AGGREGATE: u32 = 1u;
const INCLUSIVE: u32 = 2u;
const VECS_PER_INVOCATION: u32 = 8u;
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
// Each workgroup's tile: a ticket from `next_tile` (true) or its workgroup id. A pipeline
// constant, so each way has code of its own (a branch on a uniform cost 6 % on an H100).
override tickets: bool = false;

var<workgroup> ticket: u32;
var<workgroup> slots_taken: atomic<u32>;
var<workgroup> tile_sum: atomic<u32>;
var<workgroup> subgroup_sums: array<u32, MAX_SUBGROUPS>;
var<workgroup> prefix: u32;

fn post(tile: u32, state: u32, value: u32) {
    atomicMax(&flags[2u * tile], (state << 16u) | (value & 0xffffu));
    atomicMax(&flags[2u * tile + 1u], (state << 16u) | (value >> 16u));
}

// Vec4 `k` of this lane's run in `tile`, as the tile scan reads them.
fn index(tile: u32, slot: u32, size: u32, k: u32, lane: u32) -> u32 {
    return tile * workgroup_size * VECS_PER_INVOCATION + slot * size * VECS_PER_INVOCATION + k * size + lane;
}

fn load(i: u32) -> vec4<u32> {
    return select(vec4(0u), input[min(i, params.vecs - 1u)], i < params.vecs);
}

fn store(i: u32, v: vec4<u32>) {
    if i < params.vecs {
        output[i] = v;
    }
}

// A vec4 scanned in the lane: its four values added up left to right.
fn within(v: vec4<u32>) -> vec4<u32> {
    return vec4(v.x, v.x + v.y, v.x + v.y + v.z, v.x + v.y + v.z + v.w);
}

// The look-back, by the first subgroup alone, with no barrier. One look reads a subgroup's
// width of tiles at once, lane l the tile l places back, and adds them up to the first inclusive
// prefix; a tile not ready stops it there. Returns the tile's exclusive prefix.
//
// Most often the tile holding things up is the nearest one, still loading. Then the look keeps
// what lies behind it, if that reaches an inclusive prefix, and reads only the nearest again.
//
// Every branch depends only on subgroup-wide results and uniforms, so the lanes stay together;
// the browser's uniformity analysis cannot see that, hence the diagnostic switched off.
@diagnostic(off, subgroup_uniformity)
fn look_back(tile: u32, aggregate: u32, lane: u32, size: u32) -> u32 {
    // The sum of the tiles after `at` up to this one, and the nearest tile not yet added.
    var sum = 0u;
    var at = tile - 1u; // step: start
    // Looks in a row that found `at` silent, and looks in all.
    var polls = 0u;
    var looks = 0u;
    // The sum from the tile before `at` back to an inclusive prefix, where a look found it.
    var behind = 0u;
    var have_behind = false;
    loop {
        looks++;
        let width = select(size, 1u, have_behind);
        let t = i32(at) - i32(lane);
        var low = 0u;
        var high = 0u;
        if lane < width && t >= 0 && params.max_polls > 0u {
            low = atomicLoad(&flags[2u * u32(t)]); // step: look
            high = atomicLoad(&flags[2u * u32(t) + 1u]);
        }
        let state = low >> 16u;
        // Both halves posted in one state, or the tile is not ready yet (half posted).
        // Tile 0's own sum is its inclusive prefix, so no look goes past it.
        let ready = t >= 0 && state != NOT_READY && state == (high >> 16u);
        let value = (low & 0xffffu) | (high << 16u);
        let inclusive = lane < width && ready && (state == INCLUSIVE || t == 0);
        let silent = lane < width && t >= 0 && !ready;
        let first_inclusive = subgroupMin(select(size, lane, inclusive));
        let first_silent = subgroupMin(select(size, lane, silent));
        if first_inclusive < first_silent { // step: found
            // Ready all the way to an inclusive prefix.
            sum += subgroupAdd(select(0u, value, lane <= first_inclusive));
            break;
        }
        if have_behind && first_silent != 0u {
            // The nearest tile posted its sum; what lies behind it was found before.
            sum += subgroupAdd(select(0u, value, lane == 0u)) + behind;
            break;
        }
        if first_silent == 0u {
            if !have_behind {
                // Keep what lies behind the silent tile, if it reaches an inclusive prefix.
                let past = subgroupMin(select(size, lane, lane > 0u && silent));
                if first_inclusive < past {
                    behind = subgroupAdd(select(0u, value, lane > 0u && lane <= first_inclusive));
                    have_behind = true;
                }
            }
            polls++; // step: silent
        } else {
            // Ready tiles and no inclusive prefix among them: add them and look further back.
            let take = min(first_silent, width);
            sum += subgroupAdd(select(0u, value, lane < take)); // step: passed
            at -= take; // step: step-back
            polls = 0u;
        }
        if polls < params.max_polls { // step: again
            continue;
        }
        // The same tile silent `max_polls` times: give up, or sum it from the input (the fallback).
        if params.fallback == 0u {
            if lane == 0u {
                atomicAdd(&stats.give_ups, 1u); // step: give-up
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
        let summed = subgroupAdd(part);
        if lane == 0u {
            atomicAdd(&stats.fallbacks, 1u); // step: tally
            // Tile 0's sum is its inclusive prefix.
            post(at, select(AGGREGATE, INCLUSIVE, at == 0u), summed); // step: rescue
        }
        sum += summed; // step: add-rescued
        if have_behind {
            sum += behind;
            break;
        }
        if at == 0u {
            break;
        }
        at -= 1u;
        polls = 0u;
    }
    if lane == 0u {
        post(tile, INCLUSIVE, sum + aggregate); // step: inclusive
        atomicAdd(&stats.depth[min(looks, 7u)], 1u);
    }
    return sum;
}

@compute @workgroup_size(workgroup_size)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) id: u32,
        @builtin(subgroup_size) size: u32, @builtin(subgroup_invocation_id) lane: u32) {
    var tile = group.x; // step: by-id
    if tickets {
        if id == 0u {
            ticket = atomicAdd(&stats.next_tile, 1u); // step: ticket
        }
        tile = workgroupUniformLoad(&ticket);
    }
    if tile >= params.tiles {
        return;
    }
    // Each subgroup takes a slot: its place in the tile, whatever invocations the GPU put in it.
    var taken = 0u;
    if lane == 0u {
        taken = atomicAdd(&slots_taken, 1u);
    }
    let slot = subgroupBroadcastFirst(taken);

    // 1. The tile in registers, every load issued first (named values: one driver kept an
    // array in memory, at a third of the speed). A tile inside the input loads plainly; only
    // the last can need its bounds checked. One branch for all eight loads (and stores): chosen
    // load by load, an H200's driver worked out every address twice and took 62 registers; as
    // one branch it takes 46, so five workgroups fit a multiprocessor where four did.
    let full = (tile + 1u) * workgroup_size * VECS_PER_INVOCATION <= params.vecs;
    var v0: vec4<u32>;
    var v1: vec4<u32>;
    var v2: vec4<u32>;
    var v3: vec4<u32>;
    var v4: vec4<u32>;
    var v5: vec4<u32>;
    var v6: vec4<u32>;
    var v7: vec4<u32>;
    if full {
        v0 = input[index(tile, slot, size, 0u, lane)]; // step: load
        v1 = input[index(tile, slot, size, 1u, lane)];
        v2 = input[index(tile, slot, size, 2u, lane)];
        v3 = input[index(tile, slot, size, 3u, lane)];
        v4 = input[index(tile, slot, size, 4u, lane)];
        v5 = input[index(tile, slot, size, 5u, lane)];
        v6 = input[index(tile, slot, size, 6u, lane)];
        v7 = input[index(tile, slot, size, 7u, lane)];
    } else {
        v0 = load(index(tile, slot, size, 0u, lane));
        v1 = load(index(tile, slot, size, 1u, lane));
        v2 = load(index(tile, slot, size, 2u, lane));
        v3 = load(index(tile, slot, size, 3u, lane));
        v4 = load(index(tile, slot, size, 4u, lane));
        v5 = load(index(tile, slot, size, 5u, lane));
        v6 = load(index(tile, slot, size, 6u, lane));
        v7 = load(index(tile, slot, size, 7u, lane));
    }

    // 2. The tile's sum, posted before the scan so later tiles find it sooner (on an H200: 87 %
    // of a copy's speed at 2^24 values, not 82). Each subgroup adds its part into one workgroup
    // atomic, and one load after the barrier reads the whole: a loop over the subgroups' sums
    // there, on every tile's way to its post, cost about a point at every size (89.9 % at 2^24
    // against 88.5).
    let lane_total = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7;
    let part = subgroupAdd(lane_total.x + lane_total.y + lane_total.z + lane_total.w);
    if lane == 0u {
        atomicAdd(&tile_sum, part);
    }
    workgroupBarrier();
    if tile != 0u && id == 0u {
        post(tile, AGGREGATE, atomicLoad(&tile_sum)); // step: aggregate
    }

    // 3. Each subgroup scans its run in registers; the runs' totals give each its offset.
    // A row is one vec4 a lane across the subgroup: each vec4 is scanned in its lane, then the
    // rows' lane totals across the subgroup, four rows in one vec4 scan. (Eight scans of one
    // row each made a tile's scan 1.2 us long on an H200, on every tile's way from its loads to
    // its stores; two take 0.4 us, and the kernel went from 87.4 % of a copy's speed at 2^24
    // values to 88.9 %.)
    let w0 = within(v0);
    let w1 = within(v1);
    let w2 = within(v2);
    let w3 = within(v3);
    let w4 = within(v4);
    let w5 = within(v5);
    let w6 = within(v6);
    let w7 = within(v7);
    // Component k: row k (or 4 + k) summed across the lanes up to this one.
    let through_low = subgroupInclusiveAdd(vec4(w0.w, w1.w, w2.w, w3.w));
    let through_high = subgroupInclusiveAdd(vec4(w4.w, w5.w, w6.w, w7.w));
    // Each row's total, from the last lane; then the rows before each row.
    let rows_low = subgroupShuffle(through_low, size - 1u);
    let rows_high = subgroupShuffle(through_high, size - 1u);
    let before1 = rows_low.x;
    let before2 = before1 + rows_low.y;
    let before3 = before2 + rows_low.z;
    let before4 = before3 + rows_low.w;
    let before5 = before4 + rows_high.x;
    let before6 = before5 + rows_high.y;
    let before7 = before6 + rows_high.z;
    let running = before7 + rows_high.w;
    v0 = w0 + vec4(through_low.x - w0.w);
    v1 = w1 + vec4(before1 + through_low.y - w1.w);
    v2 = w2 + vec4(before2 + through_low.z - w2.w);
    v3 = w3 + vec4(before3 + through_low.w - w3.w);
    v4 = w4 + vec4(before4 + through_high.x - w4.w);
    v5 = w5 + vec4(before5 + through_high.y - w5.w);
    v6 = w6 + vec4(before6 + through_high.z - w6.w);
    v7 = w7 + vec4(before7 + through_high.w - w7.w);
    if lane == 0u {
        subgroup_sums[slot] = running;
    }
    workgroupBarrier();
    // The tile's sum again, though `tile_sum` holds it: reading that instead, and looping only
    // over the earlier subgroups, was no quicker on an H200 (89.3 % of a copy at 2^24 against
    // 89.6-89.9), and the other subgroups run this loop while slot 0 looks back.
    var earlier = 0u;
    var aggregate = 0u;
    for (var s = 0u; s < workgroup_size / size; s++) {
        earlier += select(0u, subgroup_sums[s], s < slot);
        aggregate += subgroup_sums[s];
    }

    // Tile 0's sum is its inclusive prefix; every other tile looks back for its exclusive one.
    if tile == 0u { // step: first-tile
        if id == 0u {
            post(0u, INCLUSIVE, aggregate); // step: post
            atomicAdd(&stats.depth[0], 1u);
        }
    } else if slot == 0u {
        let before = look_back(tile, aggregate, lane, size);
        if lane == 0u {
            prefix = before;
        }
    }

    // 4. Every value with what came before it: a tile inside the input stores plainly too,
    // under the same branch as its loads.
    let before = vec4(workgroupUniformLoad(&prefix) + earlier);
    if full {
        output[index(tile, slot, size, 0u, lane)] = v0 + before; // step: write
        output[index(tile, slot, size, 1u, lane)] = v1 + before;
        output[index(tile, slot, size, 2u, lane)] = v2 + before;
        output[index(tile, slot, size, 3u, lane)] = v3 + before;
        output[index(tile, slot, size, 4u, lane)] = v4 + before;
        output[index(tile, slot, size, 5u, lane)] = v5 + before;
        output[index(tile, slot, size, 6u, lane)] = v6 + before;
        output[index(tile, slot, size, 7u, lane)] = v7 + before;
    } else {
        store(index(tile, slot, size, 0u, lane), v0 + before);
        store(index(tile, slot, size, 1u, lane), v1 + before);
        store(index(tile, slot, size, 2u, lane), v2 + before);
        store(index(tile, slot, size, 3u, lane), v3 + before);
        store(index(tile, slot, size, 4u, lane), v4 + before);
        store(index(tile, slot, size, 5u, lane), v5 + before);
        store(index(tile, slot, size, 6u, lane), v6 + before);
        store(index(tile, slot, size, 7u, lane), v7 + before);
    }
}

// playground: workgroups=2 workgroup_size=32 elements=512 params=512,2,1,4 input=index
