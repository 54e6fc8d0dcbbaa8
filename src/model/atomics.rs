//! What WGSL's read-modify-write atomics do to a 32-bit cell, on `u32` and on `i32`.
//!
//! The model keeps every value as an `i64`; a cell of type `u32` holds 0..=2³²−1 and one of
//! type `i32` holds −2³¹..=2³¹−1. Arithmetic wraps exactly as on the GPU, and `max`/`min`
//! compare as the cell's type does: `0xFFFFFFFF` is the largest `u32` but `-1` as an `i32`.

/// The integer type of an atomic cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntType {
    U32,
    I32,
}

impl IntType {
    pub fn name(self) -> &'static str {
        match self {
            IntType::U32 => "u32",
            IntType::I32 => "i32",
        }
    }

    /// The value these 32 bits have in this type.
    pub fn from_bits(self, bits: u32) -> i64 {
        match self {
            IntType::U32 => i64::from(bits),
            IntType::I32 => i64::from(bits as i32),
        }
    }

    /// The 32 bits of `value` (taken modulo 2³², as a cast would).
    pub fn bits(value: i64) -> u32 {
        value as u32
    }

    /// `value` wrapped into this type's range.
    pub fn wrap(self, value: i64) -> i64 {
        self.from_bits(Self::bits(value))
    }

    pub fn range(self) -> std::ops::RangeInclusive<i64> {
        match self {
            IntType::U32 => 0..=i64::from(u32::MAX),
            IntType::I32 => i64::from(i32::MIN)..=i64::from(i32::MAX),
        }
    }
}

/// The atomics that change a cell and return what it held before.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RmwOp {
    Add,
    Sub,
    Max,
    Min,
    And,
    Or,
    Xor,
    Exchange,
}

impl RmwOp {
    /// The WGSL built-in.
    pub fn function(self) -> &'static str {
        match self {
            RmwOp::Add => "atomicAdd",
            RmwOp::Sub => "atomicSub",
            RmwOp::Max => "atomicMax",
            RmwOp::Min => "atomicMin",
            RmwOp::And => "atomicAnd",
            RmwOp::Or => "atomicOr",
            RmwOp::Xor => "atomicXor",
            RmwOp::Exchange => "atomicExchange",
        }
    }

    /// The value the cell holds after this op with `operand`, from `old`, both in `ty`'s range.
    pub fn apply(self, ty: IntType, old: i64, operand: i64) -> i64 {
        let (a, b) = (IntType::bits(old), IntType::bits(operand));
        let bits = match self {
            RmwOp::Add => a.wrapping_add(b),
            RmwOp::Sub => a.wrapping_sub(b),
            RmwOp::Max if ty == IntType::U32 => a.max(b),
            RmwOp::Max => (a as i32).max(b as i32) as u32,
            RmwOp::Min if ty == IntType::U32 => a.min(b),
            RmwOp::Min => (a as i32).min(b as i32) as u32,
            RmwOp::And => a & b,
            RmwOp::Or => a | b,
            RmwOp::Xor => a ^ b,
            RmwOp::Exchange => b,
        };
        ty.from_bits(bits)
    }
}
