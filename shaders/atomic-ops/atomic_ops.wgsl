// Every WGSL atomic on one cell. Each invocation applies the op the reader picked, with its
// own operand, and records what the op returned: for every op but atomicStore that is the
// value the cell held just before, which tells where in the order the invocation ran.

struct Params {
    invocations: u32,
    // Which atomic, in the page's order: 0 load, 1 store, 2 add, 3 sub, 4 max, 5 min,
    // 6 and, 7 or, 8 xor, 9 exchange, 10 compareExchangeWeak.
    op: u32,
    // 1: the i32 cell, 0: the u32 cell. Values travel as their 32 bits either way.
    is_i32: u32,
    // The value compareExchangeWeak expects to find.
    compare: u32,
}

struct Cells {
    as_u32: atomic<u32>,
    as_i32: atomic<i32>,
}

// What one invocation got back: the old value's bits, and whether compareExchangeWeak swapped.
struct Returned {
    old: u32,
    exchanged: u32,
}

@group(0) @binding(0) var<storage, read_write> cells: Cells;
@group(0) @binding(1) var<storage, read> operands: array<u32>;
@group(0) @binding(2) var<storage, read_write> olds: array<u32>;
@group(0) @binding(3) var<storage, read_write> exchanged: array<u32>;
@group(0) @binding(4) var<uniform> params: Params;

override workgroup_size: u32 = 64u;

fn on_u32(v: u32, expected: u32) -> Returned {
    let p = &cells.as_u32;
    switch params.op {
        case 0u: { return Returned(atomicLoad(p), 0u); } // step: u32-load
        case 1u: { atomicStore(p, v); return Returned(0u, 0u); } // step: u32-store
        case 2u: { return Returned(atomicAdd(p, v), 0u); } // step: u32-add
        case 3u: { return Returned(atomicSub(p, v), 0u); } // step: u32-sub
        case 4u: { return Returned(atomicMax(p, v), 0u); } // step: u32-max
        case 5u: { return Returned(atomicMin(p, v), 0u); } // step: u32-min
        case 6u: { return Returned(atomicAnd(p, v), 0u); } // step: u32-and
        case 7u: { return Returned(atomicOr(p, v), 0u); } // step: u32-or
        case 8u: { return Returned(atomicXor(p, v), 0u); } // step: u32-xor
        case 9u: { return Returned(atomicExchange(p, v), 0u); } // step: u32-exchange
        default: {
            let r = atomicCompareExchangeWeak(p, expected, v); // step: u32-compare-exchange-weak
            return Returned(r.old_value, u32(r.exchanged));
        }
    }
}

// The same on the i32 cell: max and min compare signed, so 0xFFFFFFFF is -1 here.
fn on_i32(v: i32, expected: i32) -> Returned {
    let p = &cells.as_i32;
    switch params.op {
        case 0u: { return Returned(bitcast<u32>(atomicLoad(p)), 0u); } // step: i32-load
        case 1u: { atomicStore(p, v); return Returned(0u, 0u); } // step: i32-store
        case 2u: { return Returned(bitcast<u32>(atomicAdd(p, v)), 0u); } // step: i32-add
        case 3u: { return Returned(bitcast<u32>(atomicSub(p, v)), 0u); } // step: i32-sub
        case 4u: { return Returned(bitcast<u32>(atomicMax(p, v)), 0u); } // step: i32-max
        case 5u: { return Returned(bitcast<u32>(atomicMin(p, v)), 0u); } // step: i32-min
        case 6u: { return Returned(bitcast<u32>(atomicAnd(p, v)), 0u); } // step: i32-and
        case 7u: { return Returned(bitcast<u32>(atomicOr(p, v)), 0u); } // step: i32-or
        case 8u: { return Returned(bitcast<u32>(atomicXor(p, v)), 0u); } // step: i32-xor
        case 9u: { return Returned(bitcast<u32>(atomicExchange(p, v)), 0u); } // step: i32-exchange
        default: {
            let r = atomicCompareExchangeWeak(p, expected, v); // step: i32-compare-exchange-weak
            return Returned(bitcast<u32>(r.old_value), u32(r.exchanged));
        }
    }
}

@compute @workgroup_size(workgroup_size)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= params.invocations {
        return;
    }
    let operand = operands[id.x]; // step: read-operand
    let expected = params.compare; // step: read-compare
    var r: Returned;
    if params.is_i32 == 1u {
        r = on_i32(bitcast<i32>(operand), bitcast<i32>(expected));
    } else {
        r = on_u32(operand, expected);
    }
    olds[id.x] = r.old; // step: record-old
    exchanged[id.x] = r.exchanged; // step: record-exchanged
}

// playground: workgroup_size=4 params=4,2 operands=1,2,4,8
