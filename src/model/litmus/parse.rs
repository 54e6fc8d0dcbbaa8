//! Reading a test's text. Every mistake comes back as a message naming its line and column.

use super::{LitmusTest, Op, Placement, Rmw, LOCATIONS, MAX_STATEMENTS, MAX_THREADS};
use crate::model::Space;
use std::fmt;

/// What is wrong, and where: 1-based line and column of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

/// A piece of the text and where it starts.
#[derive(Clone, Copy)]
struct Piece<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

impl<'a> Piece<'a> {
    fn error(self, message: impl Into<String>) -> ParseError {
        ParseError { line: self.line, column: self.column, message: message.into() }
    }

    /// The piece without its surrounding spaces, where that starts.
    fn trim(self) -> Piece<'a> {
        let start = self.text.len() - self.text.trim_start().len();
        Piece { text: self.text.trim(), line: self.line, column: self.column + self.text[..start].chars().count() }
    }

    /// Splits at every `separator`, each part keeping its own column.
    fn split(self, separator: char) -> Vec<Piece<'a>> {
        let mut out = Vec::new();
        let mut column = self.column;
        for part in self.text.split(separator) {
            out.push(Piece { text: part, line: self.line, column });
            column += part.chars().count() + 1;
        }
        out
    }

    /// Drops the first `n` bytes (ASCII text), moving the column on.
    fn after(self, n: usize) -> Piece<'a> {
        Piece { text: &self.text[n..], line: self.line, column: self.column + self.text[..n].chars().count() }
    }
}

/// Reads `text` into a test whose threads run as `placement` says, with its locations in
/// `memory`. Workgroup memory is shared only within a workgroup, so it needs `Placement::Same`.
pub fn parse(text: &str, placement: Placement, memory: Space) -> Result<LitmusTest, ParseError> {
    if memory == Space::Workgroup && placement == Placement::Across {
        return Err(ParseError { line: 1, column: 1, message: "workgroup memory is shared only within one workgroup: it needs placement=same".into() });
    }
    let mut threads = Vec::new();
    let mut registers: Vec<String> = Vec::new();
    let mut thread_starts = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = Piece { text: line, line: i + 1, column: 1 };
        for segment in line.split('|') {
            let segment = segment.trim();
            if segment.text.is_empty() {
                continue;
            }
            let body = label(segment, threads.len())?;
            if threads.len() == MAX_THREADS {
                return Err(segment.error(format!("a test has at most {MAX_THREADS} threads")));
            }
            let mut ops = Vec::new();
            for statement in body.split(';') {
                let statement = statement.trim();
                if statement.text.is_empty() {
                    continue;
                }
                if ops.len() == MAX_STATEMENTS {
                    return Err(statement.error(format!("a thread has at most {MAX_STATEMENTS} statements")));
                }
                ops.push(op(statement, &mut registers)?);
            }
            if ops.is_empty() {
                return Err(body.error(format!("thread T{} does nothing", threads.len())));
            }
            thread_starts.push(segment);
            threads.push(ops);
        }
    }
    if threads.is_empty() {
        return Err(ParseError { line: 1, column: 1, message: "the test is empty: write a thread, e.g. T0: x = 1".into() });
    }
    let test = LitmusTest { threads, registers, placement, memory };
    if let Some((t, message)) = super::barrier_mismatch(&test) {
        return Err(thread_starts[t].error(message));
    }
    Ok(test)
}

/// Reads an optional `T<n>:` label, which must name the thread in order; returns the rest.
fn label(segment: Piece, index: usize) -> Result<Piece, ParseError> {
    let Some(colon) = segment.text.find(':') else { return Ok(segment) };
    let name = segment.text[..colon].trim();
    if name != format!("T{index}") && name != format!("t{index}") {
        return Err(segment.error(format!("expected T{index}: here, found {name}:")));
    }
    Ok(segment.after(colon + 1))
}

fn location(piece: Piece) -> Result<usize, ParseError> {
    let name = piece.text.trim().trim_start_matches('&').trim();
    LOCATIONS.iter().position(|l| *l == name).ok_or_else(|| piece.trim().error(format!("unknown location {name:?}: a test uses x, y and z")))
}

