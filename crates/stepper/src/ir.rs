//! The lowered program: a kernel's entry point flattened into a list of small instructions over
//! 32-bit registers and word-addressed variables, every instruction carrying the line and column of
//! the WGSL it came from.
//!
//! Only what a kernel shares is a *step* ([`Instr::is_step`]): an access to a storage or workgroup
//! variable, a barrier, a subgroup operation. Everything else (arithmetic, private and function
//! variables, uniforms) runs between steps and takes no turn of its own.
//!
//! Every table is a [`Cow`], so that a program lowered at build time is a `static` (see
//! [`crate::rust`]) and one lowered in the browser owns its vectors.

use std::borrow::Cow;

/// A register of one invocation: one 32-bit word. A vector or struct value takes as many
/// registers in a row as its memory layout has words.
pub type Reg = u32;

/// What the bits in a register mean, for arithmetic, comparisons and conversions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    U32,
    I32,
    F32,
    /// 0 or 1.
    Bool,
}

/// Where a variable lives, as the kernel declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// `var<storage, read>` or `read_write`: one copy for the whole dispatch.
    Storage { writable: bool },
    /// `var<uniform>`: read only, the same for every invocation.
    Uniform,
    /// `var<workgroup>`: one copy per workgroup.
    Workgroup,
    /// `var<private>`: one copy per invocation.
    Private,
    /// A function's `var`: one copy per invocation (and per inlined call).
    Function,
}

impl Space {
    /// Memory other invocations can see: the only memory whose accesses are steps.
    pub fn is_shared(self) -> bool {
        matches!(self, Space::Storage { .. } | Space::Workgroup)
    }

    /// The address space as WGSL writes it.
    pub fn wgsl(self) -> &'static str {
        match self {
            Space::Storage { .. } => "storage",
            Space::Uniform => "uniform",
            Space::Workgroup => "workgroup",
            Space::Private => "private",
            Space::Function => "function",
        }
    }
}

/// A variable of the kernel: a global, or a function's local (one per inlined call).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Var {
    pub name: Cow<'static, str>,
    pub space: Space,
    /// `@group(g) @binding(b)`, for storage and uniform buffers.
    pub binding: Option<(u32, u32)>,
    /// Words before a runtime-sized array at its end, or the whole size.
    pub words: u32,
    /// The runtime-sized array's element, in words, if it ends in one: its length comes from the
    /// buffer the run is given.
    pub runtime_stride: Option<u32>,
    /// Whether its words are atomics (all of them: the kernels' atomics are whole variables or
    /// whole arrays; a struct that mixes them is marked so, and each access says which it is).
    pub atomic: bool,
    /// The words it starts with: `None` for zeros (workgroup and function memory, or a buffer the
    /// run fills).
    pub init: Option<Cow<'static, [u32]>>,
    /// For a struct, or an array of structs (each element's), where each member starts (in words)
    /// and its name: how a view names the words.
    pub fields: Cow<'static, [(u32, Cow<'static, str>)]>,
}

/// A built-in value of the compute stage, one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `local_invocation_id.x`, `.y`, `.z` (0, 1, 2).
    LocalId(u8),
    LocalIndex,
    GlobalId(u8),
    WorkgroupId(u8),
    NumWorkgroups(u8),
    SubgroupSize,
    SubgroupInvocationId,
}

/// Arithmetic on one or two scalars of one [`Scalar`] kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Min,
    Max,
    Neg,
    Not,
    Abs,
    CountOneBits,
    ReverseBits,
    FirstLeadingBit,
    FirstTrailingBit,
    CountLeadingZeros,
    CountTrailingZeros,
    IsNan,
    IsInf,
    Sqrt,
    Floor,
    Ceil,
    Log2,
    Exp2,
}

/// A read-modify-write atomic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicFn {
    Add,
    Sub,
    And,
    Or,
    Xor,
    Min,
    Max,
    Exchange,
    /// `atomicCompareExchangeWeak`: the result is two words, the old value and 1 if it exchanged.
    /// The interpreter never fails spuriously.
    CompareExchange,
}

