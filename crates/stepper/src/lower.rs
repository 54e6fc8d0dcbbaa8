//! WGSL to a [`Program`]: naga parses and validates the kernel; its compute entry point is then
//! walked statement by statement, every call inlined, every value given registers and every
//! variable words, so that the interpreter needs nothing of naga.
//!
//! The subset is what the project's kernels use (listed in `docs/stepper.md`); anything else is
//! refused with its line, column and a plain reason.

use crate::ir::{Arith, AtomicFn, Builtin, Instr, Op, OverrideDecl, Program, Reg, Scalar, Size, Space, SubgroupFn, Var};
use naga::{Handle, Span};
use std::borrow::Cow;
use std::fmt;

/// Why a kernel cannot be stepped, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// 1-based; 0 when the reason belongs to no one line.
    pub line: u32,
    pub column: u32,
    pub reason: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "line {}, column {}: {}", self.line, self.column, self.reason)
        }
    }
}

/// Most instructions and registers a lowered kernel may have: a reader's kernel that inlines a
/// large function many times is refused rather than grown without end.
pub const MAX_INSTRS: usize = 1 << 16;
pub const MAX_REGISTERS: u32 = 1 << 16;

/// Parses, validates and lowers `source`'s compute entry point.
pub fn lower(source: &str) -> Result<Program> {
    // naga does not take the `enable subgroups;` directive the browsers ask for, and needs none:
    // blanked out, keeping every other character where it is.
    let blanked: String;
    let source = if source.lines().any(|l| l.trim() == "enable subgroups;") {
        blanked = source
            .split_inclusive('\n')
            .map(|l| if l.trim() == "enable subgroups;" { l.replace("enable subgroups;", "                 ") } else { l.to_owned() })
            .collect();
        blanked.as_str()
    } else {
        source
    };
    let module = naga::front::wgsl::parse_str(source).map_err(|e| {
        let (line, column) = e.location(source).map_or((0, 0), |l| (l.line_number, l.line_position));
        Refusal { line, column, reason: e.message().to_owned() }
    })?;
    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all()).validate(&module).map_err(|e| {
        let (line, column) = e.location(source).map_or((0, 0), |l| (l.line_number, l.line_position));
        let mut reason = e.as_inner().to_string();
        let mut cause = std::error::Error::source(e.as_inner());
        while let Some(c) = cause {
            reason.push_str(": ");
            reason.push_str(&c.to_string());
            cause = c.source();
        }
        Refusal { line, column, reason }
    })?;
    let (index, entry) = module.entry_points.iter().enumerate().find(|(_, e)| e.stage == naga::ShaderStage::Compute).ok_or_else(|| Refusal {
        line: 0,
        column: 0,
        reason: "no @compute entry point".into(),
    })?;
    let mut lowering = Lowering {
        module: &module,
        info: &info,
        source,
        instrs: Vec::new(),
        vars: Vec::new(),
        globals: Vec::new(),
        registers: 0,
        names: Vec::new(),
        here: (0, 0),
        zero: 0,
    };
    lowering.zero = lowering.alloc(1)?;
    lowering.push(Op::Const { dst: lowering.zero, bits: 0 });
    lowering.globals()?;
    let workgroup_size = lowering.workgroup_size(entry)?;
    let overrides = lowering.overrides()?;
    let frame = Frame::new(&entry.function, info.get_entry_point(index), Vec::new());
    lowering.function(frame, None)?;
    lowering.push(Op::Return);
    Ok(Program {
        entry: Cow::Owned(entry.name.clone()),
        workgroup_size,
        instrs: Cow::Owned(lowering.instrs),
        vars: Cow::Owned(lowering.vars),
        overrides: Cow::Owned(overrides),
        registers: lowering.registers,
        names: Cow::Owned(lowering.names),
    })
}

/// A value an expression stands for: words in registers, or a place in a variable.
#[derive(Clone, Copy, Debug)]
enum Value {
    Regs(Reg),
    Pointer(Pointer),
}

#[derive(Clone, Copy, Debug)]
struct Pointer {
    var: u32,
    /// A register holding the word offset into the variable.
    offset: Reg,
}

/// One function being lowered: the entry point, or a call being inlined.
struct Frame<'a> {
    function: &'a naga::Function,
    info: &'a naga::valid::FunctionInfo,
    values: Vec<Option<Value>>,
    /// The variable each of its locals became.
    locals: Vec<u32>,
    arguments: Vec<Value>,
    /// Where a `return` leaves its value, and the jumps to patch to the function's end.
    result: Option<Reg>,
    returns: Vec<usize>,
    /// Innermost last: the jumps a `break` makes, and for a loop where `continue` goes.
    exits: Vec<Exit>,
}

struct Exit {
    is_loop: bool,
    breaks: Vec<usize>,
    continues: Vec<usize>,
}

impl<'a> Frame<'a> {
    fn new(function: &'a naga::Function, info: &'a naga::valid::FunctionInfo, arguments: Vec<Value>) -> Self {
        Frame {
            function,
            info,
            values: vec![None; function.expressions.len()],
            locals: Vec::new(),
            arguments,
            result: None,
            returns: Vec::new(),
            exits: Vec::new(),
        }
    }
}

struct Lowering<'m> {
    module: &'m naga::Module,
    info: &'m naga::valid::ModuleInfo,
    source: &'m str,
    instrs: Vec<Instr>,
    vars: Vec<Var>,
    /// The variable each global became (`None` for what no step can touch, such as a sampler).
    globals: Vec<u32>,
    registers: u32,
    names: Vec<(Reg, Cow<'static, str>)>,
    /// The line and column of the statement being lowered, for instructions whose own
    /// expression has no place in the source.
    here: (u32, u32),
    /// A register that holds 0 from the first instruction on.
    zero: Reg,
}

type Result<T> = std::result::Result<T, Refusal>;

/// The shape of a type in words.
#[derive(Clone, Copy, Debug)]
struct Layout {
    words: u32,
    runtime_stride: Option<u32>,
    atomic: bool,
}

impl<'m> Lowering<'m> {
    fn refuse<T>(&self, reason: impl Into<String>) -> Result<T> {
        Err(Refusal { line: self.here.0, column: self.here.1, reason: reason.into() })
    }

    fn locate(&self, span: Span) -> Option<(u32, u32)> {
        span.is_defined().then(|| {
            let l = span.location(self.source);
            (l.line_number, l.line_position)
        })
    }

