//! Every kernel the site runs, one `.wgsl` file each under `shaders/`.

/// A compute kernel: its WGSL source and the entry point that runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    RaceRacy,
    RaceAtomic,
    RaceReplayRacy,
    RaceReplayAtomic,
    Tickets,
}

impl Kernel {
    pub const ALL: [Kernel; 5] = [
        Kernel::RaceRacy,
        Kernel::RaceAtomic,
        Kernel::RaceReplayRacy,
        Kernel::RaceReplayAtomic,
        Kernel::Tickets,
    ];

    /// The file under `shaders/`, as the code panel names it.
    pub fn file_name(self) -> &'static str {
        match self {
            Kernel::RaceRacy => "race_racy.wgsl",
            Kernel::RaceAtomic => "race_atomic.wgsl",
            Kernel::RaceReplayRacy => "race_replay_racy.wgsl",
            Kernel::RaceReplayAtomic => "race_replay_atomic.wgsl",
            Kernel::Tickets => "tickets.wgsl",
        }
    }

    pub fn source(self) -> &'static str {
        match self {
            Kernel::RaceRacy => include_str!("../../shaders/race_racy.wgsl"),
            Kernel::RaceAtomic => include_str!("../../shaders/race_atomic.wgsl"),
            Kernel::RaceReplayRacy => include_str!("../../shaders/race_replay_racy.wgsl"),
            Kernel::RaceReplayAtomic => include_str!("../../shaders/race_replay_atomic.wgsl"),
            Kernel::Tickets => include_str!("../../shaders/tickets.wgsl"),
        }
    }

    pub fn entry_point(self) -> &'static str {
        "main"
    }
}
