//! A CUDA lock handed from one holder to the next, as the test the visibility model steps:
//! T0 leaves the critical section (it wrote the data `x`) and lets go of the lock word `y`;
//! T1 takes the lock and reads `x`. Whether T1 can hold the lock and still read the data from
//! before is the message-passing question, with the lock word as the flag: in the model `y` is
//! 1 once T0 has let go, and T1's successful compare-exchange is its read of that 1.

use crate::lessons::litmus::method::Method;

pub const LOCK_METHODS: [Method; 4] = [
    Method {
        id: "fenced-lock",
        label: "atomicCAS, atomicExch and __threadfence() (right)",
        cuda: "// T0, leaving the critical section\ndata = 42;\n__threadfence();                       // its writes before the lock's release\natomicExch(&lock, 0);                  // let go\n\n// T1, entering\nwhile (atomicCAS(&lock, 0, 1) != 0);   // take it (bound it, in real code)\n__threadfence();                       // the lock before the data\nint seen = data;",
        test: "T0@wg0: x.store(42, plain); __threadfence(); y = 1 | T1@wg1: r0 = y; __threadfence(); r1 = x.load(plain)",
        reading: "atomicExch and atomicCAS are relaxed; each __threadfence() is a sequentially consistent fence at device scope, one on each side of the handover.",
        safe: true,
    },
    Method {
        id: "acquire-release-lock",
        label: "cuda::atomic: acquire to take, release to let go (right)",
        cuda: "// cuda::atomic<int, cuda::thread_scope_device> lock;\n// T0, leaving\ndata = 42;\nlock.store(0, cuda::std::memory_order_release);\n\n// T1, entering\nint free = 0;\nwhile (!lock.compare_exchange_weak(free, 1, cuda::std::memory_order_acquire)) free = 0;\nint seen = data;",
        test: "T0@wg0: x.store(42, plain); y.store(1, release, device) | T1@wg1: r0 = y.load(acquire, device); r1 = x.load(plain)",
        reading: "A release store lets go and an acquire compare-exchange takes the lock, both at device scope: the order is in the lock's own accesses, with no fence.",
        safe: true,
    },
    Method {
        id: "unfenced-lock",
        label: "atomicCAS and atomicExch alone (wrong)",
        cuda: "// T0, leaving\ndata = 42;\natomicExch(&lock, 0);\n\n// T1, entering\nwhile (atomicCAS(&lock, 0, 1) != 0);\nint seen = data;",
        test: "T0@wg0: x.store(42, plain); y = 1 | T1@wg1: r0 = y; r1 = x.load(plain)",
        reading: "The lock still excludes, one holder at a time; but relaxed atomics order nothing else, so the data and the lock word travel apart.",
        safe: false,
    },
    Method {
        id: "release-fence-only",
        label: "__threadfence() on letting go only (wrong)",
        cuda: "// T0, leaving\ndata = 42;\n__threadfence();\natomicExch(&lock, 0);\n\n// T1, entering: no fence after taking the lock\nwhile (atomicCAS(&lock, 0, 1) != 0);\nint seen = data;",
        test: "T0@wg0: x.store(42, plain); __threadfence(); y = 1 | T1@wg1: r0 = y; r1 = x.load(plain)",
        reading: "The holder's fence orders its own writes; the next holder's read of the data is still free to come before its read of the lock.",
        safe: false,
    },
];