impl AtomicFn {
    pub fn wgsl(self) -> &'static str {
        match self {
            AtomicFn::Add => "atomicAdd",
            AtomicFn::Sub => "atomicSub",
            AtomicFn::And => "atomicAnd",
            AtomicFn::Or => "atomicOr",
            AtomicFn::Xor => "atomicXor",
            AtomicFn::Min => "atomicMin",
            AtomicFn::Max => "atomicMax",
            AtomicFn::Exchange => "atomicExchange",
            AtomicFn::CompareExchange => "atomicCompareExchangeWeak",
        }
    }
}

/// What the lanes of a subgroup that take an operation together compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SubgroupFn {
    /// `subgroupBallot(p)`: bit `i` of word 0 for lane `i` active with `p` true (four words).
    Ballot,
    /// `subgroupAll`, `subgroupAny` and the reductions: the same result in every active lane.
    Reduce(Arith),
    /// `subgroupInclusiveAdd` and the like: over the active lanes up to this one.
    InclusiveScan(Arith),
    /// `subgroupExclusiveAdd` and the like: over the active lanes before this one.
    ExclusiveScan(Arith),
    All,
    Any,
    /// `subgroupBroadcastFirst(v)`: the lowest active lane's value. `subgroupElect()` is
    /// `lane == subgroupBroadcastFirst(lane)`.
    BroadcastFirst,
    Elect,
    /// `subgroupBroadcast(v, lane)`, `subgroupShuffle(v, lane)`: the named lane's value.
    Shuffle,
    ShuffleXor,
    ShuffleUp,
    ShuffleDown,
}

/// One instruction. Registers hold words; `ty` says how to read them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `dst = bits`.
    Const {
        dst: Reg,
        bits: u32,
    },
    /// `dst = src`, `words` of them.
    Copy {
        dst: Reg,
        src: Reg,
        words: u32,
    },
    /// A built-in value.
    Builtin {
        dst: Reg,
        which: Builtin,
    },
    /// An `override`'s value for this run.
    Override {
        dst: Reg,
        index: u32,
    },
    /// `dst = a op b` (`b` unused by one-operand ops). Comparisons give a `Bool`.
    Arith {
        op: Arith,
        ty: Scalar,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    /// `dst = select(reject, accept, cond)`, `words` of them.
    Select {
        dst: Reg,
        cond: Reg,
        accept: Reg,
        reject: Reg,
        words: u32,
    },
    /// A value conversion (`u32(x)` of an `f32`, say); a bitcast is a [`Op::Copy`].
    Convert {
        dst: Reg,
        a: Reg,
        from: Scalar,
        to: Scalar,
    },
    /// `dst = base[index]` for a value held in registers (a vector or array indexed by a value):
    /// `count` elements of `words` each. An index past the end is a finding, then the last element.
    Pick {
        dst: Reg,
        base: Reg,
        index: Reg,
        count: u32,
        words: u32,
    },
    /// `dst = index` when `index < len`; otherwise a finding, and `dst` the last element's index
    /// (robust access keeps a real GPU inside the buffer too). `len` 0 means the runtime-sized
    /// array of `var`.
    Bound {
        dst: Reg,
        index: Reg,
        len: u32,
        var: u32,
    },
    /// `dst = arrayLength(&var's runtime-sized array)`.
    Length {
        dst: Reg,
        var: u32,
    },
    /// `dst = var[offset..offset + words]`: a load (`atomicLoad` when `atomic`).
    Load {
        dst: Reg,
        var: u32,
        offset: Reg,
        words: u32,
        atomic: bool,
    },
    /// `var[offset..offset + words] = src`: a store (`atomicStore` when `atomic`).
    Store {
        var: u32,
        offset: Reg,
        src: Reg,
        words: u32,
        atomic: bool,
    },
    /// `dst = fun(&var[offset], value)` (with `compare` for a compare-exchange); `dst` gets the
    /// old value, and for a compare-exchange the next register 1 or 0.
    Atomic {
        fun: AtomicFn,
        ty: Scalar,
        var: u32,
        offset: Reg,
        value: Reg,
        compare: Reg,
        dst: Reg,
    },
    /// `workgroupBarrier()` (`workgroup`), `storageBarrier()` (`storage`): nobody of the
    /// workgroup leaves until all have arrived, and the accesses before it are ordered before the
    /// accesses after it, in the spaces it names.
    Barrier {
        workgroup: bool,
        storage: bool,
    },
    /// A subgroup operation on `words` words of `arg` (`extra`: the lane or mask operand).
    Subgroup {
        fun: SubgroupFn,
        ty: Scalar,
        dst: Reg,
        arg: Reg,
        extra: Reg,
        words: u32,
    },
    /// Go to `to` when `cond` is 0.
    BranchIfZero {
        cond: Reg,
        to: u32,
    },
    /// Go to `to` when `cond` is not 0.
    BranchIfNonZero {
        cond: Reg,
        to: u32,
    },
    Jump {
        to: u32,
    },
    /// The invocation ends.
    Return,
}

