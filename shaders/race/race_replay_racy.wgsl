// The racy increment, instrumented. Before each access the invocation takes a ticket from
// `clock`, a second atomic counter, and afterwards it writes down what it loaded, what it
// stored and both tickets. Sorting by ticket gives an order the GPU served the accesses in.
//
// `clock` and `counter` are different locations and all WGSL atomics are relaxed, so the
// ticket order need not match the order `counter` saw: the replay marks where they differ.

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
    let load_ticket = atomicAdd(&clock, 1u);
    var value = atomicLoad(&counter); // step: load
    let loaded = value;
    value = value + 1u; // step: add
    let store_ticket = atomicAdd(&clock, 1u);
    atomicStore(&counter, value); // step: store
    records[i] = AccessRecord(loaded, value, load_ticket, store_ticket);
}

// playground: workgroup_size=4
