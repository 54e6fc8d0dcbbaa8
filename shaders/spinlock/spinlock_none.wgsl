// counter++ with no lock at all: the same load, add and store as the locked kernels, and the
// same instrumentation, so the three can be compared side by side. Every invocation enters;
// `overlaps` counts those that found another one still between its load and its store.

struct Params {
    invocations: u32,
}

struct Stats {
    entered: atomic<u32>,
    gave_up: atomic<u32>,
    inside: atomic<u32>,
    overlaps: atomic<u32>,
}

@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> stats: Stats;
@group(0) @binding(2) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= params.invocations {
        return;
    }
    atomicAdd(&stats.entered, 1u);
    if atomicAdd(&stats.inside, 1u) != 0u { atomicAdd(&stats.overlaps, 1u); }
    var value = atomicLoad(&counter); // step: load
    value = value + 1u; // step: add
    atomicStore(&counter, value); // step: store
    atomicSub(&stats.inside, 1u);
}

// playground: workgroup_size=4
