//! `?lesson=cuda-map`: a reference, not a lesson with a model. Each CUDA construct for
//! synchronization, what WGSL offers in its place, what WGSL lacks and how to live without it,
//! and the lesson that shows the WGSL side running.

#[cfg(target_arch = "wasm32")]
pub mod page;
/// The page's words: one constant for each section of `words.html` beside this file, made by
/// `build.rs` (see `docs/words.md`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod words {
    include!(concat!(env!("OUT_DIR"), "/words_cuda_map.rs"));
}

pub const INFO: super::LessonInfo = super::LessonInfo {
    id: "cuda-map",
    title: "CUDA ↔ WGSL, construct by construct",
    summary: "Scopes, barriers, fences, volatile, memory orders, arrive/wait, latches, semaphores, grid sync: what WGSL has, lacks, and does instead.",
    chapter: super::Chapter::Reference,
    kernels: &[],
    #[cfg(not(target_arch = "wasm32"))]
    models: Vec::new,
    preview: None,
    #[cfg(target_arch = "wasm32")]
    page: || leptos::prelude::IntoAny::into_any(page::CudaMap()),
    #[cfg(not(target_arch = "wasm32"))]
    reports: &[],
    #[cfg(not(target_arch = "wasm32"))]
    measured: &[],
};

/// One row of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapRow {
    pub cuda: &'static str,
    pub wgsl: &'static str,
    /// What WGSL does not have here, and what to do instead.
    pub instead: &'static str,
    /// The id of the lesson that shows the WGSL side, where one does.
    pub lesson: Option<&'static str>,
}

