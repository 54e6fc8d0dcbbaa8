//! A model run with full history: step, back, redo, scrub, and manual choices that cut
//! off the future they replace.

use super::machine::{Event, Machine, StepError};
use super::schedule::Schedule;
use std::sync::atomic::{AtomicU64, Ordering};

/// A run of the model under a schedule, with every state it has been in.
#[derive(Clone, Debug)]
pub struct Session {
    schedule: Schedule,
    /// `states[i]` is the machine after `i` ticks; `states[0]` is the start.
    states: Vec<Machine>,
    /// `ticks[i]` holds the events that led from `states[i]` to `states[i + 1]`.
    ticks: Vec<Vec<Event>>,
    cursor: usize,
    /// `ticks[scheduled_from..]` were chosen by `schedule`; the ones before were chosen by
    /// the reader, a link, or a schedule in force earlier. A link must spell those out.
    scheduled_from: usize,
    /// Why the last attempt to go past the known ticks failed: a program that reached for a
    /// cell the machine does not have. Cleared by any tick that succeeds.
    fault: Option<StepError>,
    /// Changes whenever the known ticks do (not when only the cursor moves): what a view of
    /// the whole run keys on. Drawn from one counter for every session, so a run that replaces
    /// another (a variant switched, a reset) never carries the number the old one ended on: a
    /// view keyed on it would keep the old run's trace.
    revision: u64,
}

/// The next revision any session takes (see [`Session::revision`]).
static NEXT_REVISION: AtomicU64 = AtomicU64::new(1);

fn fresh_revision() -> u64 {
    NEXT_REVISION.fetch_add(1, Ordering::Relaxed)
}

/// No lesson's model needs more than this; it only guards against a program that never ends.
pub const MAX_TICKS: usize = 10_000;

impl Session {
    pub fn new(start: Machine, schedule: Schedule) -> Self {
        Session { schedule, states: vec![start], ticks: Vec::new(), cursor: 0, scheduled_from: 0, fault: None, revision: fresh_revision() }
    }

    /// Back to the start of a run of the schedule in force: ticks an earlier schedule took are
    /// dropped and the schedule's own run takes their place (a reset after a switch replays
    /// what the menu names, not the old order). The reader's picks under the manual schedule
    /// stay, to be stepped through again or replaced.
    pub fn reset_to_schedule(&mut self) {
        if self.schedule == Schedule::Manual || self.scheduled_from == 0 {
            self.cursor = 0;
        } else {
            *self = Session::new(self.start().clone(), self.schedule);
            self.run_to_end();
        }
    }

    /// How many ticks from the start the current schedule did not choose: the reader's picks,
    /// or the order of a schedule in force before this one (what the page says it kept).
    pub fn chosen_until(&self) -> usize {
        self.scheduled_from
    }

    pub fn schedule(&self) -> Schedule {
        self.schedule
    }

    /// Changes the schedule from the current step on; steps already taken stay.
    pub fn set_schedule(&mut self, schedule: Schedule) {
        if schedule != self.schedule {
            self.truncate_future();
            self.schedule = schedule;
            self.scheduled_from = self.cursor;
        }
    }

    pub fn current(&self) -> &Machine {
        &self.states[self.cursor]
    }

    pub fn start(&self) -> &Machine {
        &self.states[0]
    }

    /// How many ticks have been taken to reach the current state.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// How many ticks are known (taken, or ahead of the cursor after stepping back).
    pub fn known_ticks(&self) -> usize {
        self.ticks.len()
    }

    /// Events of the tick that led to the current state (empty at the start).
    pub fn last_events(&self) -> &[Event] {
        if self.cursor == 0 {
            &[]
        } else {
            &self.ticks[self.cursor - 1]
        }
    }

    /// Events of every known tick, oldest first: the whole run as far as it is known, ahead of
    /// the cursor too.
    pub fn ticks(&self) -> &[Vec<Event>] {
        &self.ticks
    }

    /// A number that changes whenever [`Session::ticks`] does.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Events of every tick up to the current one, oldest first.
    pub fn past_events(&self) -> impl Iterator<Item = (usize, &Event)> {
        self.ticks[..self.cursor].iter().enumerate().flat_map(|(i, evs)| evs.iter().map(move |e| (i + 1, e)))
    }

