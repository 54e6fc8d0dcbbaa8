//! Every kernel the site runs, one `.wgsl` file each under `shaders/`.

/// A compute kernel: its WGSL source and the entry point that runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    RaceRacy,
    RaceAtomic,
    RaceReplayRacy,
    RaceReplayAtomic,
    Tickets,
    Append,
    CasMax,
    AtomicOps,
    SpinlockNone,
    SpinlockSpinThenEnter,
    SpinlockEnterInLoop,
    Barrier,
    BarrierMissing,
    /// Shown and compiled to show the browser's refusal; never dispatched.
    BarrierInBranch,
    ReductionTrace,
    ReductionTree,
    ReductionAtomic,
    Tiled,
    TiledWithoutFirst,
    TiledWithoutSecond,
    AcrossWorkgroups,
    HistogramPlain,
    HistogramAtomic,
    HistogramPrivate,
    MessagePassingRelaxed,
    MessagePassingStorageBarrier,
    MessagePassingWorkgroupBarrier,
    MessagePassingSameWorkgroup,
}

impl Kernel {
    /// Every kernel that compiles everywhere; `BarrierInBranch` is kept apart.
    pub const ALL: [Kernel; 27] = [
        Kernel::RaceRacy,
        Kernel::RaceAtomic,
        Kernel::RaceReplayRacy,
        Kernel::RaceReplayAtomic,
        Kernel::Tickets,
        Kernel::Append,
        Kernel::CasMax,
        Kernel::AtomicOps,
        Kernel::SpinlockNone,
        Kernel::SpinlockSpinThenEnter,
        Kernel::SpinlockEnterInLoop,
        Kernel::Barrier,
        Kernel::BarrierMissing,
        Kernel::ReductionTrace,
        Kernel::ReductionTree,
        Kernel::ReductionAtomic,
        Kernel::Tiled,
        Kernel::TiledWithoutFirst,
        Kernel::TiledWithoutSecond,
        Kernel::AcrossWorkgroups,
        Kernel::HistogramPlain,
        Kernel::HistogramAtomic,
        Kernel::HistogramPrivate,
        Kernel::MessagePassingRelaxed,
        Kernel::MessagePassingStorageBarrier,
        Kernel::MessagePassingWorkgroupBarrier,
        Kernel::MessagePassingSameWorkgroup,
    ];

    /// The file under `shaders/`, as the code panel names it.
    pub fn file_name(self) -> &'static str {
        match self {
            Kernel::RaceRacy => "race_racy.wgsl",
            Kernel::RaceAtomic => "race_atomic.wgsl",
            Kernel::RaceReplayRacy => "race_replay_racy.wgsl",
            Kernel::RaceReplayAtomic => "race_replay_atomic.wgsl",
            Kernel::Tickets => "tickets.wgsl",
            Kernel::Append => "append.wgsl",
            Kernel::CasMax => "cas_max.wgsl",
            Kernel::AtomicOps => "atomic_ops.wgsl",
            Kernel::SpinlockNone => "spinlock_none.wgsl",
            Kernel::SpinlockSpinThenEnter => "spinlock_spin_then_enter.wgsl",
            Kernel::SpinlockEnterInLoop => "spinlock_enter_in_loop.wgsl",
            Kernel::Barrier => "barrier.wgsl",
            Kernel::BarrierMissing => "barrier_missing.wgsl",
            Kernel::BarrierInBranch => "rejected/barrier_in_branch.wgsl",
            Kernel::ReductionTrace => "reduction_trace.wgsl",
            Kernel::ReductionTree => "reduction_tree.wgsl",
            Kernel::ReductionAtomic => "reduction_atomic.wgsl",
            Kernel::Tiled => "tiled.wgsl",
            Kernel::TiledWithoutFirst => "tiled_without_first.wgsl",
            Kernel::TiledWithoutSecond => "tiled_without_second.wgsl",
            Kernel::AcrossWorkgroups => "across_workgroups.wgsl",
            Kernel::HistogramPlain => "histogram_plain.wgsl",
            Kernel::HistogramAtomic => "histogram_atomic.wgsl",
            Kernel::HistogramPrivate => "histogram_private.wgsl",
            Kernel::MessagePassingRelaxed => "message_passing_relaxed.wgsl",
            Kernel::MessagePassingStorageBarrier => "message_passing_storage_barrier.wgsl",
            Kernel::MessagePassingWorkgroupBarrier => "message_passing_workgroup_barrier.wgsl",
            Kernel::MessagePassingSameWorkgroup => "message_passing_same_workgroup.wgsl",
        }
    }

    pub fn source(self) -> &'static str {
        match self {
            Kernel::RaceRacy => include_str!("../../shaders/race_racy.wgsl"),
            Kernel::RaceAtomic => include_str!("../../shaders/race_atomic.wgsl"),
            Kernel::RaceReplayRacy => include_str!("../../shaders/race_replay_racy.wgsl"),
            Kernel::RaceReplayAtomic => include_str!("../../shaders/race_replay_atomic.wgsl"),
            Kernel::Tickets => include_str!("../../shaders/tickets.wgsl"),
            Kernel::Append => include_str!("../../shaders/append.wgsl"),
            Kernel::CasMax => include_str!("../../shaders/cas_max.wgsl"),
            Kernel::AtomicOps => include_str!("../../shaders/atomic_ops.wgsl"),
            Kernel::SpinlockNone => include_str!("../../shaders/spinlock_none.wgsl"),
            Kernel::SpinlockSpinThenEnter => include_str!("../../shaders/spinlock_spin_then_enter.wgsl"),
            Kernel::SpinlockEnterInLoop => include_str!("../../shaders/spinlock_enter_in_loop.wgsl"),
            Kernel::Barrier => include_str!("../../shaders/barrier.wgsl"),
            Kernel::BarrierMissing => include_str!("../../shaders/barrier_missing.wgsl"),
            Kernel::BarrierInBranch => include_str!("../../shaders/rejected/barrier_in_branch.wgsl"),
            Kernel::ReductionTrace => include_str!("../../shaders/reduction_trace.wgsl"),
            Kernel::ReductionTree => include_str!("../../shaders/reduction_tree.wgsl"),
            Kernel::ReductionAtomic => include_str!("../../shaders/reduction_atomic.wgsl"),
            Kernel::Tiled => include_str!("../../shaders/tiled.wgsl"),
            Kernel::TiledWithoutFirst => include_str!("../../shaders/tiled_without_first.wgsl"),
            Kernel::TiledWithoutSecond => include_str!("../../shaders/tiled_without_second.wgsl"),
            Kernel::AcrossWorkgroups => include_str!("../../shaders/across_workgroups.wgsl"),
            Kernel::HistogramPlain => include_str!("../../shaders/histogram_plain.wgsl"),
            Kernel::HistogramAtomic => include_str!("../../shaders/histogram_atomic.wgsl"),
            Kernel::HistogramPrivate => include_str!("../../shaders/histogram_private.wgsl"),
            Kernel::MessagePassingRelaxed => include_str!("../../shaders/message_passing_relaxed.wgsl"),
            Kernel::MessagePassingStorageBarrier => include_str!("../../shaders/message_passing_storage_barrier.wgsl"),
            Kernel::MessagePassingWorkgroupBarrier => include_str!("../../shaders/message_passing_workgroup_barrier.wgsl"),
            Kernel::MessagePassingSameWorkgroup => include_str!("../../shaders/message_passing_same_workgroup.wgsl"),
        }
    }

    pub fn entry_point(self) -> &'static str {
        "main"
    }
}
