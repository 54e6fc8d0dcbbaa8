// The atomic increment, instrumented: one ticket from `clock` before the atomicAdd, then a
// record of the value it replaced and the value it left.

struct Params {
    invocations: u32,
}

struct AccessRecord {
    loaded: u32,
    stored: u32,
    load_ticket: u32,
    store_ticket: u32,
}

@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
@group(0) @binding(1) var<uniform> params: Params;
@group(0) @binding(2) var<storage, read_write> clock: atomic<u32>;
@group(0) @binding(3) var<storage, read_write> records: array<AccessRecord>;

override workgroup_size: u32 = 16u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i >= params.invocations {
        return;
    }
    let ticket = atomicAdd(&clock, 1u);
    let before = atomicAdd(&counter, 1u); // step: atomic-add
    records[i] = AccessRecord(before, before + 1u, ticket, ticket);
}

// playground: workgroup_size=4