    fn push(&mut self, op: Op) -> usize {
        self.instrs.push(Instr { op, line: self.here.0, column: self.here.1 });
        self.instrs.len() - 1
    }

    fn alloc(&mut self, words: u32) -> Result<Reg> {
        let reg = self.registers;
        self.registers = self.registers.saturating_add(words.max(1));
        if self.registers > MAX_REGISTERS {
            return self.refuse("the kernel needs more than 65,536 registers once its calls are inlined");
        }
        Ok(reg)
    }

    fn constant(&mut self, bits: u32) -> Result<Reg> {
        let dst = self.alloc(1)?;
        self.push(Op::Const { dst, bits });
        Ok(dst)
    }

    fn here_pc(&self) -> u32 {
        self.instrs.len() as u32
    }

    /// Points the jump or branch at `at` to `to`.
    fn patch(&mut self, at: usize, to: u32) {
        match &mut self.instrs[at].op {
            Op::Jump { to: t } | Op::BranchIfZero { to: t, .. } | Op::BranchIfNonZero { to: t, .. } => *t = to,
            _ => unreachable!("only jumps are patched"),
        }
    }

    fn scalar(&self, s: naga::Scalar) -> Result<Scalar> {
        match (s.kind, s.width) {
            (naga::ScalarKind::Uint, 4) => Ok(Scalar::U32),
            (naga::ScalarKind::Sint, 4) => Ok(Scalar::I32),
            (naga::ScalarKind::Float, 4) => Ok(Scalar::F32),
            (naga::ScalarKind::Bool, _) => Ok(Scalar::Bool),
            _ => self.refuse("only 32-bit scalars (u32, i32, f32) and bool are stepped"),
        }
    }

    fn layout(&self, ty: Handle<naga::Type>) -> Result<Layout> {
        self.layout_of(&self.module.types[ty].inner)
    }

    fn layout_of(&self, inner: &naga::TypeInner) -> Result<Layout> {
        use naga::TypeInner as T;
        let plain = |words| Ok(Layout { words, runtime_stride: None, atomic: false });
        match *inner {
            T::Scalar(s) => {
                self.scalar(s)?;
                plain(1)
            }
            T::Vector { size, scalar } => {
                self.scalar(scalar)?;
                plain(size as u32)
            }
            T::Atomic(s) => {
                self.scalar(s)?;
                Ok(Layout { words: 1, runtime_stride: None, atomic: true })
            }
            T::Array { base, size, stride } => {
                let element = self.layout(base)?;
                if element.runtime_stride.is_some() || stride % 4 != 0 {
                    return self.refuse("an array of this element is not stepped");
                }
                if self.is_bool(base) {
                    return self.refuse("an array of bool is not stepped (its layout is the device's)");
                }
                match size {
                    naga::ArraySize::Constant(n) => Ok(Layout { words: n.get().saturating_mul(stride / 4), runtime_stride: None, atomic: element.atomic }),
                    naga::ArraySize::Dynamic => Ok(Layout { words: 0, runtime_stride: Some(stride / 4), atomic: element.atomic }),
                    naga::ArraySize::Pending(_) => self.refuse("an array sized by an override is not stepped"),
                }
            }
            T::Struct { ref members, span } => {
                let mut layout = Layout { words: span / 4, runtime_stride: None, atomic: false };
                for m in members {
                    if m.offset % 4 != 0 || self.is_bool(m.ty) {
                        return self.refuse("a struct with a bool or a member not on a 4-byte boundary is not stepped");
                    }
                    let inner = self.layout(m.ty)?;
                    layout.atomic |= inner.atomic;
                    if let Some(stride) = inner.runtime_stride {
                        layout.words = m.offset / 4;
                        layout.runtime_stride = Some(stride);
                    }
                }
                Ok(layout)
            }
            T::Matrix { .. } => self.refuse("matrices are not stepped"),
            _ => self.refuse("only scalars, vectors, atomics, arrays and structs are stepped"),
        }
    }

    fn is_bool(&self, ty: Handle<naga::Type>) -> bool {
        matches!(self.module.types[ty].inner, naga::TypeInner::Scalar(s) | naga::TypeInner::Vector { scalar: s, .. } if s.kind == naga::ScalarKind::Bool)
    }

    /// The words of a constant expression of the module, in layout order.
    fn global_words(&self, h: Handle<naga::Expression>) -> Result<Vec<u32>> {
        use naga::Expression as E;
        match self.module.global_expressions[h] {
            E::Literal(l) => Ok(vec![self.literal(l)?]),
            E::Constant(c) => self.global_words(self.module.constants[c].init),
            E::ZeroValue(ty) => Ok(vec![0; self.layout(ty)?.words as usize]),
            E::Compose { ty, ref components } => {
                let mut words = vec![0; self.layout(ty)?.words as usize];
                for (at, c) in self.places(&self.module.types[ty].inner, components.len())?.into_iter().zip(components) {
                    let part = self.global_words(*c)?;
                    let end = (at as usize + part.len()).min(words.len());
                    words[at as usize..end].copy_from_slice(&part[..end - at as usize]);
                }
                Ok(words)
            }
            E::Splat { size, value } => Ok(self.global_words(value)?.repeat(size as usize)),
            _ => self.refuse("a constant of this form is not stepped"),
        }
    }

    fn literal(&self, l: naga::Literal) -> Result<u32> {
        match l {
            naga::Literal::U32(v) => Ok(v),
            naga::Literal::I32(v) => Ok(v as u32),
            naga::Literal::F32(v) => Ok(v.to_bits()),
            naga::Literal::Bool(b) => Ok(u32::from(b)),
            _ => self.refuse("only 32-bit and bool literals are stepped"),
        }
    }

    /// The word offset of each of `count` components of a value of type `inner` (a vector's
    /// components may be vectors themselves: `vec4(v.xy, 0u, 1u)`).
    fn places(&self, inner: &naga::TypeInner, count: usize) -> Result<Vec<u32>> {
        use naga::TypeInner as T;
        match *inner {
            T::Vector { size, .. } if count == size as usize => Ok((0..count as u32).collect()),
            // Fewer components than lanes: some are vectors, packed one after another (the
            // caller knows their widths; see `compose`).
            T::Vector { .. } => Ok(Vec::new()),
            T::Array { stride, .. } => Ok((0..count as u32).map(|i| i * stride / 4).collect()),
            T::Struct { ref members, .. } => Ok(members.iter().map(|m| m.offset / 4).collect()),
            _ => self.refuse("a value of this type cannot be built from parts here"),
        }
    }

