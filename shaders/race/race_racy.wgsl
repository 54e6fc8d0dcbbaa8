// counter++ written out the way the hardware does it: load, add, store.
// Each access is atomic on its own, but nothing stops another invocation from
// storing between this invocation's load and its store: its update is then lost.

struct Params {
    invocations: u32,
}

@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
@group(0) @binding(1) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= params.invocations {
        return;
    }
    var value = atomicLoad(&counter); // step: load
    value = value + 1u; // step: add
    atomicStore(&counter, value); // step: store
}

// playground: workgroup_size=4
