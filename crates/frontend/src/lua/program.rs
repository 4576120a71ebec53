//! A `dungeon.lua` that is a program (xNetHack's draws and swaps before
//! its table, `dat/dungeon.lua:7-19`): run in the [`sandbox`] once per
//! distinct outcome of its draws, and each run's `dungeon` read back as the
//! [`Value`] tree the static reader gives for pure data, with spans.
//!
//! Spans come from the source, not from Lua: before the run every table
//! constructor that is an expression is wrapped in a call of a hidden
//! local, `__dgnkit_at(N, {...})`, on the same line (so Lua's line numbers
//! are the file's), which records which table constructor `N` made. A table
//! of the result then takes its constructor's span, a field the span of the
//! field written there, and a value the span of the expression that
//! supplied it.
//!
//! The outcomes are enumerated depth first: a run takes the classes of its
//! first draws from the previous run's path and the first class of any
//! further draw; the next run takes the next class of the deepest draw that
//! has one. A draw's classes are the values that lead apart: `percent(t)`
//! has two (below `t` or not), any other draw one per value.

use super::codes::*;
use super::sandbox::{self, Chooser, DrawRec, Stop};
use super::syntax::{Constructor, Data, NamedField, Parsed, Str, Table, Value, MAX_NESTING};
use dgnkit_grammar::{Diagnostic, Span};
use dgnkit_script::{PreludeArm, PreludeNode};
use mlua::Value as LuaValue;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Most runs (distinct outcomes) one file may need.
pub const MAX_OUTCOMES: usize = 256;

