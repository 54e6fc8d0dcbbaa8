// The tree of the reduction lesson, one workgroup, every step recorded. Each invocation
// loads its value into workgroup memory; then, stride by stride (half the workgroup, then a
// quarter, … then 1), the invocations below the stride add the cell `stride` places up into
// their own. A barrier after each step makes the sums visible before anyone reads them, and
// after it each invocation copies its cell out, so the page can show the table step by step.

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> snapshots: array<u32>;

// The widest workgroup the lesson traces.
const MAX_WIDTH: u32 = 256u;
var<workgroup> cells: array<u32, MAX_WIDTH>;

override workgroup_size: u32 = 8u;

@compute @workgroup_size(workgroup_size)
fn main(@builtin(local_invocation_index) id: u32) {
    var value = input[id]; // step: load
    cells[id] = value; // step: store
    var stride = workgroup_size / 2u; // step: stride
    workgroupBarrier(); // step: barrier-loaded
    snapshots[id] = cells[id];
    var row = 1u;
    loop {
        if stride == 0u { break; } // step: loop
        if id < stride { // step: active
            let other = cells[id + stride]; // step: other
            value = value + other; // step: add
            cells[id] = value; // step: write
        }
        workgroupBarrier(); // step: barrier-step
        snapshots[row * workgroup_size + id] = cells[id];
        row = row + 1u;
        stride = stride / 2u; // step: halve
        continue; // step: next
    }
}

// playground: workgroup_size=8 elements=32 input=3,1,4,1,5,9,2,6
