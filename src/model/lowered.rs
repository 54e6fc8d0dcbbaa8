//! What a model that steps a kernel's own WGSL knows of its program beyond the hand-written
//! models' tables: the lowered kernel (see [`crate::stepped`]), and which of its words and values
//! the scene draws. Data only: the stepping is [`super::kernel`]'s.

/// What a model stepping a kernel knows beyond the hand-written models' tables.
#[derive(Clone)]
pub struct Lowered {
    pub kernel: &'static stepper::Program,
    /// The kernel's source: the line each step stands on is read from it.
    pub source: &'static str,
    /// Per model cell: the variable, its workgroup's copy and the word.
    pub cells: Vec<Cell>,
    /// Per model register: where in an invocation its value lives.
    pub values: Vec<Value>,
    /// The values and variables (by name, a struct's word as `var.field`) holding an i32's bits,
    /// written signed.
    pub signed: &'static [&'static str],
}

/// A word of shared memory drawn as one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub var: u32,
    pub workgroup: u32,
    pub word: u32,
}

/// A value the scene shows in a lane: a named register, or a function variable's first word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Reg(u32),
    Var(u32),
}

impl PartialEq for Lowered {
    fn eq(&self, other: &Lowered) -> bool {
        std::ptr::eq(self.kernel, other.kernel) && self.cells == other.cells && self.values == other.values
    }
}
impl Eq for Lowered {}
impl std::fmt::Debug for Lowered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lowered({}, {} cells)", self.kernel.entry, self.cells.len())
    }
}

impl Lowered {
    /// What instruction `pc` does, as its kernel line writes it from the expression it comes
    /// from on (`atomicLoad(&counter)` of `var value = atomicLoad(&counter);`), without the line's
    /// comment or the statement's closing `;` and braces: what fits in a lane.
    pub fn line_text(&self, pc: usize) -> Option<&'static str> {
        let instr = self.kernel.instrs.get(pc)?;
        let text = self.source.lines().nth((instr.line as usize).checked_sub(1)?)?;
        let text = text.split("//").next().unwrap_or(text);
        let from = (instr.column as usize).checked_sub(1).and_then(|c| text.char_indices().nth(c)).map_or(0, |(at, _)| at);
        let text = text.get(from..).unwrap_or(text);
        Some(text.trim().trim_end_matches(|c: char| c == ';' || c == '}' || c.is_whitespace()))
    }
}