    fn globals(&mut self) -> Result<()> {
        for (h, g) in self.module.global_variables.iter() {
            self.here = self.locate(self.module.global_variables.get_span(h)).unwrap_or((0, 0));
            let space = match g.space {
                naga::AddressSpace::Storage { access } => Space::Storage { writable: access.contains(naga::StorageAccess::STORE) },
                naga::AddressSpace::Uniform => Space::Uniform,
                naga::AddressSpace::WorkGroup => Space::Workgroup,
                naga::AddressSpace::Private => Space::Private,
                _ => return self.refuse("only storage, uniform, workgroup and private variables are stepped"),
            };
            let layout = self.layout(g.ty)?;
            let init = match g.init {
                Some(e) => Some(Cow::Owned(self.global_words(e)?)),
                None => None,
            };
            // A struct's members, or those of an array's struct elements (where each element
            // starts every `stride` words), by where they start: what a view names words by.
            let element = match &self.module.types[g.ty].inner {
                naga::TypeInner::Array { base, .. } => *base,
                _ => g.ty,
            };
            let fields = match &self.module.types[element].inner {
                naga::TypeInner::Struct { members, .. } => members.iter().map(|m| (m.offset / 4, Cow::Owned(m.name.clone().unwrap_or_default()))).collect(),
                _ => Vec::new(),
            };
            self.globals.push(self.vars.len() as u32);
            self.vars.push(Var {
                name: Cow::Owned(g.name.clone().unwrap_or_else(|| format!("global{}", h.index()))),
                space,
                binding: g.binding.as_ref().map(|b| (b.group, b.binding)),
                words: layout.words,
                runtime_stride: layout.runtime_stride,
                atomic: layout.atomic,
                init,
                fields: Cow::Owned(fields),
            });
        }
        Ok(())
    }

    fn overrides(&mut self) -> Result<Vec<OverrideDecl>> {
        let mut out = Vec::new();
        for (h, o) in self.module.overrides.iter() {
            self.here = self.locate(self.module.overrides.get_span(h)).unwrap_or((0, 0));
            let ty = match self.module.types[o.ty].inner {
                naga::TypeInner::Scalar(s) => self.scalar(s)?,
                _ => return self.refuse("an override must be a scalar"),
            };
            let default = match o.init {
                Some(e) => match self.global_words(e) {
                    Ok(w) => w.first().copied(),
                    // An override computed from another: the run must set it.
                    Err(_) => None,
                },
                None => None,
            };
            out.push(OverrideDecl { name: Cow::Owned(o.name.clone().unwrap_or_default()), ty, default });
        }
        Ok(out)
    }

    fn workgroup_size(&mut self, entry: &naga::EntryPoint) -> Result<[Size; 3]> {
        let mut size = entry.workgroup_size.map(Size::Fixed);
        if let Some(overrides) = entry.workgroup_size_overrides {
            for (d, e) in overrides.iter().enumerate() {
                if let Some(e) = e {
                    size[d] = match self.module.global_expressions[*e] {
                        naga::Expression::Override(o) => Size::Override(o.index() as u32),
                        _ => match self.global_words(*e)?.first() {
                            Some(&n) => Size::Fixed(n),
                            None => return self.refuse("a workgroup size of this form is not stepped"),
                        },
                    };
                }
            }
        }
        Ok(size)
    }

    /// The type an expression of `frame` has.
    fn ty<'f>(&'f self, frame: &'f Frame, h: Handle<naga::Expression>) -> &'f naga::TypeInner {
        frame.info[h].ty.inner_with(&self.module.types)
    }

    /// For a pointer expression, the type it points at.
    fn pointee(&self, frame: &Frame, h: Handle<naga::Expression>) -> Result<naga::TypeInner> {
        match *self.ty(frame, h) {
            naga::TypeInner::Pointer { base, .. } => Ok(self.module.types[base].inner.clone()),
            naga::TypeInner::ValuePointer { size: Some(size), scalar, .. } => Ok(naga::TypeInner::Vector { size, scalar }),
            naga::TypeInner::ValuePointer { size: None, scalar, .. } => Ok(naga::TypeInner::Scalar(scalar)),
            _ => self.refuse("expected a pointer"),
        }
    }

    fn words_of(&self, frame: &Frame, h: Handle<naga::Expression>) -> Result<u32> {
        Ok(self.layout_of(self.ty(frame, h))?.words)
    }

    fn scalar_of(&self, frame: &Frame, h: Handle<naga::Expression>) -> Result<Scalar> {
        match *self.ty(frame, h) {
            naga::TypeInner::Scalar(s) | naga::TypeInner::Vector { scalar: s, .. } | naga::TypeInner::Atomic(s) => self.scalar(s),
            _ => self.refuse("expected a scalar or a vector"),
        }
    }

    fn regs(&self, frame: &Frame, h: Handle<naga::Expression>) -> Result<Reg> {
        match frame.values[h.index()] {
            Some(Value::Regs(r)) => Ok(r),
            Some(Value::Pointer(_)) => self.refuse("a pointer used as a value"),
            None => self.refuse("a value used before it is computed"),
        }
    }

    fn pointer(&self, frame: &Frame, h: Handle<naga::Expression>) -> Result<Pointer> {
        match frame.values[h.index()] {
            Some(Value::Pointer(p)) => Ok(p),
            _ => self.refuse("expected a pointer"),
        }
    }

