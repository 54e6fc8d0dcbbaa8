// The divergent subgroupAdd with the uniformity check left on: the browser's compiler
// refuses it (the invocations that reach subgroupAdd depend on their values), where naga,
// which wgpu uses natively, lets it through. The test suite holds the browser to refusing it.
enable subgroups;

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> totals: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let value = input[gid.x];
    var total = 0u;
    if value >= 4u {
        total = subgroupAdd(value);
    }
    totals[gid.x] = total;
}