    pub fn is_finished(&self) -> bool {
        self.current().is_finished()
    }

    /// One tick forward: redo a known tick, or let the schedule choose. Returns false when
    /// nothing moved (finished, or a manual schedule waiting for the reader).
    pub fn step(&mut self) -> bool {
        if self.cursor < self.ticks.len() {
            self.cursor += 1;
            return true;
        }
        if self.ticks.len() >= MAX_TICKS {
            return false;
        }
        let Some(threads) = self.schedule.pick(self.current(), self.cursor, self.last_events()) else {
            return false;
        };
        match self.push_tick(&threads) {
            Ok(()) => true,
            Err(e) => {
                self.fault = Some(e);
                false
            }
        }
    }

    /// Why the run could not go on from here, if a step failed: the page shows it rather
    /// than stopping without a word.
    pub fn fault(&self) -> Option<&StepError> {
        self.fault.as_ref()
    }

    /// The reader moves thread `t` by one instruction. A different choice from the one
    /// recorded next replaces the future; the same choice is a redo.
    pub fn step_thread(&mut self, t: usize) -> Result<(), StepError> {
        if let Some(next) = self.ticks.get(self.cursor) {
            if next.len() == 1 && next[0].thread == t {
                self.cursor += 1;
                return Ok(());
            }
        }
        self.take_tick(&[t])
    }

    /// Takes one tick in which exactly `threads` move, whatever the schedule would pick (a
    /// manual choice, or a tick spelled out in a link). The future it replaces is dropped.
    pub fn take_tick(&mut self, threads: &[usize]) -> Result<(), StepError> {
        // push_tick steps a copy and fails before changing anything.
        if let Err(e) = self.push_tick(threads) {
            if matches!(e, StepError::NoSuchCell(_) | StepError::BadIndex { .. }) {
                self.fault = Some(e.clone());
            }
            return Err(e);
        }
        self.scheduled_from = self.ticks.len();
        Ok(())
    }

    /// The threads that moved in each tick that the schedule alone would not reproduce from
    /// the start, including ticks ahead of the cursor (a redo): what a link must carry to
    /// reopen this exact run.
    pub fn chosen_ticks(&self) -> Vec<Vec<usize>> {
        self.ticks[..self.scheduled_from].iter().map(|tick| tick.iter().map(|e| e.thread).collect()).collect()
    }

    pub fn back(&mut self) -> bool {
        if self.cursor == 0 {
            return false;
        }
        self.cursor -= 1;
        true
    }

    /// Goes to tick `target`, taking new ticks from the schedule if needed; stops early where
    /// the run ends. Returns the tick reached.
    pub fn seek(&mut self, target: usize) -> usize {
        if target <= self.ticks.len() {
            self.cursor = target;
        } else {
            self.cursor = self.ticks.len();
            while self.cursor < target && self.step() {}
        }
        self.cursor
    }

    /// Runs the schedule to its end (bounded by [`MAX_TICKS`]) and returns the final state;
    /// the cursor stays where it was.
    pub fn run_to_end(&mut self) -> &Machine {
        let here = self.cursor;
        self.cursor = self.ticks.len();
        while self.step() {}
        self.cursor = here;
        self.states.last().expect("a session always has its start state")
    }

    pub fn reset(&mut self) {
        self.cursor = 0;
    }

    fn truncate_future(&mut self) {
        self.revision = fresh_revision();
        self.ticks.truncate(self.cursor);
        self.states.truncate(self.cursor + 1);
        self.scheduled_from = self.scheduled_from.min(self.cursor);
    }

    fn push_tick(&mut self, threads: &[usize]) -> Result<(), StepError> {
        let mut next = self.current().clone();
        let mut events = Vec::with_capacity(threads.len());
        for &t in threads {
            events.push(next.step(t)?);
        }
        self.fault = None;
        self.truncate_future();
        self.states.push(next);
        self.ticks.push(events);
        self.revision = fresh_revision();
        self.cursor += 1;
        Ok(())
    }
}