pub const ROWS: &[MapRow] = &[
    MapRow {
        cuda: "Thread scopes: cuda::thread_scope_block, _device, _system",
        wgsl: "Workgroup memory (var<workgroup>) is seen by one workgroup; storage buffers by the whole dispatch",
        instead: "No scope on an operation: every WGSL atomic is relaxed, and barriers reach one workgroup. Nothing reaches the host while a dispatch runs; read results back after it ends.",
        lesson: Some("scopes"),
    },
    MapRow {
        cuda: "__shared__",
        wgsl: "var<workgroup>",
        instead: "The same idea. WGSL zeroes workgroup memory before the first invocation reads it; CUDA leaves it undefined.",
        lesson: Some("tiled"),
    },
    MapRow {
        cuda: "__syncthreads()",
        wgsl: "workgroupBarrier() (workgroup memory), storageBarrier() (storage buffers), textureBarrier()",
        instead: "The same wait, split by the memory it orders. WGSL refuses a barrier the compiler cannot prove every invocation reaches (uniform control flow), where CUDA leaves it undefined.",
        lesson: Some("barrier"),
    },
    MapRow {
        cuda: "__syncthreads() in a loop over tiles",
        wgsl: "Two workgroupBarrier() calls per tile",
        instead: "Nothing lacking: one barrier after loading a tile, one before overwriting it.",
        lesson: Some("tiled"),
    },
    MapRow {
        cuda: "__syncwarp(mask)",
        wgsl: "None: workgroupBarrier() for the whole workgroup",
        instead: "No sync within a subgroup and no fixed width (4 to 128, by device): a subgroup call orders no memory, and lanes of one subgroup may read each other's workgroup memory stale. Order it with workgroupBarrier(), which waits for the whole workgroup.",
        lesson: Some("subgroups"),
    },
    MapRow {
        cuda: "__shfl_sync, __shfl_xor_sync, __shfl_up_sync, __shfl_down_sync",
        wgsl: "subgroupShuffle, subgroupShuffleXor, subgroupShuffleUp, subgroupShuffleDown (enable subgroups;)",
        instead: "The same exchange with no lane mask: the active lanes take part. The browser's compiler wants the lane distance of Xor, Up and Down the same in every lane.",
        lesson: Some("subgroups"),
    },
    MapRow {
        cuda: "__ballot_sync, __activemask, __reduce_add_sync",
        wgsl: "subgroupBallot (a vec4<u32>, up to 128 lanes), subgroupBallot(true), subgroupAdd",
        instead: "Where the adapter has the subgroups feature (Chromium 134 and later; not Firefox yet). Inside a branch only the active lanes take part, and Chromium refuses the call there unless the kernel switches its uniformity check off.",
        lesson: Some("subgroups"),
    },
    MapRow {
        cuda: "__threadfence_block()",
        wgsl: "workgroupBarrier() or storageBarrier()",
        instead: "No fence without a wait. Beyond each single location, whose atomic accesses every invocation sees in one order, WGSL orders memory only with its barriers and workgroupUniformLoad(), which contains one; all of them make every invocation of the workgroup wait.",
        lesson: Some("barrier"),
    },
    MapRow {
        cuda: "__threadfence(), __threadfence_system()",
        wgsl: "None",
        instead: "Nothing orders one workgroup's writes for another during a dispatch: a reader may see the flag and old data. End the dispatch: the next one sees all of its writes. Within a dispatch, use only what atomics promise on a single address.",
        lesson: Some("producer-consumer"),
    },
    MapRow {
        cuda: "volatile",
        wgsl: "None",
        instead: "volatile makes every access really happen (no value kept in a register, no load or store dropped) and orders nothing else: other memory operations may still become visible to other threads in a different order. In CUDA it passes a signal only together with a fence: write the data, __threadfence(), then set the flag; the reader sees the flag, calls __threadfence(), then reads the data. cuda::atomic with release and acquire is the modern way. WGSL has no volatile: use atomics for values other invocations change, and end the dispatch to hand data to another workgroup.",
        lesson: Some("producer-consumer"),
    },
    MapRow {
        cuda: "atomicAdd, atomicMax, atomicCAS … on int, unsigned, float, 64-bit",
        wgsl: "atomicAdd, atomicMax, atomicCompareExchangeWeak … on atomic<u32> and atomic<i32>",
        instead: "No float or 64-bit atomics in the core language: build float max or add from atomicCompareExchangeWeak on the bits in a bounded loop.",
        lesson: Some("atomic-ops"),
    },
    MapRow {
        cuda: "atomicCAS",
        wgsl: "atomicCompareExchangeWeak, returning { old_value, exchanged }",
        instead: "Weak: it may fail even when the value matched, so retry in a loop, bounded.",
        lesson: Some("cas-max"),
    },
    MapRow {
        cuda: "cuda::atomic<T, scope> with memory_order_acquire, _release, _acq_rel, _seq_cst",
        wgsl: "Relaxed atomics only",
        instead: "No acquire/release: publishing data behind a flag is not promised across workgroups. Pass data between phases by ending the dispatch; within a workgroup, write, barrier, read.",
        lesson: Some("producer-consumer"),
    },
    MapRow {
        cuda: "Spinlock from atomicCAS and __threadfence()",
        wgsl: "A bounded compare-exchange loop, with nothing to order the protected data",
        instead: "Neither a fence nor a forward-progress promise: a lock may exclude on one GPU and hang or fail on another. Prefer atomics on the data itself, or per-workgroup results merged afterwards.",
        lesson: Some("spinlock"),
    },
    MapRow {
        cuda: "cuda::barrier arrive() / wait(token)",
        wgsl: "None: workgroupBarrier() arrives and waits at once",
        instead: "Do the independent work before the barrier instead of between arrive and wait. A split barrier built from atomics needs progress and ordering WGSL does not promise.",
        lesson: Some("arrive-wait"),
    },
    MapRow {
        cuda: "cuda::counting_semaphore, cuda::binary_semaphore",
        wgsl: "None",
        instead: "A count taken with one compare-exchange and given back with atomicAdd keeps the limit, but each wait must be bounded: nothing promises a waiter its turn. Reading the count and then taking a slot with a second atomic lets too many in.",
        lesson: Some("semaphore"),
    },
    MapRow {
        cuda: "cuda::latch",
        wgsl: "None",
        instead: "A counter with atomicAdd hands out tickets, but waiting for a count to reach a value is a spin with no progress promise. Within a workgroup, workgroupBarrier(); across workgroups, count in one dispatch and act on the count in the next.",
        lesson: Some("arrive-wait"),
    },
    MapRow {
        cuda: "cooperative_groups grid.sync()",
        wgsl: "None",
        instead: "The kernel boundary is the grid-wide barrier: one dispatch per phase, as the reduction does level by level.",
        lesson: Some("grid-barrier"),
    },
];
