//! The barrier instruction of the model: arrivals climb to the thread count, then everyone
//! is released together, under any schedule.

use std::sync::Arc;
use syncscope::model::{Effect, Instr, Line, Machine, Program, Schedule, Session, ThreadStatus};

fn write_barrier_read(threads: usize) -> Machine {
    let program = Program {
        lines: vec![
            Line { instr: Instr::AddImm { reg: 0, imm: 1 }, marker: "work" },
            Line { instr: Instr::Barrier, marker: "barrier" },
            Line { instr: Instr::Load { reg: 0, addr: 0 }, marker: "read" },
        ],
        memory_names: vec!["cell".into()],
        register_names: vec!["r"],
        grids: Vec::new(),
        workgroup: &[],
        floats: &[],
        packed: &[],
        masks: &[],
        mask_lanes: 0,
        spans: Vec::new(),
        lowered: None,
    };
    Machine::new(Arc::new(program), threads, vec![0])
}

#[test]
fn nobody_passes_the_barrier_before_everyone_arrives() {
    for seed in 0..300 {
        let mut s = Session::new(write_barrier_read(4), Schedule::Random { seed });
        let mut arrivals = 0;
        let mut released = false;
        while s.step() {
            for e in s.last_events() {
                match e.effect {
                    Effect::ArrivedAtBarrier { arrived, of } => {
                        arrivals += 1;
                        assert_eq!((arrived, of), (arrivals, 4));
                        assert!(!released);
                    }
                    Effect::BarrierReleased { threads } => {
                        assert_eq!((arrivals, threads), (3, 4));
                        released = true;
                    }
                    Effect::Loaded { .. } => assert!(released, "seed {seed}: a read before release"),
                    _ => {}
                }
            }
        }
        assert!(released && s.is_finished());
    }
}

#[test]
fn a_waiting_thread_cannot_be_stepped() {
    let mut s = Session::new(write_barrier_read(2), Schedule::Manual);
    s.step_thread(0).unwrap();
    s.step_thread(0).unwrap();
    assert_eq!(s.current().threads[0].status, ThreadStatus::AtBarrier);
    assert!(s.step_thread(0).is_err());
    s.step_thread(1).unwrap();
    s.step_thread(1).unwrap();
    assert!(s.current().threads.iter().all(|t| t.status == ThreadStatus::Ready && t.pc == 2));
}
