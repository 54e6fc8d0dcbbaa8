//! Reading a test's text. Every mistake comes back as a message naming its line and column.

use super::{LitmusTest, Mode, Op, Order, Placement, Rmw, Scope, LOCATIONS, MAX_STATEMENTS, MAX_THREADS};
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

/// Reads `text` into a test whose threads run as `placement` says (unless the text's labels
/// place them, `T0@wg0:`), with its locations in `memory`. Workgroup memory is shared only
/// within a workgroup, so it needs every thread in one.
pub fn parse(text: &str, placement: Placement, memory: Space) -> Result<LitmusTest, ParseError> {
    let mut threads = Vec::new();
    let mut registers: Vec<String> = Vec::new();
    let mut thread_starts = Vec::new();
    // The workgroup each label names, as written (`None`: no `@`).
    let mut named: Vec<Option<u32>> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = Piece { text: line, line: i + 1, column: 1 };
        for segment in line.split('|') {
            let segment = segment.trim();
            if segment.text.is_empty() {
                continue;
            }
            let (body, group) = label(segment, threads.len())?;
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
            named.push(group);
        }
    }
    if threads.is_empty() {
        return Err(ParseError { line: 1, column: 1, message: "the test is empty: write a thread, e.g. T0: x = 1".into() });
    }
    let labelled = named.iter().any(Option::is_some);
    let groups: Vec<usize> = if labelled {
        if let Some(t) = named.iter().position(Option::is_none) {
            return Err(thread_starts[t].error(format!("T{t} has no workgroup: once one thread says where it runs (T0@wg0:), every thread must")));
        }
        // Numbered in order of first appearance: `T0@wg3 | T1@wg3` is one workgroup, 0.
        let mut seen: Vec<Option<u32>> = Vec::new();
        named
            .iter()
            .map(|g| {
                seen.iter().position(|s| s == g).unwrap_or_else(|| {
                    seen.push(*g);
                    seen.len() - 1
                })
            })
            .collect()
    } else {
        match placement {
            Placement::Same => vec![0; threads.len()],
            Placement::Across | Placement::Mixed => (0..threads.len()).collect(),
        }
    };
    let placement = if !labelled {
        // As the lab's setting says, even for one thread (whose kernel it shapes).
        if placement == Placement::Same {
            Placement::Same
        } else {
            Placement::Across
        }
    } else if groups.iter().all(|&g| g == 0) {
        Placement::Same
    } else if groups.iter().enumerate().all(|(t, &g)| g == t) {
        Placement::Across
    } else {
        Placement::Mixed
    };
    if memory == Space::Workgroup && placement != Placement::Same {
        let message = if labelled {
            "workgroup memory is shared only within one workgroup: with memory=workgroup, place every thread in the same one (T0@wg0, T1@wg0, …)"
        } else {
            "workgroup memory is shared only within one workgroup: it needs placement=same"
        };
        return Err(ParseError { line: 1, column: 1, message: message.into() });
    }
    let test = LitmusTest { threads, registers, placement, groups, labelled, memory };
    if let Some((t, message)) = super::barrier_mismatch(&test) {
        return Err(thread_starts[t].error(message));
    }
    Ok(test)
}

/// Reads an optional `T<n>:` or `T<n>@wg<k>:` label, which must name the thread in order;
/// returns the rest and the workgroup it names.
fn label(segment: Piece, index: usize) -> Result<(Piece, Option<u32>), ParseError> {
    let Some(colon) = segment.text.find(':') else { return Ok((segment, None)) };
    let written = segment.text[..colon].trim();
    let (name, group) = match written.split_once('@') {
        Some((name, group)) => (name.trim(), Some(group.trim())),
        None => (written, None),
    };
    if name != format!("T{index}") && name != format!("t{index}") {
        return Err(segment.error(format!("expected T{index}: here, found {written}:")));
    }
    let group = match group {
        None => None,
        Some(g) => {
            let number = g.strip_prefix("wg").and_then(|n| n.parse::<u32>().ok()).filter(|_| g.len() <= 6);
            match number {
                Some(n) => Some(n),
                None => return Err(segment.error(format!("expected a workgroup after @, as in T{index}@wg0:, found {g:?}"))),
            }
        }
    };
    Ok((segment.after(colon + 1), group))
}

/// An order's name, or one of its aliases (`sc`, `weak`).
fn order(piece: Piece) -> Result<Order, ParseError> {
    let name = piece.text.trim();
    let alias = match name {
        "sc" => Some(Order::SeqCst),
        "weak" => Some(Order::Plain),
        _ => None,
    };
    alias
        .or_else(|| Order::ALL.into_iter().find(|o| o.name() == name))
        .ok_or_else(|| piece.trim().error(format!("unknown order {name:?}: write plain, relaxed, acquire, release, acq_rel or seq_cst")))
}

