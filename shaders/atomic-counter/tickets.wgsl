// Every invocation takes a ticket: atomicAdd returns the value it replaced, so no two
// invocations can get the same number, and the numbers run 0, 1, 2, … in the order the GPU
// served the calls. Each invocation writes its ticket into its own slot.

struct Params {
    invocations: u32,
}

@group(0) @binding(0) var<storage, read_write> next: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> tickets: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= params.invocations {
        return;
    }
    let ticket = atomicAdd(&next, 1u); // step: take
    tickets[id.x] = ticket; // step: record
}

// playground: workgroups=2 workgroup_size=4
