// A kernel to change. Every invocation adds one to `total`: a load, then a store of its own.
// Step it: where two invocations load the same value, one store erases the other's update, and
// the race is named with both its lines. Then make `total` an atomic<u32>, write
// atomicAdd(&total, 1u) in place of the sum, and step it again.

@group(0) @binding(0) var<storage, read_write> total: u32;
@group(0) @binding(1) var<storage, read_write> seen: array<u32>;

// The workgroup's size, an override as in every kernel of the site: 4 unless the page sets it.
override workgroup_size: u32 = 4u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    total = total + 1u;
    seen[id.x] = id.x;
}
