//! Replaying what a GPU did, from what it recorded.
//!
//! An instrumented kernel writes, per invocation, the value it loaded, the value it stored
//! and two tickets taken from a separate atomic counter just before each access. Sorting the
//! accesses by ticket gives one order the GPU served them in. Everything shown comes from
//! those records; the only thing computed here is the memory *as replayed in ticket order*,
//! which is compared against each recorded load to point out where the two disagree.

/// What one invocation of an instrumented race kernel wrote down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessRecord {
    pub loaded: u32,
    pub stored: u32,
    pub load_ticket: u32,
    /// Equal to `load_ticket` when the load and store were one atomic read-modify-write.
    pub store_ticket: u32,
}

impl AccessRecord {
    pub fn is_read_modify_write(&self) -> bool {
        self.load_ticket == self.store_ticket
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayAccess {
    Load { value: u32 },
    Store { value: u32 },
    ReadModifyWrite { old: u32, new: u32 },
}

/// One recorded access, in ticket order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayStep {
    pub ticket: u32,
    pub lane: usize,
    pub access: ReplayAccess,
    /// The counter as replayed after this step (recorded stores applied in ticket order).
    pub counter_after: u32,
    /// A load (or the read half of an atomic) saw a value other than the replayed counter.
    pub disagrees: bool,
}

/// What a lane shows at some point of the replay: only recorded values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayLane {
    pub loaded: Option<u32>,
    pub stored: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayTimeline {
    pub lanes: usize,
    pub steps: Vec<ReplayStep>,
    /// The final counter as read back from the GPU.
    pub gpu_final: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    NoRecords,
    DuplicateTicket(u32),
    StoreBeforeLoad { lane: usize },
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::NoRecords => write!(f, "the GPU recorded no accesses"),
            ReplayError::DuplicateTicket(t) => write!(f, "ticket {t} was handed out twice"),
            ReplayError::StoreBeforeLoad { lane } => {
                write!(f, "invocation {lane} has a store ticket before its load ticket")
            }
        }
    }
}

impl ReplayTimeline {
    /// Orders the records by ticket and replays their stores. `initial` is the counter's value
    /// before the dispatch; `gpu_final` the value read back after it.
    pub fn from_records(records: &[AccessRecord], initial: u32, gpu_final: u32) -> Result<Self, ReplayError> {
        if records.is_empty() {
            return Err(ReplayError::NoRecords);
        }
        let mut accesses: Vec<(u32, usize, ReplayAccess)> = Vec::with_capacity(records.len() * 2);
        for (lane, r) in records.iter().enumerate() {
            if r.is_read_modify_write() {
                accesses.push((r.load_ticket, lane, ReplayAccess::ReadModifyWrite { old: r.loaded, new: r.stored }));
            } else {
                if r.store_ticket < r.load_ticket {
                    return Err(ReplayError::StoreBeforeLoad { lane });
                }
                accesses.push((r.load_ticket, lane, ReplayAccess::Load { value: r.loaded }));
                accesses.push((r.store_ticket, lane, ReplayAccess::Store { value: r.stored }));
            }
        }
        accesses.sort_unstable_by_key(|a| a.0);
        if let Some(w) = accesses.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(ReplayError::DuplicateTicket(w[0].0));
        }
        let mut counter = initial;
        let steps = accesses
            .into_iter()
            .map(|(ticket, lane, access)| {
                let disagrees = match access {
                    ReplayAccess::Load { value } => value != counter,
                    ReplayAccess::ReadModifyWrite { old, .. } => old != counter,
                    ReplayAccess::Store { .. } => false,
                };
                match access {
                    ReplayAccess::Store { value } | ReplayAccess::ReadModifyWrite { new: value, .. } => counter = value,
                    ReplayAccess::Load { .. } => {}
                }
                ReplayStep { ticket, lane, access, counter_after: counter, disagrees }
            })
            .collect();
        Ok(ReplayTimeline { lanes: records.len(), steps, gpu_final })
    }

    /// Each lane's recorded values after the first `upto` steps.
    pub fn lanes_at(&self, upto: usize) -> Vec<ReplayLane> {
        let mut lanes = vec![ReplayLane::default(); self.lanes];
        for step in self.steps.iter().take(upto) {
            let lane = &mut lanes[step.lane];
            match step.access {
                ReplayAccess::Load { value } => lane.loaded = Some(value),
                ReplayAccess::Store { value } => lane.stored = Some(value),
                ReplayAccess::ReadModifyWrite { old, new } => {
                    lane.loaded = Some(old);
                    lane.stored = Some(new);
                }
            }
        }
        lanes
    }

    /// The replay after the first `upto` steps drawn on `start`, a fresh model of the race
    /// kernel with as many threads as the replay has lanes (the counter in cell 0, the value a
    /// lane holds in its first register). A lane that has loaded holds what it loaded and waits
    /// at its next step; one that has stored, or whose atomicAdd has happened, is done. Only
    /// recorded values appear; the counter is the recorded stores replayed in ticket order.
    pub fn machine_at(&self, start: &crate::model::Machine, upto: usize) -> crate::model::Machine {
        use crate::model::ThreadStatus;
        let program = start.program().clone();
        let end = program.len();
        let mut machine = start.clone();
        if let Some(counter) = machine.memory.first_mut() {
            *counter = i64::from(self.counter_at(upto, 0));
        }
        for step in self.steps.iter().take(upto) {
            let Some(thread) = machine.threads.get_mut(step.lane) else { continue };
            let (pc, value) = match step.access {
                ReplayAccess::Load { value } => (program.next_step(thread.pc), value),
                ReplayAccess::Store { value } => (end, value),
                ReplayAccess::ReadModifyWrite { old, .. } => (end, old),
            };
            thread.pc = pc;
            if let Some(r) = thread.regs.first_mut() {
                *r = i64::from(value);
            }
            if pc == end {
                thread.status = ThreadStatus::Done;
            }
        }
        machine
    }

    /// The replayed counter after the first `upto` steps.
    pub fn counter_at(&self, upto: usize, initial: u32) -> u32 {
        match upto {
            0 => initial,
            n => self.steps[n.min(self.steps.len()) - 1].counter_after,
        }
    }

    pub fn disagreements(&self) -> usize {
        self.steps.iter().filter(|s| s.disagrees).count()
    }

    pub fn narrate(&self, step: &ReplayStep) -> String {
        let lane = step.lane;
        let t = step.ticket;
        let mut s = match step.access {
            ReplayAccess::Load { value } => format!("ticket {t}: invocation {lane} loaded {value}"),
            ReplayAccess::Store { value } => format!("ticket {t}: invocation {lane} stored {value}"),
            ReplayAccess::ReadModifyWrite { old, new } => {
                format!("ticket {t}: invocation {lane}'s atomicAdd saw {old} and left {new}")
            }
        };
        if step.disagrees {
            s.push_str(" — not what the replayed counter held");
        }
        s
    }
}
