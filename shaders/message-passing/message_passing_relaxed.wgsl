// Message passing across workgroups, with relaxed atomics only. Every invocation plays both
// parts: it writes its own test instance (data, then flag) and reads another instance (flag,
// then data) whose writer is in a different workgroup. What it read is counted on the GPU, in
// outcomes[2 × flag + data]: 0 reader first, 1 interleaved, 2 weak, 3 writer first.

struct Params {
    workgroups: u32,
    lane_step: u32, // coprime with the workgroup size: permutes the lanes a reader picks
    flag_step: u32, // coprime with the instance count: puts each flag far from its data
    spin_limit: u32,
}

@group(0) @binding(0) var<storage, read_write> locations: array<atomic<u32>>; // data at 2i, flags at odd slots
@group(0) @binding(1) var<storage, read> shuffle: array<u32>; // the workgroup each one plays
@group(0) @binding(2) var<storage, read_write> arrived: array<atomic<u32>>; // one per instance
@group(0) @binding(3) var<storage, read_write> outcomes: array<atomic<u32>, 4>;
@group(0) @binding(4) var<uniform> params: Params;

override workgroup_size: u32 = 256u;

fn data_slot(i: u32) -> u32 {
    return 2u * i;
}

fn flag_slot(i: u32) -> u32 {
    return 2u * ((i * params.flag_step) % (params.workgroups * workgroup_size)) + 1u;
}

@compute @workgroup_size(workgroup_size)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lane: u32) {
    let role = shuffle[wid.x];
    let mine = role * workgroup_size + lane;
    // The reader's instance: written by another workgroup (1 to n - 1 ahead), at a permuted lane.
    let other = (role + 1u + lane % (params.workgroups - 1u)) % params.workgroups;
    let theirs = other * workgroup_size + (lane * params.lane_step) % workgroup_size;

    // Wait, a bounded while, until the writer of the instance this one reads has started.
    atomicStore(&arrived[mine], 1u);
    for (var i = 0u; i < params.spin_limit; i++) {
        if atomicLoad(&arrived[theirs]) != 0u { break; }
    }

    atomicStore(&locations[data_slot(mine)], 1u); // step: write-data
    atomicStore(&locations[flag_slot(mine)], 1u); // step: write-flag
    let flag = atomicLoad(&locations[flag_slot(theirs)]); // step: read-flag
    let data = atomicLoad(&locations[data_slot(theirs)]); // step: read-data
    atomicAdd(&outcomes[2u * min(flag, 1u) + min(data, 1u)], 1u);
}

// playground: workgroups=2 workgroup_size=4 elements=16 params=2,3,3,8 shuffle=index