/// One outcome: the `dungeon` it sets (`None`: it does not set one).
#[derive(Debug)]
pub struct Outcome {
    pub dungeon: Option<Value>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Every outcome of the file's draws, and the tree of draws that leads to
/// each ([`PreludeNode::Outcome`] indexes `outcomes`). `tree` is `None`
/// when the file draws nothing; `outcomes` is empty when a run failed (the
/// error is in `diagnostics`).
#[derive(Debug, Default)]
pub struct Program {
    pub outcomes: Vec<Outcome>,
    pub tree: Option<PreludeNode>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Runs `src` (already parsed into `parsed`) once per outcome.
pub fn evaluate(src: &[u8], parsed: &Parsed) -> Program {
    let code = wrap(src, &parsed.constructors);
    let mut leaves: Vec<(Vec<DrawRec>, usize)> = Vec::new();
    let mut program = Program::default();
    let mut forced: Vec<u32> = Vec::new();
    let deadline = std::time::Instant::now() + sandbox::TOTAL_TIME_LIMIT;
    loop {
        let chooser = Rc::new(RefCell::new(Chooser {
            forced: forced.clone(),
            log: Vec::new(),
        }));
        let run = sandbox::run(&code, chooser.clone(), deadline);
        let log = std::mem::take(&mut chooser.borrow_mut().log);
        match run {
            Ok(run) => {
                let outcome = read_back(src, parsed, &run);
                leaves.push((log.clone(), program.outcomes.len()));
                program.outcomes.push(outcome);
            }
            Err(stop) => {
                program.diagnostics.push(stopped(src, &stop, &log));
                program.outcomes.clear();
                return program;
            }
        }
        if std::time::Instant::now() > deadline {
            let span = line_span(src, log.last().map_or(0, |d| d.line));
            program.diagnostics.push(
                Diagnostic::error(
                    LUA_LIMIT,
                    span,
                    format!(
                        "running the file once per outcome of its draws took longer than {} ms",
                        sandbox::TOTAL_TIME_LIMIT.as_millis()
                    ),
                )
                .with_label(span, "the draws that lead apart"),
            );
            program.outcomes.clear();
            return program;
        }
        // The deepest draw with a class left: the next run takes it.
        let Some(i) = log
            .iter()
            .rposition(|d| (d.class as usize) + 1 < d.cuts.len())
        else {
            break;
        };
        if program.outcomes.len() >= MAX_OUTCOMES {
            let line = log[i].line;
            let span = line_span(src, line);
            program.diagnostics.push(
                Diagnostic::error(
                    LUA_OUTCOMES,
                    span,
                    format!("the file's draws have more than {MAX_OUTCOMES} outcomes"),
                )
                .with_label(span, "this draw and those before it")
                .with_note("dgnkit runs the file once per outcome of its draws, to lay out every seed and count exact chances; draw with `percent(n)` or a small `math.random(n)`"),
            );
            program.outcomes.clear();
            return program;
        }
        forced = log[..i].iter().map(|d| d.class).collect();
        forced.push(log[i].class + 1);
    }
    if leaves.iter().any(|(path, _)| !path.is_empty()) {
        program.tree = Some(tree(&leaves, 0));
    }
    program
}

fn tree(leaves: &[(Vec<DrawRec>, usize)], depth: usize) -> PreludeNode {
    let Some(draw) = leaves.first().and_then(|(p, _)| p.get(depth)) else {
        return PreludeNode::Outcome(leaves.first().map_or(0, |l| l.1) as u32);
    };
    let arms = draw
        .cuts
        .iter()
        .enumerate()
        .map(|(class, &below)| {
            let sub: Vec<(Vec<DrawRec>, usize)> = leaves
                .iter()
                .filter(|(p, _)| p.get(depth).is_some_and(|d| d.class as usize == class))
                .cloned()
                .collect();
            PreludeArm {
                below,
                next: tree(&sub, depth + 1),
            }
        })
        .collect();
    PreludeNode::Draw {
        bound: draw.bound,
        line: draw.line,
        arms,
    }
}

/// The file with each constructor `N` written `__dgnkit_at(N,{...})` and
/// the hidden local bound from the chunk's argument, all on the lines
/// where they were.
fn wrap(src: &[u8], constructors: &[Constructor]) -> Vec<u8> {
    let mut inserts: Vec<(u32, u8, String)> = Vec::new();
    for (n, c) in constructors.iter().enumerate() {
        inserts.push((c.span.start, 1, format!("__dgnkit_at({n},")));
        inserts.push((c.span.end, 0, ")".to_string()));
    }
    inserts.sort_by_key(|(at, order, _)| (*at, *order));
    let mut out = b"local __dgnkit_at = ...; ".to_vec();
    let body = match src.strip_prefix(b"\xef\xbb\xbf") {
        Some(_) => [b"   ".as_slice(), &src[3..]].concat(),
        None => src.to_vec(),
    };
    let mut at = 0usize;
    for (pos, _, text) in inserts {
        let pos = (pos as usize).min(body.len());
        if pos < at {
            continue;
        }
        out.extend_from_slice(&body[at..pos]);
        out.extend_from_slice(text.as_bytes());
        at = pos;
    }
    out.extend_from_slice(&body[at..]);
    out
}

/// The error of a run that stopped, on the line Lua names (else on the
/// last draw's line, else on the whole file).
fn stopped(src: &[u8], stop: &Stop, log: &[DrawRec]) -> Diagnostic {
    let (code, message, note) = match stop {
        Stop::Error(m) => (
            LUA_RUNTIME,
            format!("running the file: {}", strip_place(m)),
            "NetHack runs dungeon.lua at the start of every game and cannot start when it fails",
        ),
        Stop::Limit(m) => (
            LUA_LIMIT,
            format!("running the file: {}", strip_place(m)),
            "dgnkit runs dungeon.lua as NetHack does, in a sandbox with the game's limits: no io, os, require or load, 1 MiB of memory, about a million instructions",
        ),
    };
    let line = match stop {
        Stop::Error(m) | Stop::Limit(m) => lua_line(m),
    }
    .or_else(|| log.last().map(|d| d.line))
    .unwrap_or(0);
    let span = line_span(src, line);
    Diagnostic::error(code, span, message)
        .with_label(span, "here")
        .with_note(note)
}

/// `dungeon.lua:12: attempt to ...` -> 12.
fn lua_line(m: &str) -> Option<u32> {
    let rest = m.split("dungeon.lua:").nth(1)?;
    rest.split(':').next()?.trim().parse().ok()
}

fn strip_place(m: &str) -> String {
    match m.split_once("dungeon.lua:") {
        Some((_, rest)) => rest
            .split_once(':')
            .map_or(rest, |(_, r)| r)
            .trim()
            .to_string(),
        None => m.trim().to_string(),
    }
}

/// Line `line` (1-based) without its end of line; the whole file for 0.
fn line_span(src: &[u8], line: u32) -> Span {
    if line == 0 {
        return Span::new(0, 0);
    }
    let mut start = 0usize;
    for _ in 1..line {
        match src[start..].iter().position(|&b| b == b'\n') {
            Some(i) => start += i + 1,
            None => break,
        }
    }
    let end = src[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(src.len(), |i| start + i);
    let text = &src[start..end];
    let lead = text.iter().take_while(|b| b.is_ascii_whitespace()).count();
    let trail = text
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    let (a, b) = (start + lead, end.saturating_sub(trail).max(start + lead));
    Span::new(a as u32, b as u32)
}

/// The run's global `dungeon` as a [`Value`], spans from the source.
fn read_back(src: &[u8], parsed: &Parsed, run: &sandbox::Run) -> Outcome {
    let mut tags = HashMap::new();
    for (n, t) in run.tags.borrow().iter() {
        tags.insert(t.to_pointer() as usize, *n);
    }
    let mut conv = Convert {
        constructors: &parsed.constructors,
        tags,
        diagnostics: Vec::new(),
    };
    let whole = Span::new(0, src.len() as u32);
    let target = parsed.target.unwrap_or(whole);
    let dungeon = match run.lua.globals().raw_get::<LuaValue>("dungeon") {
        Ok(LuaValue::Nil) | Err(_) => None,
        Ok(v) => {
            // `dungeon = {...}` at top level: the constructor's span.
            let literal = parsed.dungeon.as_ref();
            let span = literal.map_or(target, |l| l.span);
            Some(conv.value(&v, span, literal, 0))
        }
    };
    Outcome {
        dungeon,
        diagnostics: conv.diagnostics,
    }
}

struct Convert<'a> {
    constructors: &'a [Constructor],
    tags: HashMap<usize, usize>,
    diagnostics: Vec<Diagnostic>,
}

impl Convert<'_> {
    /// `v`, supplied by the expression at `span` (`literal`: that
    /// expression read statically, when it was read).
    fn value(&mut self, v: &LuaValue, span: Span, literal: Option<&Value>, depth: usize) -> Value {
        let data = match v {
            LuaValue::Nil => Data::Nil,
            LuaValue::Boolean(b) => Data::Bool(*b),
            LuaValue::Integer(i) => Data::Int(*i),
            LuaValue::Number(f) => Data::Float(*f),
            LuaValue::String(s) => {
                let bytes = s.as_bytes().to_vec();
                let inner = match literal.map(|l| &l.data) {
                    Some(Data::Str(st)) if st.bytes == bytes => st.inner,
                    _ => span,
                };
                Data::Str(Str { bytes, inner })
            }
            LuaValue::Table(t) if depth < MAX_NESTING => {
                let (table, span) = self.table(t, span, depth);
                return Value {
                    data: Data::Table(table),
                    span,
                };
            }
            LuaValue::Table(_) => {
                self.diagnostics.push(
                    Diagnostic::error(
                        LUA_TOO_COMPLEX,
                        span,
                        format!("the evaluated table is nested more than {MAX_NESTING} deep (a table that contains itself?)"),
                    )
                    .with_label(span, "made here"),
                );
                Data::Unknown
            }
            other => {
                self.diagnostics.push(
                    Diagnostic::error(
                        LUA_WRONG_TYPE,
                        span,
                        format!("the file puts a {} here", other.type_name()),
                    )
                    .with_label(span, "not a string, a number or a table")
                    .with_note("NetHack's loader reads strings, integers and tables"),
                );
                Data::Unknown
            }
        };
        Value { data, span }
    }