    /// Lowers a function's body: the entry point (`result` None, at its end the invocation
    /// returns) or an inlined call.
    fn function(&mut self, mut frame: Frame<'m>, result: Option<Reg>) -> Result<Frame<'m>> {
        frame.result = result;
        let function = frame.function;
        // Its variables, fresh for this call, zeroed or set to their initial value on entry.
        for (h, local) in function.local_variables.iter() {
            self.here = self.locate(function.local_variables.get_span(h)).unwrap_or(self.here);
            let layout = self.layout(local.ty)?;
            let var = self.vars.len() as u32;
            self.vars.push(Var {
                name: Cow::Owned(local.name.clone().unwrap_or_else(|| format!("local{}", h.index()))),
                space: Space::Function,
                binding: None,
                words: layout.words,
                runtime_stride: None,
                atomic: false,
                init: None,
                fields: Cow::Borrowed(&[]),
            });
            frame.locals.push(var);
        }
        // Expressions not computed by an `Emit` (literals, constants, arguments, variables'
        // places, and any constant the front end folded) are computed here, once.
        let mut emitted = vec![false; function.expressions.len()];
        mark_emitted(&function.body, &mut emitted);
        for (h, e) in function.expressions.iter() {
            if emitted[h.index()] || is_result(e) {
                continue;
            }
            if let Some(at) = self.locate(function.expressions.get_span(h)) {
                self.here = at;
            }
            self.expression(&mut frame, h)?;
        }
        for (h, local) in function.local_variables.iter() {
            let var = frame.locals[h.index()];
            let words = self.vars[var as usize].words;
            let src = match local.init {
                Some(init) => {
                    self.ensure(&mut frame, init)?;
                    self.regs(&frame, init)?
                }
                None => {
                    let zeros = self.alloc(words)?;
                    for w in 0..words {
                        self.push(Op::Const { dst: zeros + w, bits: 0 });
                    }
                    zeros
                }
            };
            self.push(Op::Store { var, offset: self.zero, src, words, atomic: false });
        }
        self.block(&mut frame, &function.body)?;
        let end = self.here_pc();
        for at in std::mem::take(&mut frame.returns) {
            self.patch(at, end);
        }
        Ok(frame)
    }

    fn block(&mut self, frame: &mut Frame<'m>, block: &'m naga::Block) -> Result<()> {
        for (statement, span) in block.span_iter() {
            if let Some(at) = self.locate(*span) {
                self.here = at;
            }
            self.statement(frame, statement)?;
        }
        Ok(())
    }

    fn statement(&mut self, frame: &mut Frame<'m>, statement: &'m naga::Statement) -> Result<()> {
        use naga::Statement as S;
        match *statement {
            S::Emit(ref range) => {
                let outer = self.here;
                for h in range.clone() {
                    if let Some(at) = self.locate(frame.function.expressions.get_span(h)) {
                        self.here = at;
                    }
                    self.expression(frame, h)?;
                    self.here = outer;
                }
            }
            S::Block(ref b) => self.block(frame, b)?,
            S::If { condition, ref accept, ref reject } => {
                let cond = self.regs(frame, condition)?;
                let to_reject = self.push(Op::BranchIfZero { cond, to: 0 });
                self.block(frame, accept)?;
                if reject.is_empty() {
                    let end = self.here_pc();
                    self.patch(to_reject, end);
                } else {
                    let to_end = self.push(Op::Jump { to: 0 });
                    let at = self.here_pc();
                    self.patch(to_reject, at);
                    self.block(frame, reject)?;
                    let end = self.here_pc();
                    self.patch(to_end, end);
                }
            }
            S::Switch { selector, ref cases } => {
                let value = self.regs(frame, selector)?;
                let ty = self.scalar_of(frame, selector)?;
                let mut to_case = Vec::new();
                for (i, case) in cases.iter().enumerate() {
                    let bits = match case.value {
                        naga::SwitchValue::I32(v) => v as u32,
                        naga::SwitchValue::U32(v) => v,
                        naga::SwitchValue::Default => continue,
                    };
                    let b = self.constant(bits)?;
                    let cond = self.alloc(1)?;
                    self.push(Op::Arith { op: Arith::Eq, ty, dst: cond, a: value, b });
                    to_case.push((self.push(Op::BranchIfNonZero { cond, to: 0 }), i));
                }
                let to_default = self.push(Op::Jump { to: 0 });
                frame.exits.push(Exit { is_loop: false, breaks: vec![to_default], continues: Vec::new() });
                let mut default_at = None;
                for (i, case) in cases.iter().enumerate() {
                    let at = self.here_pc();
                    for &(jump, _) in to_case.iter().filter(|(_, c)| *c == i) {
                        self.patch(jump, at);
                    }
                    if case.value == naga::SwitchValue::Default {
                        default_at = Some(at);
                    }
                    self.block(frame, &case.body)?;
                    if !case.fall_through {
                        let jump = self.push(Op::Jump { to: 0 });
                        frame.exits.last_mut().expect("the switch's exit").breaks.push(jump);
                    }
                }
                let exit = frame.exits.pop().expect("the switch's exit");
                let end = self.here_pc();
                for jump in exit.breaks {
                    self.patch(jump, end);
                }
                if let Some(at) = default_at {
                    self.patch(to_default, at);
                }
            }
            S::Loop { ref body, ref continuing, break_if } => {
                let top = self.here_pc();
                frame.exits.push(Exit { is_loop: true, breaks: Vec::new(), continues: Vec::new() });
                self.block(frame, body)?;
                let at = self.here_pc();
                let continues = std::mem::take(&mut frame.exits.last_mut().expect("the loop's exit").continues);
                for jump in continues {
                    self.patch(jump, at);
                }
                self.block(frame, continuing)?;
                if let Some(cond) = break_if {
                    let cond = self.regs(frame, cond)?;
                    let jump = self.push(Op::BranchIfNonZero { cond, to: 0 });
                    frame.exits.last_mut().expect("the loop's exit").breaks.push(jump);
                }
                self.push(Op::Jump { to: top });
                let exit = frame.exits.pop().expect("the loop's exit");
                let end = self.here_pc();
                for jump in exit.breaks {
                    self.patch(jump, end);
                }
            }
            S::Break => {
                let jump = self.push(Op::Jump { to: 0 });
                match frame.exits.last_mut() {
                    Some(exit) => exit.breaks.push(jump),
                    None => return self.refuse("break outside a loop or switch"),
                }
            }
            S::Continue => {
                let jump = self.push(Op::Jump { to: 0 });
                match frame.exits.iter_mut().rev().find(|e| e.is_loop) {
                    Some(exit) => exit.continues.push(jump),
                    None => return self.refuse("continue outside a loop"),
                }
            }
            S::Return { value } => match frame.result {
                // The entry point's return: the invocation ends.
                None => {
                    self.push(Op::Return);
                }
                Some(_) => {
                    if let (Some(value), Some(dst)) = (value, frame.result) {
                        let src = self.regs(frame, value)?;
                        let words = self.words_of(frame, value)?;
                        self.push(Op::Copy { dst, src, words });
                    }
                    let jump = self.push(Op::Jump { to: 0 });
                    frame.returns.push(jump);
                }
            },
            S::ControlBarrier(flags) | S::MemoryBarrier(flags) => {
                if flags.intersects(naga::Barrier::SUB_GROUP | naga::Barrier::TEXTURE) {
                    return self.refuse("only workgroupBarrier() and storageBarrier() are stepped");
                }
                if matches!(statement, S::MemoryBarrier(_)) {
                    return self.refuse("a memory barrier without a control barrier is not stepped");
                }
                self.push(Op::Barrier { workgroup: flags.contains(naga::Barrier::WORK_GROUP), storage: flags.contains(naga::Barrier::STORAGE) });
            }
            S::Store { pointer, value } => {
                let p = self.pointer(frame, pointer)?;
                let src = self.regs(frame, value)?;
                let inner = self.pointee(frame, pointer)?;
                let atomic = matches!(inner, naga::TypeInner::Atomic(_));
                let words = self.layout_of(&inner)?.words;
                self.push(Op::Store { var: p.var, offset: p.offset, src, words, atomic });
            }
            S::Atomic { pointer, ref fun, value, result } => {
                let p = self.pointer(frame, pointer)?;
                let ty = match self.pointee(frame, pointer)? {
                    naga::TypeInner::Atomic(s) => self.scalar(s)?,
                    _ => return self.refuse("an atomic function on a variable that is not atomic"),
                };
                let value = self.regs(frame, value)?;
                let (fun, compare) = match *fun {
                    naga::AtomicFunction::Add => (AtomicFn::Add, self.zero),
                    naga::AtomicFunction::Subtract => (AtomicFn::Sub, self.zero),
                    naga::AtomicFunction::And => (AtomicFn::And, self.zero),
                    naga::AtomicFunction::ExclusiveOr => (AtomicFn::Xor, self.zero),
                    naga::AtomicFunction::InclusiveOr => (AtomicFn::Or, self.zero),
                    naga::AtomicFunction::Min => (AtomicFn::Min, self.zero),
                    naga::AtomicFunction::Max => (AtomicFn::Max, self.zero),
                    naga::AtomicFunction::Exchange { compare: None } => (AtomicFn::Exchange, self.zero),
                    naga::AtomicFunction::Exchange { compare: Some(c) } => (AtomicFn::CompareExchange, self.regs(frame, c)?),
                };
                // A compare-exchange's result is a struct of the old value and the flag, in that
                // order: two words.
                let dst = self.alloc(2)?;
                self.push(Op::Atomic { fun, ty, var: p.var, offset: p.offset, value, compare, dst });
                if let Some(r) = result {
                    self.result(frame, r, dst);
                }
            }
            S::WorkGroupUniformLoad { pointer, result } => {
                let p = self.pointer(frame, pointer)?;
                let inner = self.pointee(frame, pointer)?;
                let words = self.layout_of(&inner)?.words;
                let atomic = matches!(inner, naga::TypeInner::Atomic(_));
                let dst = self.alloc(words)?;
                // As WGSL defines it: a barrier, the load, a barrier.
                self.push(Op::Barrier { workgroup: true, storage: false });
                self.push(Op::Load { dst, var: p.var, offset: p.offset, words, atomic });
                self.push(Op::Barrier { workgroup: true, storage: false });
                self.result(frame, result, dst);
            }
            S::Call { function, ref arguments, result } => {
                let module = self.module;
                let callee = &module.functions[function];
                let mut args = Vec::new();
                for a in arguments {
                    args.push(frame.values[a.index()].ok_or_else(|| Refusal {
                        line: self.here.0,
                        column: self.here.1,
                        reason: "an argument used before it is computed".into(),
                    })?);
                }
                // Every call is inlined: its variables and registers are its own. (WGSL has no
                // recursion, so this ends.) A value it returns goes to `dst`; a call without one
                // still gets a register, which its `return`s leave alone.
                let dst = match &callee.result {
                    Some(r) => self.alloc(self.layout(r.ty)?.words)?,
                    None => self.alloc(1)?,
                };
                let here = self.here;
                let inner = Frame::new(callee, &self.info[function], args);
                self.function(inner, Some(dst))?;
                self.here = here;
                let dst = callee.result.as_ref().map(|_| dst);
                if let (Some(r), Some(dst)) = (result, dst) {
                    self.result(frame, r, dst);
                }
            }
            S::SubgroupBallot { result, predicate } => {
                let arg = match predicate {
                    Some(p) => self.regs(frame, p)?,
                    None => self.constant(1)?,
                };
                let dst = self.alloc(4)?;
                self.push(Op::Subgroup { fun: SubgroupFn::Ballot, ty: Scalar::Bool, dst, arg, extra: self.zero, words: 1 });
                self.result(frame, result, dst);
            }
            S::SubgroupGather { ref mode, argument, result } => {
                let (fun, extra) = match *mode {
                    naga::GatherMode::BroadcastFirst => (SubgroupFn::BroadcastFirst, self.zero),
                    naga::GatherMode::Broadcast(l) | naga::GatherMode::Shuffle(l) => (SubgroupFn::Shuffle, self.regs(frame, l)?),
                    naga::GatherMode::ShuffleXor(m) => (SubgroupFn::ShuffleXor, self.regs(frame, m)?),
                    naga::GatherMode::ShuffleUp(d) => (SubgroupFn::ShuffleUp, self.regs(frame, d)?),
                    naga::GatherMode::ShuffleDown(d) => (SubgroupFn::ShuffleDown, self.regs(frame, d)?),
                    _ => return self.refuse("quad operations are not stepped"),
                };
                let arg = self.regs(frame, argument)?;
                let words = self.words_of(frame, argument)?;
                let ty = self.scalar_of(frame, argument)?;
                let dst = self.alloc(words)?;
                self.push(Op::Subgroup { fun, ty, dst, arg, extra, words });
                self.result(frame, result, dst);
            }
            S::SubgroupCollectiveOperation { op, collective_op, argument, result } => {
                use naga::SubgroupOperation as O;
                let arith = match op {
                    O::Add => Arith::Add,
                    O::Mul => Arith::Mul,
                    O::Min => Arith::Min,
                    O::Max => Arith::Max,
                    O::And => Arith::And,
                    O::Or => Arith::Or,
                    O::Xor => Arith::Xor,
                    O::All | O::Any => Arith::And,
                };
                let fun = match (op, collective_op) {
                    (O::All, _) => SubgroupFn::All,
                    (O::Any, _) => SubgroupFn::Any,
                    (_, naga::CollectiveOperation::Reduce) => SubgroupFn::Reduce(arith),
                    (_, naga::CollectiveOperation::InclusiveScan) => SubgroupFn::InclusiveScan(arith),
                    (_, naga::CollectiveOperation::ExclusiveScan) => SubgroupFn::ExclusiveScan(arith),
                };
                let arg = self.regs(frame, argument)?;
                let words = self.words_of(frame, argument)?;
                let ty = self.scalar_of(frame, argument)?;
                let dst = self.alloc(words)?;
                self.push(Op::Subgroup { fun, ty, dst, arg, extra: self.zero, words });
                self.result(frame, result, dst);
            }
            S::Kill => return self.refuse("discard belongs to fragment shaders"),
            _ => return self.refuse("textures, ray queries and cooperative matrices are not stepped"),
        }
        if self.instrs.len() > MAX_INSTRS {
            return self.refuse("the kernel has more than 65,536 instructions once its calls are inlined");
        }
        Ok(())
    }

    /// Computes expression `h` of `frame` into registers (or a pointer) and records where.
    /// A statement's result (an atomic's old value, a call's return, a subgroup operation's
    /// value) lives in `dst`, under its `let` name if it has one.
    fn result(&mut self, frame: &mut Frame<'m>, h: Handle<naga::Expression>, dst: Reg) {
        frame.values[h.index()] = Some(Value::Regs(dst));
        if let Some(name) = frame.function.named_expressions.get(&h) {
            self.names.push((dst, Cow::Owned(name.clone())));
        }
    }

    fn expression(&mut self, frame: &mut Frame<'m>, h: Handle<naga::Expression>) -> Result<()> {
        use naga::Expression as E;
        let value = match frame.function.expressions[h] {
            E::Literal(l) => Value::Regs(self.constant(self.literal(l)?)?),
            E::Constant(c) => {
                let words = self.global_words(self.module.constants[c].init)?;
                self.words(&words)?
            }
            E::ZeroValue(ty) => {
                let words = vec![0; self.layout(ty)?.words as usize];
                self.words(&words)?
            }
            E::Override(o) => {
                let dst = self.alloc(1)?;
                self.push(Op::Override { dst, index: o.index() as u32 });
                Value::Regs(dst)
            }
            E::Compose { ty, ref components } => {
                let words = self.layout(ty)?.words;
                let dst = self.alloc(words)?;
                let places = self.places(&self.module.types[ty].inner, components.len())?;
                let mut at = 0;
                for (i, c) in components.iter().enumerate() {
                    let src = self.regs(frame, *c)?;
                    let n = self.words_of(frame, *c)?;
                    let place = places.get(i).copied().unwrap_or(at);
                    self.push(Op::Copy { dst: dst + place, src, words: n });
                    at = place + n;
                }
                Value::Regs(dst)
            }
            E::Splat { size, value } => {
                let src = self.regs(frame, value)?;
                let dst = self.alloc(size as u32)?;
                for i in 0..size as u32 {
                    self.push(Op::Copy { dst: dst + i, src, words: 1 });
                }
                Value::Regs(dst)
            }
            E::Swizzle { size, vector, pattern } => {
                let src = self.regs(frame, vector)?;
                let dst = self.alloc(size as u32)?;
                for (i, c) in pattern.iter().take(size as usize).enumerate() {
                    self.push(Op::Copy { dst: dst + i as u32, src: src + *c as u32, words: 1 });
                }
                Value::Regs(dst)
            }
            E::FunctionArgument(i) => match frame.arguments.get(i as usize) {
                Some(v) => *v,
                None => self.builtin(frame, i)?,
            },
            E::GlobalVariable(g) => match self.globals.get(g.index()) {
                Some(&var) => Value::Pointer(Pointer { var, offset: self.zero }),
                None => return self.refuse("a variable that is not stepped"),
            },
            E::LocalVariable(l) => Value::Pointer(Pointer { var: frame.locals[l.index()], offset: self.zero }),
            E::Load { pointer } => {
                let p = self.pointer(frame, pointer)?;
                let inner = self.pointee(frame, pointer)?;
                let words = self.layout_of(&inner)?.words;
                let dst = self.alloc(words)?;
                self.push(Op::Load { dst, var: p.var, offset: p.offset, words, atomic: matches!(inner, naga::TypeInner::Atomic(_)) });
                Value::Regs(dst)
            }
            E::Access { base, index } => {
                let index = self.regs(frame, index)?;
                match frame.values[base.index()] {
                    Some(Value::Pointer(p)) => {
                        let (stride, len) = self.element(&self.pointee(frame, base)?)?;
                        let checked = self.alloc(1)?;
                        self.push(Op::Bound { dst: checked, index, len, var: p.var });
                        Value::Pointer(self.offset_by(p, checked, stride)?)
                    }
                    Some(Value::Regs(r)) => {
                        let (words, count) = self.element(self.ty(frame, base))?;
                        let dst = self.alloc(words)?;
                        self.push(Op::Pick { dst, base: r, index, count, words });
                        Value::Regs(dst)
                    }
                    None => return self.refuse("a value used before it is computed"),
                }
            }
            E::AccessIndex { base, index } => match frame.values[base.index()] {
                Some(Value::Pointer(p)) => {
                    let at = self.member(&self.pointee(frame, base)?, index)?;
                    let c = self.constant(at)?;
                    Value::Pointer(self.offset_by(p, c, 1)?)
                }
                Some(Value::Regs(r)) => {
                    let at = self.member(self.ty(frame, base), index)?;
                    Value::Regs(r + at)
                }
                None => return self.refuse("a value used before it is computed"),
            },
            E::Unary { op, expr } => {
                let ty = self.scalar_of(frame, expr)?;
                let a = self.regs(frame, expr)?;
                let words = self.words_of(frame, expr)?;
                let op = match op {
                    naga::UnaryOperator::Negate => Arith::Neg,
                    naga::UnaryOperator::LogicalNot | naga::UnaryOperator::BitwiseNot => Arith::Not,
                };
                let dst = self.alloc(words)?;
                for i in 0..words {
                    self.push(Op::Arith { op, ty, dst: dst + i, a: a + i, b: a + i });
                }
                Value::Regs(dst)
            }
            E::Binary { op, left, right } => {
                use naga::BinaryOperator as B;
                let arith = match op {
                    B::Add => Arith::Add,
                    B::Subtract => Arith::Sub,
                    B::Multiply => Arith::Mul,
                    B::Divide => Arith::Div,
                    B::Modulo => Arith::Rem,
                    B::Equal => Arith::Eq,
                    B::NotEqual => Arith::Ne,
                    B::Less => Arith::Lt,
                    B::LessEqual => Arith::Le,
                    B::Greater => Arith::Gt,
                    B::GreaterEqual => Arith::Ge,
                    B::And | B::LogicalAnd => Arith::And,
                    B::ExclusiveOr => Arith::Xor,
                    B::InclusiveOr | B::LogicalOr => Arith::Or,
                    B::ShiftLeft => Arith::Shl,
                    B::ShiftRight => Arith::Shr,
                };
                let ty = self.scalar_of(frame, left)?;
                let (a, b) = (self.regs(frame, left)?, self.regs(frame, right)?);
                let (wa, wb) = (self.words_of(frame, left)?, self.words_of(frame, right)?);
                let words = wa.max(wb);
                let dst = self.alloc(words)?;
                // A scalar beside a vector counts for each of its components.
                let lane = |r: Reg, w: u32, i: u32| if w == 1 { r } else { r + i };
                for i in 0..words {
                    self.push(Op::Arith { op: arith, ty, dst: dst + i, a: lane(a, wa, i), b: lane(b, wb, i) });
                }
                Value::Regs(dst)
            }
            E::Select { condition, accept, reject } => {
                let cond = self.regs(frame, condition)?;
                let (accept, reject_r) = (self.regs(frame, accept)?, self.regs(frame, reject)?);
                let words = self.words_of(frame, reject)?;
                let dst = self.alloc(words)?;
                if self.words_of(frame, condition)? == 1 {
                    self.push(Op::Select { dst, cond, accept, reject: reject_r, words });
                } else {
                    for i in 0..words {
                        self.push(Op::Select { dst: dst + i, cond: cond + i, accept: accept + i, reject: reject_r + i, words: 1 });
                    }
                }
                Value::Regs(dst)
            }
            E::Relational { fun, argument } => {
                let a = self.regs(frame, argument)?;
                let words = self.words_of(frame, argument)?;
                let ty = self.scalar_of(frame, argument)?;
                match fun {
                    naga::RelationalFunction::All | naga::RelationalFunction::Any => {
                        let op = if fun == naga::RelationalFunction::All { Arith::And } else { Arith::Or };
                        let dst = self.alloc(1)?;
                        self.push(Op::Copy { dst, src: a, words: 1 });
                        for i in 1..words {
                            self.push(Op::Arith { op, ty: Scalar::Bool, dst, a: dst, b: a + i });
                        }
                        Value::Regs(dst)
                    }
                    naga::RelationalFunction::IsNan | naga::RelationalFunction::IsInf => {
                        let op = if fun == naga::RelationalFunction::IsNan { Arith::IsNan } else { Arith::IsInf };
                        let dst = self.alloc(words)?;
                        for i in 0..words {
                            self.push(Op::Arith { op, ty, dst: dst + i, a: a + i, b: a + i });
                        }
                        Value::Regs(dst)
                    }
                }
            }
            E::Math { fun, arg, arg1, arg2, .. } => self.math(frame, fun, arg, arg1, arg2)?,
            E::As { expr, kind, convert } => {
                let src = self.regs(frame, expr)?;
                let words = self.words_of(frame, expr)?;
                match convert {
                    None => Value::Regs(src),
                    Some(width) => {
                        let from = self.scalar_of(frame, expr)?;
                        let to = self.scalar(naga::Scalar { kind, width })?;
                        let dst = self.alloc(words)?;
                        for i in 0..words {
                            self.push(Op::Convert { dst: dst + i, a: src + i, from, to });
                        }
                        Value::Regs(dst)
                    }
                }
            }
            E::ArrayLength(pointer) => {
                let p = self.pointer(frame, pointer)?;
                let dst = self.alloc(1)?;
                self.push(Op::Length { dst, var: p.var });
                Value::Regs(dst)
            }
            E::CallResult(_) | E::AtomicResult { .. } | E::WorkGroupUniformLoadResult { .. } | E::SubgroupBallotResult | E::SubgroupOperationResult { .. } => {
                return Ok(())
            }
            _ => return self.refuse("textures, derivatives and ray queries are not stepped"),
        };
        if let (Value::Regs(r), Some(name)) = (value, frame.function.named_expressions.get(&h)) {
            self.names.push((r, Cow::Owned(name.clone())));
        }
        frame.values[h.index()] = Some(value);
        Ok(())
    }

    /// Computes expression `h` now if it has not been, with what it is made of: a local's initial
    /// value may be an override-expression that the body emits only later (`var s = size / 2u;`
    /// before a loop). Only expressions that read no memory are computed early.
    fn ensure(&mut self, frame: &mut Frame<'m>, h: Handle<naga::Expression>) -> Result<()> {
        use naga::Expression as E;
        if frame.values[h.index()].is_some() {
            return Ok(());
        }
        let operands: Vec<Handle<naga::Expression>> = match frame.function.expressions[h] {
            E::Binary { left, right, .. } => vec![left, right],
            E::Unary { expr, .. } | E::As { expr, .. } => vec![expr],
            E::Splat { value, .. } => vec![value],
            E::Swizzle { vector, .. } => vec![vector],
            E::Compose { ref components, .. } => components.clone(),
            E::Select { condition, accept, reject } => vec![condition, accept, reject],
            E::Math { arg, arg1, arg2, .. } => [Some(arg), arg1, arg2].into_iter().flatten().collect(),
            E::Literal(_) | E::Constant(_) | E::Override(_) | E::ZeroValue(_) => Vec::new(),
            _ => return self.refuse("a value used before it is computed"),
        };
        for o in operands {
            self.ensure(frame, o)?;
        }
        self.expression(frame, h)
    }

    /// Registers holding `words`.
    fn words(&mut self, words: &[u32]) -> Result<Value> {
        let dst = self.alloc(words.len() as u32)?;
        for (i, &bits) in words.iter().enumerate() {
            self.push(Op::Const { dst: dst + i as u32, bits });
        }
        Ok(Value::Regs(dst))
    }

    /// A pointer `index × stride` words past `p`.
    fn offset_by(&mut self, p: Pointer, index: Reg, stride: u32) -> Result<Pointer> {
        let scaled = if stride == 1 {
            index
        } else {
            let s = self.constant(stride)?;
            let dst = self.alloc(1)?;
            self.push(Op::Arith { op: Arith::Mul, ty: Scalar::U32, dst, a: index, b: s });
            dst
        };
        let offset = self.alloc(1)?;
        self.push(Op::Arith { op: Arith::Add, ty: Scalar::U32, dst: offset, a: p.offset, b: scaled });
        Ok(Pointer { var: p.var, offset })
    }

    /// An indexable type's element width in words and its length (0: runtime-sized).
    fn element(&self, inner: &naga::TypeInner) -> Result<(u32, u32)> {
        match *inner {
            naga::TypeInner::Vector { size, .. } => Ok((1, size as u32)),
            naga::TypeInner::Array { stride, size: naga::ArraySize::Constant(n), .. } => Ok((stride / 4, n.get())),
            naga::TypeInner::Array { stride, size: naga::ArraySize::Dynamic, .. } => Ok((stride / 4, 0)),
            _ => self.refuse("only vectors and arrays are indexed"),
        }
    }

    /// The word offset of member or element `index` of a value of type `inner`.
    fn member(&self, inner: &naga::TypeInner, index: u32) -> Result<u32> {
        match *inner {
            naga::TypeInner::Struct { ref members, .. } => members.get(index as usize).map(|m| m.offset / 4).ok_or_else(|| Refusal {
                line: self.here.0,
                column: self.here.1,
                reason: "no such member".into(),
            }),
            _ => Ok(index * self.element(inner)?.0),
        }
    }

    fn builtin(&mut self, frame: &Frame, i: u32) -> Result<Value> {
        use naga::BuiltIn as B;
        let argument = &frame.function.arguments[i as usize];
        let Some(naga::Binding::BuiltIn(b)) = argument.binding else {
            return self.refuse("an entry point's arguments must each be one built-in value");
        };
        let (which, n): (fn(u8) -> Builtin, u32) = match b {
            B::LocalInvocationId => (Builtin::LocalId, 3),
            B::GlobalInvocationId => (Builtin::GlobalId, 3),
            B::WorkGroupId => (Builtin::WorkgroupId, 3),
            B::NumWorkGroups => (Builtin::NumWorkgroups, 3),
            B::LocalInvocationIndex => (|_| Builtin::LocalIndex, 1),
            B::SubgroupSize => (|_| Builtin::SubgroupSize, 1),
            B::SubgroupInvocationId => (|_| Builtin::SubgroupInvocationId, 1),
            _ => return self.refuse("this built-in value is not stepped"),
        };
        let dst = self.alloc(n)?;
        for d in 0..n {
            self.push(Op::Builtin { dst: dst + d, which: which(d as u8) });
        }
        if let Some(name) = &argument.name {
            self.names.push((dst, Cow::Owned(name.clone())));
        }
        Ok(Value::Regs(dst))
    }

    fn math(
        &mut self,
        frame: &Frame,
        fun: naga::MathFunction,
        arg: Handle<naga::Expression>,
        arg1: Option<Handle<naga::Expression>>,
        arg2: Option<Handle<naga::Expression>>,
    ) -> Result<Value> {
        use naga::MathFunction as M;
        let ty = self.scalar_of(frame, arg)?;
        let words = self.words_of(frame, arg)?;
        let a = self.regs(frame, arg)?;
        let b = match arg1 {
            Some(h) => Some((self.regs(frame, h)?, self.words_of(frame, h)?)),
            None => None,
        };
        let lane = |r: (Reg, u32), i: u32| if r.1 == 1 { r.0 } else { r.0 + i };
        let dst = self.alloc(words)?;
        let one = |op| -> Option<Arith> { Some(op) };
        let unary = match fun {
            M::Abs => one(Arith::Abs),
            M::CountOneBits => one(Arith::CountOneBits),
            M::ReverseBits => one(Arith::ReverseBits),
            M::FirstLeadingBit => one(Arith::FirstLeadingBit),
            M::FirstTrailingBit => one(Arith::FirstTrailingBit),
            M::CountLeadingZeros => one(Arith::CountLeadingZeros),
            M::CountTrailingZeros => one(Arith::CountTrailingZeros),
            M::Sqrt => one(Arith::Sqrt),
            M::Floor => one(Arith::Floor),
            M::Ceil => one(Arith::Ceil),
            M::Log2 => one(Arith::Log2),
            M::Exp2 => one(Arith::Exp2),
            _ => None,
        };
        if let Some(op) = unary {
            for i in 0..words {
                self.push(Op::Arith { op, ty, dst: dst + i, a: a + i, b: a + i });
            }
            return Ok(Value::Regs(dst));
        }
        let Some(b) = b else { return self.refuse(format!("{fun:?} is not stepped")) };
        match fun {
            M::Min | M::Max => {
                let op = if fun == M::Min { Arith::Min } else { Arith::Max };
                for i in 0..words {
                    self.push(Op::Arith { op, ty, dst: dst + i, a: a + i, b: lane(b, i) });
                }
            }
            M::Clamp => {
                let Some(c) = arg2 else { return self.refuse("clamp needs three arguments") };
                let c = (self.regs(frame, c)?, self.words_of(frame, c)?);
                for i in 0..words {
                    self.push(Op::Arith { op: Arith::Max, ty, dst: dst + i, a: a + i, b: lane(b, i) });
                    self.push(Op::Arith { op: Arith::Min, ty, dst: dst + i, a: dst + i, b: lane(c, i) });
                }
            }
            M::Dot => {
                let t = self.alloc(1)?;
                self.push(Op::Const { dst, bits: 0 });
                for i in 0..words {
                    self.push(Op::Arith { op: Arith::Mul, ty, dst: t, a: a + i, b: lane(b, i) });
                    self.push(Op::Arith { op: Arith::Add, ty, dst, a: dst, b: t });
                }
            }
            _ => return self.refuse(format!("{fun:?} is not stepped")),
        }
        Ok(Value::Regs(dst))
    }
}

/// Whether `e` is a statement's result, given its registers by that statement.
fn is_result(e: &naga::Expression) -> bool {
    use naga::Expression as E;
    matches!(e, E::CallResult(_) | E::AtomicResult { .. } | E::WorkGroupUniformLoadResult { .. } | E::SubgroupBallotResult | E::SubgroupOperationResult { .. })
}

fn mark_emitted(block: &naga::Block, emitted: &mut [bool]) {
    use naga::Statement as S;
    for s in block.iter() {
        match s {
            S::Emit(range) => {
                for h in range.clone() {
                    emitted[h.index()] = true;
                }
            }
            S::Block(b) => mark_emitted(b, emitted),
            S::If { accept, reject, .. } => {
                mark_emitted(accept, emitted);
                mark_emitted(reject, emitted);
            }
            S::Switch { cases, .. } => cases.iter().for_each(|c| mark_emitted(&c.body, emitted)),
            S::Loop { body, continuing, .. } => {
                mark_emitted(body, emitted);
                mark_emitted(continuing, emitted);
            }
            _ => {}
        }
    }
}
