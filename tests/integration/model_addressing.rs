//! Every instruction reaches memory through one checked step: an address a program computes
//! wrongly is an error the page shows, never a panic or a cell that wraps around.

use std::sync::Arc;
use syncscope::model::{Instr, Line, Machine, Program, Schedule, Session, StepError};

fn machine(lines: Vec<Instr>, cells: usize) -> Machine {
    let program = Program {
        lines: lines.into_iter().map(|instr| Line { instr, marker: "x" }).collect(),
        memory_names: (0..cells).map(|i| format!("m[{i}]")).collect(),
        register_names: vec!["a", "b"],
        grids: Vec::new(),
        workgroup: &[],
        floats: &[],
        packed: &[],
        masks: &[],
        mask_lanes: 0,
        spans: Vec::new(),
        lowered: None,
    };
    Machine::new(Arc::new(program), 2, vec![0; cells])
}

#[test]
fn plain_and_atomic_accesses_past_the_end_are_errors() {
    let cases = [
        Instr::Load { reg: 0, addr: 3 },
        Instr::AtomicAdd { reg: 0, addr: 3, imm: 1 },
        Instr::CompareExchange { addr: 3, expected: 0, desired: 1, old: 0, exchanged: 1 },
        Instr::StoreImm { addr: 3, value: 1 },
    ];
    for instr in cases {
        let mut m = machine(vec![instr], 2);
        let before = m.clone();
        assert_eq!(m.step(0), Err(StepError::NoSuchCell(3)), "{instr:?}");
        assert_eq!(m, before, "{instr:?}: a failed step changes nothing");
    }
}

#[test]
fn a_negative_index_is_named_as_what_the_register_held() {
    // b = -2 makes m[1 + b] refer to no cell.
    let m = machine(vec![Instr::SetImm { reg: 1, value: -2 }, Instr::LoadAt { array: "m", base: 1, index: 1, reg: 0 }], 2);
    let mut s = Session::new(m, Schedule::RoundRobin);
    while s.step() {}
    assert!(s.cursor() >= 1 && !s.is_finished());
    let fault = s.fault().cloned().expect("the session says why it stopped");
    assert_eq!(fault, StepError::BadIndex { base: 1, index: -2 });
    assert_eq!(fault.to_string(), "cell 1 + -2 does not exist");
}

#[test]
fn a_link_that_steps_into_a_bad_cell_is_refused_and_remembered() {
    let m = machine(vec![Instr::Load { reg: 0, addr: 9 }], 1);
    let mut s = Session::new(m, Schedule::Manual);
    assert_eq!(s.take_tick(&[1]), Err(StepError::NoSuchCell(9)));
    assert_eq!(s.fault(), Some(&StepError::NoSuchCell(9)));
    assert_eq!(s.cursor(), 0);
}
