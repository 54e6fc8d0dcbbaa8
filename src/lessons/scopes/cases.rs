//! Message passing between two threads with release and acquire at one scope, the consumer in
//! the producer's workgroup or in another: which scope covers whom, as the visibility model
//! steps it.

use crate::lessons::litmus::method::Method;

pub const CASES: [Method; 3] = [
    Method {
        id: "workgroup-across",
        label: "Workgroup scope, another workgroup (wrong)",
        cuda: "// cuda::atomic<int, cuda::thread_scope_block> flag;\n// block 0, producer\ndata = 42;\nflag.store(1, cuda::std::memory_order_release);\n\n// block 1, consumer\nwhile (flag.load(cuda::std::memory_order_acquire) == 0);\nresult = data;",
        test: "T0@wg0: x.store(42, plain); y.store(1, release, workgroup) | T1@wg1: r0 = y.load(acquire, workgroup); r1 = x.load(plain)",
        reading: "The release reaches T0's workgroup and the acquire T1's. Neither holds the other thread, so the two do not synchronise.",
        safe: false,
    },
    Method {
        id: "device-across",
        label: "Device scope, another workgroup",
        cuda: "// cuda::atomic<int, cuda::thread_scope_device> flag;\n// block 0, producer\ndata = 42;\nflag.store(1, cuda::std::memory_order_release);\n\n// block 1, consumer\nwhile (flag.load(cuda::std::memory_order_acquire) == 0);\nresult = data;",
        test: "T0@wg0: x.store(42, plain); y.store(1, release, device) | T1@wg1: r0 = y.load(acquire, device); r1 = x.load(plain)",
        reading: "Both ends at device scope, which holds every workgroup: the acquire that reads the release takes in T0's view.",
        safe: true,
    },
    Method {
        id: "workgroup-within",
        label: "Workgroup scope, one workgroup",
        cuda: "// cuda::atomic<int, cuda::thread_scope_block> flag;\n// both in block 0\nif (threadIdx.x == 0) { data = 42; flag.store(1, cuda::std::memory_order_release); }\nif (threadIdx.x == 32) { while (flag.load(cuda::std::memory_order_acquire) == 0); result = data; }",
        test: "T0@wg0: x.store(42, plain); y.store(1, release, workgroup) | T1@wg0: r0 = y.load(acquire, workgroup); r1 = x.load(plain)",
        reading: "Workgroup scope is enough when both threads are in it: the narrowest scope that holds both is the cheapest that works.",
        safe: true,
    },
];
