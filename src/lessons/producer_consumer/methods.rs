//! CUDA's ways of handing data over with a flag, each as the litmus test the visibility model
//! steps (see [`Method`]): T0 produces in one block, T1 consumes in another.

use crate::lessons::litmus::method::Method;

pub const METHODS: [Method; 6] = [
    Method {
        id: "threadfence",
        label: "__threadfence() + atomics",
        cuda: "// producer\ndata = 42;\n__threadfence();\natomicExch(&flag, 1);\n\n// consumer\nwhile (atomicAdd(&flag, 0) == 0);\n__threadfence();\nresult = data;",
        test: "T0@wg0: x.store(42, plain); __threadfence(); y = 1 | T1@wg1: r0 = y; __threadfence(); r1 = x.load(plain)",
        reading: "__threadfence() is a sequentially consistent fence at device scope; the atomics on the flag are relaxed.",
        safe: true,
    },
    Method {
        id: "release-acquire",
        label: "cuda::atomic release / acquire",
        cuda: "// cuda::atomic<int, cuda::thread_scope_device> flag;\n// producer\ndata = 42;\nflag.store(1, cuda::std::memory_order_release);\n\n// consumer\nwhile (flag.load(cuda::std::memory_order_acquire) == 0);\nresult = data;",
        test: "T0@wg0: x.store(42, plain); y.store(1, release, device) | T1@wg1: r0 = y.load(acquire, device); r1 = x.load(plain)",
        reading: "A release store and an acquire load of the flag, both at device scope.",
        safe: true,
    },
    Method {
        id: "ptx",
        label: "PTX st.release.gpu / ld.acquire.gpu",
        cuda: "// producer\ndata = 42;\nasm volatile(\"st.release.gpu.global.s32 [%0], %1;\" :: \"l\"(&flag), \"r\"(1) : \"memory\");\n\n// consumer\nint seen;\ndo asm volatile(\"ld.acquire.gpu.global.s32 %0, [%1];\" : \"=r\"(seen) : \"l\"(&flag));\nwhile (seen == 0);\nresult = data;",
        test: "T0@wg0: x.store(42, plain); y.store(1, release, device) | T1@wg1: r0 = y.load(acquire, device); r1 = x.load(plain)",
        reading: "The same release and acquire at GPU (device) scope, each one instruction: the order is part of the load and the store, with no separate fence.",
        safe: true,
    },
    Method {
        id: "no-fence",
        label: "No fence (wrong)",
        cuda: "// producer\ndata = 42;\natomicExch(&flag, 1);\n\n// consumer\nwhile (atomicAdd(&flag, 0) == 0);\nresult = data;",
        test: "T0@wg0: x.store(42, plain); y = 1 | T1@wg1: r0 = y; r1 = x.load(plain)",
        reading: "Relaxed atomics on the flag, nothing ordering the data against it.",
        safe: false,
    },
    Method {
        id: "volatile",
        label: "volatile (wrong)",
        cuda: "// volatile int *flag, *data;\n// producer\n*data = 42;\n*flag = 1;\n\n// consumer\nwhile (*flag == 0);\nresult = *data;",
        test: "T0@wg0: x.store(42, relaxed, system); y.store(1, relaxed, system) | T1@wg1: r0 = y.load(relaxed, system); r1 = x.load(relaxed, system)",
        reading: "A volatile access is read as a relaxed one at system scope: the compiler keeps it, but nothing orders it against another address.",
        safe: false,
    },
    Method {
        id: "block-scope",
        label: "Block scope across blocks (wrong)",
        cuda: "// cuda::atomic<int, cuda::thread_scope_block> flag;  // but the consumer is in another block\n// producer\ndata = 42;\nflag.store(1, cuda::std::memory_order_release);\n\n// consumer\nwhile (flag.load(cuda::std::memory_order_acquire) == 0);\nresult = data;",
        test: "T0@wg0: x.store(42, plain); y.store(1, release, workgroup) | T1@wg1: r0 = y.load(acquire, workgroup); r1 = x.load(plain)",
        reading: "Release and acquire at block (workgroup) scope, between two blocks: neither end's scope holds the other thread, so they do not synchronise.",
        safe: false,
    },
];
