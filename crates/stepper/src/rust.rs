//! A lowered [`Program`] written as Rust source: how the site's build script puts its kernels'
//! programs into the pages as `static`s, with nothing to parse when a page runs.

use crate::ir::{Builtin, Instr, Op, Program, Size, SubgroupFn};
use std::fmt::Write;

/// `program` as a Rust expression of type `stepper::Program`, for a file that has
/// `use stepper::ir::*; use std::borrow::Cow;` in scope.
pub fn to_rust(program: &Program) -> String {
    let mut out = String::new();
    let size = |s: &Size| match s {
        Size::Fixed(n) => format!("Size::Fixed({n})"),
        Size::Override(i) => format!("Size::Override({i})"),
    };
    let _ = write!(
        out,
        "Program {{ entry: Cow::Borrowed({:?}), workgroup_size: [{}], ",
        program.entry,
        program.workgroup_size.iter().map(size).collect::<Vec<_>>().join(", ")
    );
    out.push_str("instrs: Cow::Borrowed(&[\n");
    for Instr { op, line, column } in program.instrs.iter() {
        let _ = writeln!(out, "    Instr {{ op: {}, line: {line}, column: {column} }},", op_rust(op));
    }
    out.push_str("]), vars: Cow::Borrowed(&[\n");
    for v in program.vars.iter() {
        let init = match &v.init {
            Some(words) => format!("Some(Cow::Borrowed(&{words:?}))"),
            None => "None".into(),
        };
        let fields: Vec<String> = v.fields.iter().map(|(at, name)| format!("({at}, Cow::Borrowed({name:?}))")).collect();
        let _ = writeln!(
            out,
            "    Var {{ name: Cow::Borrowed({:?}), space: Space::{:?}, binding: {:?}, words: {}, runtime_stride: {:?}, atomic: {}, init: {init}, fields: Cow::Borrowed(&[{}]) }},",
            v.name,
            v.space,
            v.binding,
            v.words,
            v.runtime_stride,
            v.atomic,
            fields.join(", ")
        );
    }
    out.push_str("]), overrides: Cow::Borrowed(&[\n");
    for o in program.overrides.iter() {
        let _ = writeln!(out, "    OverrideDecl {{ name: Cow::Borrowed({:?}), ty: Scalar::{:?}, default: {:?} }},", o.name, o.ty, o.default);
    }
    let _ = write!(out, "]), registers: {}, names: Cow::Borrowed(&[", program.registers);
    for (r, n) in program.names.iter() {
        let _ = write!(out, "({r}, Cow::Borrowed({n:?})), ");
    }
    out.push_str("]) }");
    out
}

fn op_rust(op: &Op) -> String {
    match *op {
        Op::Const { dst, bits } => format!("Op::Const {{ dst: {dst}, bits: {bits} }}"),
        Op::Copy { dst, src, words } => format!("Op::Copy {{ dst: {dst}, src: {src}, words: {words} }}"),
        Op::Builtin { dst, which } => format!("Op::Builtin {{ dst: {dst}, which: {} }}", builtin_rust(which)),
        Op::Override { dst, index } => format!("Op::Override {{ dst: {dst}, index: {index} }}"),
        Op::Arith { op, ty, dst, a, b } => format!("Op::Arith {{ op: Arith::{op:?}, ty: Scalar::{ty:?}, dst: {dst}, a: {a}, b: {b} }}"),
        Op::Select { dst, cond, accept, reject, words } => {
            format!("Op::Select {{ dst: {dst}, cond: {cond}, accept: {accept}, reject: {reject}, words: {words} }}")
        }
        Op::Convert { dst, a, from, to } => format!("Op::Convert {{ dst: {dst}, a: {a}, from: Scalar::{from:?}, to: Scalar::{to:?} }}"),
        Op::Pick { dst, base, index, count, words } => format!("Op::Pick {{ dst: {dst}, base: {base}, index: {index}, count: {count}, words: {words} }}"),
        Op::Bound { dst, index, len, var } => format!("Op::Bound {{ dst: {dst}, index: {index}, len: {len}, var: {var} }}"),
        Op::Length { dst, var } => format!("Op::Length {{ dst: {dst}, var: {var} }}"),
        Op::Load { dst, var, offset, words, atomic } => format!("Op::Load {{ dst: {dst}, var: {var}, offset: {offset}, words: {words}, atomic: {atomic} }}"),
        Op::Store { var, offset, src, words, atomic } => format!("Op::Store {{ var: {var}, offset: {offset}, src: {src}, words: {words}, atomic: {atomic} }}"),
        Op::Atomic { fun, ty, var, offset, value, compare, dst } => {
            format!("Op::Atomic {{ fun: AtomicFn::{fun:?}, ty: Scalar::{ty:?}, var: {var}, offset: {offset}, value: {value}, compare: {compare}, dst: {dst} }}")
        }
        Op::Barrier { workgroup, storage } => format!("Op::Barrier {{ workgroup: {workgroup}, storage: {storage} }}"),
        Op::Subgroup { fun, ty, dst, arg, extra, words } => {
            let fun = match fun {
                SubgroupFn::Reduce(a) => format!("SubgroupFn::Reduce(Arith::{a:?})"),
                SubgroupFn::InclusiveScan(a) => format!("SubgroupFn::InclusiveScan(Arith::{a:?})"),
                SubgroupFn::ExclusiveScan(a) => format!("SubgroupFn::ExclusiveScan(Arith::{a:?})"),
                other => format!("SubgroupFn::{other:?}"),
            };
            format!("Op::Subgroup {{ fun: {fun}, ty: Scalar::{ty:?}, dst: {dst}, arg: {arg}, extra: {extra}, words: {words} }}")
        }
        Op::BranchIfZero { cond, to } => format!("Op::BranchIfZero {{ cond: {cond}, to: {to} }}"),
        Op::BranchIfNonZero { cond, to } => format!("Op::BranchIfNonZero {{ cond: {cond}, to: {to} }}"),
        Op::Jump { to } => format!("Op::Jump {{ to: {to} }}"),
        Op::Return => "Op::Return".into(),
    }
}

fn builtin_rust(b: Builtin) -> String {
    match b {
        Builtin::LocalId(d) => format!("Builtin::LocalId({d})"),
        Builtin::GlobalId(d) => format!("Builtin::GlobalId({d})"),
        Builtin::WorkgroupId(d) => format!("Builtin::WorkgroupId({d})"),
        Builtin::NumWorkgroups(d) => format!("Builtin::NumWorkgroups({d})"),
        other => format!("Builtin::{other:?}"),
    }
}