    fn table(&mut self, t: &mlua::Table, span: Span, depth: usize) -> (Table, Span) {
        let written = self
            .tags
            .get(&(t.to_pointer() as usize))
            .and_then(|&n| self.constructors.get(n));
        let (span, open, shape) = match written {
            Some(c) => (c.span, c.table.open, Some(&c.table)),
            None => (span, span, None),
        };
        let mut table = Table {
            open,
            ..Table::default()
        };
        let len = t.raw_len();
        for i in 1..=len {
            let v: LuaValue = t.raw_get(i).unwrap_or(LuaValue::Nil);
            let lit = shape.and_then(|s| s.items.get(i - 1));
            let at = lit.map_or(span, |l| l.span);
            table.items.push(self.value(&v, at, lit, depth + 1));
        }
        let mut named: Vec<(String, LuaValue)> = Vec::new();
        for (k, v) in t.clone().pairs::<LuaValue, LuaValue>().flatten() {
            if let LuaValue::String(k) = k {
                named.push((String::from_utf8_lossy(&k.as_bytes()).into_owned(), v));
            }
        }
        // As written, then the fields the file added later, by name.
        let order = |key: &str| {
            shape
                .and_then(|s| s.fields.iter().position(|f| f.key == key))
                .unwrap_or(usize::MAX)
        };
        named.sort_by(|a, b| order(&a.0).cmp(&order(&b.0)).then(a.0.cmp(&b.0)));
        for (key, v) in named {
            let field: Option<&NamedField> = shape.and_then(|s| s.field(&key));
            let (key_span, field_span, lit) = match field {
                Some(f) => (f.key_span, f.span, Some(&f.value)),
                None => (open, span, None),
            };
            let at = lit.map_or(span, |l| l.span);
            let value = self.value(&v, at, lit, depth + 1);
            table.fields.push(NamedField {
                key,
                key_span,
                value,
                span: field_span,
            });
        }
        (table, span)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lua::syntax;

    fn eval(src: &str) -> Program {
        let parsed = syntax::parse(src.as_bytes());
        evaluate(src.as_bytes(), &parsed)
    }

    fn names(v: &Value) -> Vec<String> {
        let Data::Table(t) = &v.data else {
            return vec![];
        };
        t.items
            .iter()
            .filter_map(|d| match &d.data {
                Data::Table(d) => d.field("name").and_then(|f| match &f.value.data {
                    Data::Str(s) => Some(String::from_utf8_lossy(&s.bytes).into_owned()),
                    _ => None,
                }),
                _ => None,
            })
            .collect()
    }

    const SWAP: &str = "local a = { name = 'baalz' }\nlocal b = { name = 'geryon' }\nif percent(50) then a, b = b, a end\ndungeon = {\n  { name = a.name, base = 1 },\n  { name = b.name, base = 2 },\n}\n";

    #[test]
    fn each_outcome_is_run_once_and_the_tree_leads_to_it() {
        let p = eval(SWAP);
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        assert_eq!(p.outcomes.len(), 2);
        let first = names(p.outcomes[0].dungeon.as_ref().unwrap());
        let second = names(p.outcomes[1].dungeon.as_ref().unwrap());
        assert_eq!(first, ["geryon", "baalz"]);
        assert_eq!(second, ["baalz", "geryon"]);
        let Some(PreludeNode::Draw { bound, line, arms }) = p.tree else {
            panic!("no draw")
        };
        assert_eq!((bound, line), (100, 3));
        assert_eq!(arms.len(), 2);
        assert_eq!(arms[0].below, 50);
        assert_eq!(arms[0].next, PreludeNode::Outcome(0));
        assert_eq!(arms[1].next, PreludeNode::Outcome(1));
    }

    #[test]
    fn values_point_at_the_expressions_that_supplied_them() {
        let p = eval(SWAP);
        let d = p.outcomes[0].dungeon.as_ref().unwrap();
        let Data::Table(top) = &d.data else { panic!() };
        let Data::Table(first) = &top.items[0].data else {
            panic!()
        };
        let name = first.field("name").unwrap();
        assert_eq!(&SWAP[name.value.span.range()], "a.name");
        assert_eq!(&SWAP[name.span.range()], "name = a.name");
        let base = first.field("base").unwrap();
        assert_eq!(&SWAP[base.value.span.range()], "1");
        assert_eq!(
            &SWAP[top.items[0].span.range()],
            "{ name = a.name, base = 1 }"
        );
    }

    #[test]
    fn a_pure_data_file_draws_nothing() {
        let p = eval("dungeon = { { name = \"The Dungeons of Doom\", base = 25 } }");
        assert_eq!(p.outcomes.len(), 1);
        assert!(p.tree.is_none());
        let d = p.outcomes[0].dungeon.as_ref().unwrap();
        let Data::Table(top) = &d.data else { panic!() };
        let Data::Table(dod) = &top.items[0].data else {
            panic!()
        };
        let Data::Str(s) = &dod.field("name").unwrap().value.data else {
            panic!()
        };
        assert_eq!(s.inner, Span::new(22, 42));
    }

    #[test]
    fn a_failing_run_is_an_error_on_its_line() {
        let src = "local x = 1\nos.execute('rm -rf /')\ndungeon = {}\n";
        let p = eval(src);
        assert!(p.outcomes.is_empty());
        let d = &p.diagnostics[0];
        assert_eq!(d.code, LUA_RUNTIME);
        assert_eq!(&src[d.span.range()], "os.execute('rm -rf /')");
        let p = eval("local t = {}\nwhile true do t[#t + 1] = 1 end\n");
        assert_eq!(p.diagnostics[0].code, LUA_LIMIT);
    }

    #[test]
    fn too_many_outcomes_are_refused() {
        let p = eval(
            "local n = math.random(100) + math.random(100) + math.random(100)\ndungeon = {}\n",
        );
        assert!(p.outcomes.is_empty());
        assert_eq!(p.diagnostics[0].code, LUA_OUTCOMES);
    }
}