/// A scope's name, or CUDA's and PTX's for it (`cta`, `block`, `gpu`, `sys`).
fn scope(piece: Piece) -> Result<Scope, ParseError> {
    let name = piece.text.trim();
    let alias = match name {
        "cta" | "block" => Some(Scope::Workgroup),
        "gpu" => Some(Scope::Device),
        "sys" => Some(Scope::System),
        _ => None,
    };
    alias
        .or_else(|| Scope::ALL.into_iter().find(|s| s.name() == name))
        .ok_or_else(|| piece.trim().error(format!("unknown scope {name:?}: write workgroup, device or system")))
}

/// The optional order and scope at the end of an access's arguments; `allowed` are the orders
/// this kind of access may have, `what` names it in a message.
fn mode(args: &[Piece], allowed: &[Order], what: &str) -> Result<Mode, ParseError> {
    let mode = match args {
        [] => Mode::WGSL,
        [o] => Mode { order: order(*o)?, scope: None },
        [o, s] => Mode { order: order(*o)?, scope: Some(scope(*s)?) },
        [_, _, extra, ..] => return Err(extra.trim().error("too many arguments: an order and a scope at most")),
    };
    if !allowed.contains(&mode.order) {
        let names: Vec<&str> = allowed.iter().map(|o| o.name()).collect();
        return Err(args[0].trim().error(format!("{what} cannot be {}: write {}", mode.order.name(), names.join(", "))));
    }
    if mode.order == Order::Plain && mode.scope.is_some() {
        return Err(args[1].trim().error("a plain access is not atomic and has no scope: write x.store(1, plain)"));
    }
    Ok(mode)
}

const STORE_ORDERS: [Order; 4] = [Order::Plain, Order::Relaxed, Order::Release, Order::SeqCst];
const LOAD_ORDERS: [Order; 4] = [Order::Plain, Order::Relaxed, Order::Acquire, Order::SeqCst];
const RMW_ORDERS: [Order; 5] = [Order::Relaxed, Order::Acquire, Order::Release, Order::AcqRel, Order::SeqCst];

/// `x.store(…)` or `x.load(…)`: the location and the arguments, if `piece` is such a call.
fn method<'a>(piece: Piece<'a>, name: &str) -> Option<Result<(usize, Vec<Piece<'a>>), ParseError>> {
    let dot = piece.text.find('.')?;
    let receiver = Piece { text: &piece.text[..dot], ..piece };
    let rest = piece.after(dot + 1);
    let args = call(rest, name)?;
    Some(args.and_then(|args| Ok((location(receiver)?, args))))
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
    // CUDA's fences are PTX's fence.sc at the block, the device and the system.
    for (name, scope) in [("__threadfence_block", Scope::Workgroup), ("__threadfence_system", Scope::System), ("__threadfence", Scope::Device)] {
        if let Some(args) = call(statement, name) {
            arity(statement, name, args?, 0)?;
            return Ok(Op::Fence { order: Order::SeqCst, scope });
        }
    }
    if let Some(args) = call(statement, "fence") {
        let args = arity(statement, "fence", args?, 2)?;
        let order = order(args[0])?;
        if matches!(order, Order::Plain | Order::Relaxed) {
            return Err(args[0].trim().error(format!("a {} fence orders nothing: write acquire, release, acq_rel or seq_cst", order.name())));
        }
        return Ok(Op::Fence { order, scope: scope(args[1])? });
    }
    if let Some(store) = method(statement, "store") {
        let (loc, args) = store?;
        let Some((value, rest)) = args.split_first() else {
            return Err(statement.error("store takes a value, then an order and a scope: x.store(1, release, device)"));
        };
        return Ok(Op::Store { loc, value: number(*value)?, mode: mode(rest, &STORE_ORDERS, "a store")? });
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
        return Ok(Op::Store { loc: location(left)?, value: number(right)?, mode: Mode::WGSL });
    }
    let reg = register(left, registers)?;
    let rmws: [(&str, usize); 3] = [("atomicAdd", 2), ("atomicExchange", 2), ("atomicCompareExchangeWeak", 3)];
    for (name, n) in rmws {
        if let Some(args) = call(right, name) {
            let args = args?;
            if args.len() < n || args.len() > n + 2 {
                return Err(right.error(format!("{name} takes {n} argument(s), then an order and a scope if you like; found {}", args.len())));
            }
            let loc = location(args[0])?;
            let rmw = match name {
                "atomicAdd" => Rmw::Add(number(args[1])?),
                "atomicExchange" => Rmw::Exchange(number(args[1])?),
                _ => Rmw::CompareExchange { expected: number(args[1])?, value: number(args[2])? },
            };
            let mode = mode(&args[n..], &RMW_ORDERS, "a read-modify-write")?;
            return Ok(Op::Rmw { reg, loc, rmw, mode });
        }
    }
    if let Some(args) = call(right, "atomicLoad") {
        let args = arity(right, "atomicLoad", args?, 1)?;
        return Ok(Op::Load { reg, loc: location(args[0])?, mode: Mode::WGSL });
    }
    if let Some(load) = method(right, "load") {
        let (loc, args) = load?;
        return Ok(Op::Load { reg, loc, mode: mode(&args, &LOAD_ORDERS, "a load")? });
    }
    Ok(Op::Load { reg, loc: location(right)?, mode: Mode::WGSL })
}
