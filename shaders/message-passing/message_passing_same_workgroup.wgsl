// Message passing within one workgroup, with storageBarrier() between the writes and between
// the reads. The first barrier puts every data write of the workgroup before every data read,
// so a reader always sees the data: flag 0 / data 1 and flag 1 / data 1 are the only outcomes
// WGSL allows here. Each reader takes the instance of the lane half a workgroup away.

struct Params {
    workgroups: u32,
    lane_step: u32, // unused here: the reader's lane is fixed
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
    // The reader's instance: written by the lane half a workgroup away, in this workgroup.
    let theirs = role * workgroup_size + (lane + workgroup_size / 2u) % workgroup_size;

    // Wait, a bounded while, until the writer of the instance this one reads has started.
    atomicStore(&arrived[mine], 1u);
    for (var i = 0u; i < params.spin_limit; i++) {
        if atomicLoad(&arrived[theirs]) != 0u { break; }
    }

    atomicStore(&locations[data_slot(mine)], 1u); // step: write-data
    storageBarrier(); // step: barrier-write
    atomicStore(&locations[flag_slot(mine)], 1u); // step: write-flag
    let flag = atomicLoad(&locations[flag_slot(theirs)]); // step: read-flag
    storageBarrier(); // step: barrier-read
    let data = atomicLoad(&locations[data_slot(theirs)]); // step: read-data
    atomicAdd(&outcomes[2u * min(flag, 1u) + min(data, 1u)], 1u);
}

// playground: workgroups=2 workgroup_size=4 elements=16 params=2,3,3,8 shuffle=index