fn number(piece: Piece) -> Result<u32, ParseError> {
    let text = piece.text.trim().trim_end_matches('u');
    text.parse::<u32>().map_err(|_| piece.trim().error(format!("expected a whole number from 0 to {}, found {:?}", u32::MAX, piece.text.trim())))
}

/// A register being written: `r<n>`, each written once only.
fn register(piece: Piece, registers: &mut Vec<String>) -> Result<usize, ParseError> {
    let name = piece.text.trim();
    let ok = name.len() >= 2 && name.starts_with('r') && name[1..].chars().all(|c| c.is_ascii_digit());
    if !ok {
        return Err(piece.trim().error(format!("expected a register (r0, r1, …) or a location (x, y, z), found {name:?}")));
    }
    if registers.iter().any(|r| r == name) {
        return Err(piece.trim().error(format!("{name} is written twice: each register holds one read")));
    }
    registers.push(name.to_owned());
    Ok(registers.len() - 1)
}

/// `name(a, b, …)`: the arguments, each with its column; `None` if the text is not a call of `name`.
fn call<'a>(piece: Piece<'a>, name: &str) -> Option<Result<Vec<Piece<'a>>, ParseError>> {
    let rest = piece.text.strip_prefix(name)?;
    let open = rest.len() - rest.trim_start().len();
    if !rest.trim_start().starts_with('(') {
        return None;
    }
    let inner = piece.after(name.len() + open + 1);
    let Some(close) = inner.text.rfind(')') else { return Some(Err(piece.error(format!("{name}( is not closed")))) };
    if !inner.text[close + 1..].trim().is_empty() {
        return Some(Err(inner.after(close + 1).trim().error("unexpected text after the call")));
    }
    let args = Piece { text: &inner.text[..close], ..inner };
    Some(Ok(if args.text.trim().is_empty() { Vec::new() } else { args.split(',') }))
}

fn arity<'a>(piece: Piece, name: &str, args: Vec<Piece<'a>>, n: usize) -> Result<Vec<Piece<'a>>, ParseError> {
    if args.len() == n {
        Ok(args)
    } else {
        Err(piece.error(format!("{name} takes {n} argument(s), found {}", args.len())))
    }
}

fn op(statement: Piece, registers: &mut Vec<String>) -> Result<Op, ParseError> {
    for (name, space) in [("workgroupBarrier", Space::Workgroup), ("storageBarrier", Space::Storage)] {
        if let Some(args) = call(statement, name) {
            arity(statement, name, args?, 0)?;
            return Ok(Op::Barrier(space));
        }
    }
    let Some(eq) = statement.text.find('=') else {
        return Err(statement.error(format!(
            "expected a store (x = 1), a load (r0 = x), r0 = atomicAdd(x, 1), atomicExchange, atomicCompareExchangeWeak or a barrier, found {:?}",
            statement.text
        )));
    };
    let (left, right) = (Piece { text: &statement.text[..eq], ..statement }, statement.after(eq + 1).trim());
    // A store: a location on the left.
    if LOCATIONS.contains(&left.text.trim()) {
        return Ok(Op::Store { loc: location(left)?, value: number(right)? });
    }
    let reg = register(left, registers)?;
    let rmws: [(&str, usize); 3] = [("atomicAdd", 2), ("atomicExchange", 2), ("atomicCompareExchangeWeak", 3)];
    for (name, n) in rmws {
        if let Some(args) = call(right, name) {
            let args = arity(right, name, args?, n)?;
            let loc = location(args[0])?;
            let rmw = match name {
                "atomicAdd" => Rmw::Add(number(args[1])?),
                "atomicExchange" => Rmw::Exchange(number(args[1])?),
                _ => Rmw::CompareExchange { expected: number(args[1])?, value: number(args[2])? },
            };
            return Ok(Op::Rmw { reg, loc, rmw });
        }
    }
    if let Some(args) = call(right, "atomicLoad") {
        let args = arity(right, "atomicLoad", args?, 1)?;
        return Ok(Op::Load { reg, loc: location(args[0])? });
    }
    Ok(Op::Load { reg, loc: location(right)? })
}