/// An instruction and the place in the kernel it comes from (1-based line and column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instr {
    pub op: Op,
    pub line: u32,
    pub column: u32,
}

/// How big one dimension of the workgroup is: written in the kernel, or an `override`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    Fixed(u32),
    Override(u32),
}

/// An `override` of the kernel: its name and the value it has unless the run sets one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverrideDecl {
    pub name: Cow<'static, str>,
    pub ty: Scalar,
    pub default: Option<u32>,
}

/// A kernel's entry point, lowered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The entry point's name.
    pub entry: Cow<'static, str>,
    pub workgroup_size: [Size; 3],
    pub instrs: Cow<'static, [Instr]>,
    pub vars: Cow<'static, [Var]>,
    pub overrides: Cow<'static, [OverrideDecl]>,
    /// Registers an invocation needs.
    pub registers: u32,
    /// Names of some registers, for showing them: a `let` or a named value (`value`, `old`).
    pub names: Cow<'static, [(Reg, Cow<'static, str>)]>,
}

impl Instr {
    /// Whether other invocations can see it or must take part: an access to storage or workgroup
    /// memory, a barrier, a subgroup operation. Each is one step of the scheduler.
    pub fn is_step(&self, vars: &[Var]) -> bool {
        let shared = |var: u32| vars.get(var as usize).is_some_and(|v| v.space.is_shared());
        match self.op {
            Op::Load { var, .. } | Op::Store { var, .. } | Op::Atomic { var, .. } => shared(var),
            Op::Barrier { .. } | Op::Subgroup { .. } => true,
            _ => false,
        }
    }
}

impl Program {
    /// A program over the same tables as this one, which lives as long as the site (a kernel
    /// lowered at build time): nothing copied, and no copying code on a page.
    pub fn borrowed(&'static self) -> Program {
        Program {
            entry: Cow::Borrowed(&self.entry),
            workgroup_size: self.workgroup_size,
            instrs: Cow::Borrowed(&self.instrs),
            vars: Cow::Borrowed(&self.vars),
            overrides: Cow::Borrowed(&self.overrides),
            registers: self.registers,
            names: Cow::Borrowed(&self.names),
        }
    }

    /// The index of the variable named `name`, if the kernel has one (globals come first).
    pub fn var(&self, name: &str) -> Option<u32> {
        self.vars.iter().position(|v| v.name == name).map(|i| i as u32)
    }

    /// The variable bound at `@group(group) @binding(binding)`.
    pub fn binding(&self, group: u32, binding: u32) -> Option<u32> {
        self.vars.iter().position(|v| v.binding == Some((group, binding))).map(|i| i as u32)
    }

    /// The index of the override named `name`.
    pub fn override_index(&self, name: &str) -> Option<u32> {
        self.overrides.iter().position(|o| o.name == name).map(|i| i as u32)
    }

    /// The kernel's lines the steps are on, each once, in order.
    pub fn step_lines(&self) -> Vec<u32> {
        let mut lines: Vec<u32> = self.instrs.iter().filter(|i| i.is_step(&self.vars)).map(|i| i.line).collect();
        lines.sort_unstable();
        lines.dedup();
        lines
    }
}
