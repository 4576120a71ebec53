//! The Lua state a `dungeon.lua` runs in: a real Lua 5.4 (mlua, built from
//! its crate), with what NetHack 3.7 gives the file and nothing else.
//!
//! NetHack's `init_dungeons()` creates a private state with
//! `{NHL_SB_SAFE, 1 MiB, 0, 1 Mi steps}` (NetHack 3.7 `src/dungeon.c:1213`):
//! the base library cut to `ipairs next pairs pcall select tonumber
//! tostring type xpcall` (`src/nhlua.c:2326-2336`; `assert`, `error`, the
//! metatable functions, `load`, `dofile`, `print` are dropped, :2340-2375),
//! then coroutine, table, string, math and utf8 (:2681-2687, :2741-2780); no
//! io, os, package or debug. Its memory is capped at 1 MiB by the
//! allocator (:2807-2808) and its steps at about 2^20 instructions, counted
//! by a hook every `NHL_SB_STEPSIZE` = 1000 instructions
//! (`include/global.h:550`, `src/nhlua.c:2861-2864, 2912`). `nhl_init()`
//! registers the `nh` table and runs `nhlib.lua`, whose `math.random`,
//! `shuffle`, `d` and `percent` draw on the game's own generator.
//!
//! dgnkit gives the same, written here from those facts: the drawing
//! functions are Rust functions that ask a [`Chooser`] for each value, so a
//! run is one outcome of the file's draws, chosen by the caller. Two bounds
//! the game does not have keep dgnkit itself safe: a wall-clock limit,
//! checked with the steps, and a guard on the string library's pattern
//! functions, whose matching runs in C without counting instructions.

use mlua::{HookTriggers, Lua, LuaOptions, MultiValue, StdLib, Table, Value as LuaValue, VmState};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The game's memory ceiling for the dungeon's state (`src/dungeon.c:1213`).
pub const MEMORY_LIMIT: usize = 1 << 20;
/// The game's step budget (`src/dungeon.c:1213`), in instructions.
pub const STEP_LIMIT: u64 = 1 << 20;
/// How often the hook counts, as the game's (`NHL_SB_STEPSIZE`).
const STEP_SIZE: u32 = 1000;
/// dgnkit's own bound on one run, and on all the runs of one file
/// ([`super::program`] runs it once per outcome of its draws).
pub const TIME_LIMIT: Duration = Duration::from_millis(1500);
pub const TOTAL_TIME_LIMIT: Duration = Duration::from_millis(3000);
/// Most draws one run may make: more is no dungeon description.
pub const MAX_DRAWS: usize = 256;
/// Widest `rn2(n)` whose values are enumerated one by one.
pub const MAX_VALUES: u32 = 4096;
/// A pattern search whose worst case (subject length to the power of the
/// pattern's repetitions plus one) exceeds this is refused.
const PATTERN_WORK: f64 = 1e8;

/// One draw of a run: `rn2(bound)` at `line`, whose value falls in one of
/// the classes cut at `cuts` (class `i` is `cuts[i-1]..cuts[i]`, the first
/// from 0, the last ending at `bound`); `class` is the one taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawRec {
    pub bound: u32,
    pub line: u32,
    pub cuts: Vec<u32>,
    pub class: u32,
}

/// Answers a run's draws: the classes given in `forced`, in order, then
/// the first class of every further draw; logs each draw.
#[derive(Debug, Default)]
pub struct Chooser {
    pub forced: Vec<u32>,
    pub log: Vec<DrawRec>,
}

impl Chooser {
    /// `rn2(bound)` whose outcome matters only through `cuts`; returns the
    /// class's smallest value.
    fn draw(&mut self, bound: u32, cuts: Vec<u32>, line: u32) -> mlua::Result<u32> {
        if self.log.len() >= MAX_DRAWS {
            return Err(mlua::Error::runtime(format!(
                "dgnkit: more than {MAX_DRAWS} draws before `dungeon` is set"
            )));
        }
        let class = self.forced.get(self.log.len()).copied().unwrap_or(0);
        let lo = if class == 0 {
            0
        } else {
            cuts[class as usize - 1]
        };
        self.log.push(DrawRec {
            bound,
            line,
            cuts,
            class,
        });
        Ok(lo)
    }

    /// A draw whose every value matters.
    fn value(&mut self, bound: u32, line: u32) -> mlua::Result<u32> {
        if bound > MAX_VALUES {
            return Err(mlua::Error::runtime(format!(
                "dgnkit: rn2({bound}) has more outcomes than dgnkit enumerates ({MAX_VALUES})"
            )));
        }
        self.draw(bound, (1..=bound).collect(), line)
    }
}

/// Why a run stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The file raised an error (Lua's message, with `dungeon.lua:LINE:`).
    Error(String),
    /// A sandbox limit: memory, steps, time or pattern work.
    Limit(String),
}

/// A finished run: the state (to read `dungeon` from), the tables each
/// tagged constructor made, and the draws.
pub struct Run {
    pub lua: Lua,
    pub tags: Rc<RefCell<Vec<(usize, Table)>>>,
}

/// Runs `code` (the file with its constructors wrapped by
/// [`super::program`]) in a fresh sandbox, drawing through `chooser`.
pub fn run(code: &[u8], chooser: Rc<RefCell<Chooser>>, deadline: Instant) -> Result<Run, Stop> {
    let lua = new_state().map_err(|e| Stop::Error(e.to_string()))?;
    let tags: Rc<RefCell<Vec<(usize, Table)>>> = Rc::default();
    let limit = Rc::new(RefCell::new(None::<String>));
    install(&lua, chooser).map_err(|e| Stop::Error(e.to_string()))?;
    let started = Instant::now();
    let steps = std::cell::Cell::new(0u64);
    let hook_limit = limit.clone();
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(STEP_SIZE),
        move |_, _| {
            steps.set(steps.get() + u64::from(STEP_SIZE));
            let over = if steps.get() > STEP_LIMIT {
                Some(format!(
                    "the file ran more than {STEP_LIMIT} Lua instructions (NetHack's budget for dungeon.lua)"
                ))
            } else if started.elapsed() > TIME_LIMIT {
                Some(format!(
                    "the file ran longer than {} ms",
                    TIME_LIMIT.as_millis()
                ))
            } else if Instant::now() > deadline {
                Some(format!(
                    "running the file once per outcome of its draws took longer than {} ms",
                    TOTAL_TIME_LIMIT.as_millis()
                ))
            } else {
                None
            };
            match over {
                Some(m) => {
                    *hook_limit.borrow_mut() = Some(m.clone());
                    Err(mlua::Error::runtime(m))
                }
                None => Ok(VmState::Continue),
            }
        },
    )
    .map_err(|e| Stop::Error(e.to_string()))?;
    let tag = {
        let tags = tags.clone();
        lua.create_function(move |_, (n, t): (usize, LuaValue)| {
            if let LuaValue::Table(t) = &t {
                tags.borrow_mut().push((n, t.clone()));
            }
            Ok(t)
        })
        .map_err(|e| Stop::Error(e.to_string()))?
    };
    let result = lua
        .load(code)
        .set_name("=dungeon.lua")
        .set_mode(mlua::chunk::ChunkMode::Text)
        .into_function()
        .and_then(|f| f.call::<MultiValue>(tag));
    lua.remove_global_hook();
    match result {
        Ok(_) => Ok(Run { lua, tags }),
        Err(e) => {
            if let Some(m) = limit.borrow_mut().take() {
                return Err(Stop::Limit(m));
            }
            Err(classify(&e))
        }
    }
}

/// A Lua error as one line: a memory error is a limit, anything else the
/// file's own error.
fn classify(e: &mlua::Error) -> Stop {
    match e {
        mlua::Error::MemoryError(_) => Stop::Limit(format!(
            "the file needs more than {} KiB of memory (NetHack's limit for dungeon.lua)",
            MEMORY_LIMIT >> 10
        )),
        mlua::Error::CallbackError { cause, .. } => classify(cause),
        mlua::Error::WithContext { cause, .. } => classify(cause),
        mlua::Error::RuntimeError(m) | mlua::Error::SyntaxError { message: m, .. } => {
            let first = m.lines().next().unwrap_or_default().to_string();
            if first.contains("stack overflow") {
                Stop::Limit(format!("{first} (unbounded recursion)"))
            } else if first.contains("dgnkit:") {
                Stop::Limit(first.replace("dgnkit: ", ""))
            } else {
                Stop::Error(first)
            }
        }
        other => Stop::Error(other.to_string().lines().next().unwrap_or_default().into()),
    }
}

fn new_state() -> mlua::Result<Lua> {
    let lua = Lua::new_with(
        StdLib::COROUTINE | StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8,
        LuaOptions::default(),
    )?;
    let g = lua.globals();
    // What NHL_SB_SAFE leaves out of the base library (nhlua.c:2340-2375),
    // and what mlua may have opened besides.
    for name in [
        "assert",
        "error",
        "print",
        "warn",
        "getmetatable",
        "setmetatable",
        "rawequal",
        "rawget",
        "rawlen",
        "rawset",
        "collectgarbage",
        "dofile",
        "loadfile",
        "load",
        "loadstring",
        "require",
        "package",
        "io",
        "os",
        "debug",
    ] {
        g.raw_set(name, LuaValue::Nil)?;
    }
    lua.set_memory_limit(MEMORY_LIMIT)?;
    Ok(lua)
}

/// The line of the Lua function `level` frames up (1: whoever called the
/// Rust function now running).
fn caller_line(lua: &Lua) -> u32 {
    lua.inspect_stack(1, |d| d.current_line())
        .flatten()
        .map_or(0, |l| l as u32)
}

fn int(v: &LuaValue, what: &str) -> mlua::Result<i64> {
    match v {
        LuaValue::Integer(i) => Ok(*i),
        LuaValue::Number(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(*f as i64),
        LuaValue::String(s) => s
            .to_str()
            .ok()
            .and_then(|s| s.trim().parse::<i64>().ok())
            .ok_or_else(|| {
                mlua::Error::runtime(format!("bad argument to '{what}' (number expected)"))
            }),
        LuaValue::Number(_) => Err(mlua::Error::runtime(format!(
            "bad argument to '{what}' (number has no integer representation)"
        ))),
        other => Err(mlua::Error::runtime(format!(
            "bad argument to '{what}' (number expected, got {})",
            other.type_name()
        ))),
    }
}

/// `rn2(n)` as the game's: no draw and 0 for `n <= 0` (NetHack 3.7's
/// `rn2` reports `impossible()` and returns 0 in a non-release build,
/// `src/rnd.c`), else one draw whose value is returned.
fn rn2(lua: &Lua, chooser: &RefCell<Chooser>, n: i64) -> mlua::Result<i64> {
    if n <= 0 {
        return Ok(0);
    }
    let bound = u32::try_from(n)
        .map_err(|_| mlua::Error::runtime(format!("dgnkit: rn2({n}) is beyond the game's int")))?;
    let line = caller_line(lua);
    Ok(i64::from(chooser.borrow_mut().value(bound, line)?))
}

fn install(lua: &Lua, chooser: Rc<RefCell<Chooser>>) -> mlua::Result<()> {
    let g = lua.globals();
    let nh = lua.create_table()?;
    // nh.rn2(n) (src/nhlua.c:930): rn2(n).
    let c = chooser.clone();
    nh.set(
        "rn2",
        lua.create_function(move |lua, n: LuaValue| rn2(lua, &c, int(&n, "rn2")?))?,
    )?;
    // nh.random(n) is rn2(n), nh.random(a, n) is a + rn2(n) (:945-948).
    let c = chooser.clone();
    let random = lua.create_function(move |lua, (a, n): (LuaValue, Option<LuaValue>)| {
        let a = int(&a, "random")?;
        match n {
            None | Some(LuaValue::Nil) => rn2(lua, &c, a),
            Some(n) => Ok(a + rn2(lua, &c, int(&n, "random")?)?),
        }
    })?;
    nh.set("random", random)?;
    g.set("nh", nh)?;

    let math: Table = g.get("math")?;
    // nhlib's math.random: one argument n gives 1 + rn2(n), two a..b give
    // a + rn2(b + 1 - a); anything else is an error.
    let c = chooser.clone();
    math.set(
        "random",
        lua.create_function(move |lua, args: MultiValue| {
            let args: Vec<LuaValue> = args.into_iter().collect();
            match args.as_slice() {
                [n] => Ok(1 + rn2(lua, &c, int(n, "random")?)?),
                [a, b] => {
                    let (a, b) = (int(a, "random")?, int(b, "random")?);
                    Ok(a + rn2(lua, &c, b + 1 - a)?)
                }
                _ => Err(mlua::Error::runtime("math.random with wrong # of args")),
            }
        })?,
    )?;
    // math.randomseed would reseed Lua's own generator, which nothing here
    // uses.
    math.set("randomseed", LuaValue::Nil)?;

    // percent(t): math.random(0, 99) < t, one rn2(100) whose value matters
    // only as below t or not.
    let c = chooser.clone();
    g.set(
        "percent",
        lua.create_function(move |lua, t: LuaValue| {
            let t = match t {
                LuaValue::Integer(i) => i as f64,
                LuaValue::Number(f) => f,
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "attempt to compare number with {}",
                        other.type_name()
                    )))
                }
            };
            let cut = t.ceil().clamp(0.0, 100.0) as u32;
            let cuts = if cut == 0 || cut == 100 {
                vec![100]
            } else {
                vec![cut, 100]
            };
            let line = caller_line(lua);
            let v = c.borrow_mut().draw(100, cuts, line)?;
            Ok((v as f64) < t)
        })?,
    )?;

    // d(n) is 1 + rn2(n); d(n, f) adds n rolls of 1 + rn2(f).
    let c = chooser.clone();
    g.set(
        "d",
        lua.create_function(move |lua, (n, f): (LuaValue, Option<LuaValue>)| {
            let n = int(&n, "d")?;
            match f {
                None | Some(LuaValue::Nil) => Ok(1 + rn2(lua, &c, n)?),
                Some(f) => {
                    let f = int(&f, "d")?;
                    let mut sum = 0i64;
                    for _ in 0..n.clamp(0, MAX_DRAWS as i64 + 1) {
                        sum += 1 + rn2(lua, &c, f)?;
                    }
                    Ok(sum)
                }
            }
        })?,
    )?;

    // shuffle(list): for i = #list down to 2, swap list[i] with
    // list[math.random(i)].
    let c = chooser;
    g.set(
        "shuffle",
        lua.create_function(move |lua, list: Table| {
            let n = list.raw_len() as i64;
            let mut i = n;
            while i > 1 {
                let r = 1 + rn2(lua, &c, i)?;
                let a: LuaValue = list.raw_get(i)?;
                let b: LuaValue = list.raw_get(r)?;
                list.raw_set(i, b)?;
                list.raw_set(r, a)?;
                i -= 1;
            }
            Ok(())
        })?,
    )?;

    // nhlib's shuffled `align` depends on the two draws the loader makes
    // for it; a file that reads it is told so rather than given a guess.
    let align = lua.create_table()?;
    let meta = lua.create_table()?;
    meta.set(
        "__index",
        lua.create_function(|_, _: MultiValue| -> mlua::Result<()> {
            Err(mlua::Error::runtime(
                "dgnkit: nhlib.lua's shuffled `align` is not modelled",
            ))
        })?,
    )?;
    align.set_metatable(Some(meta))?;
    g.set("align", align)?;

    guard_patterns(lua)?;
    Ok(())
}

/// Wraps the string library's pattern functions: their matching backtracks
/// in C, where no instruction is counted, so a pattern with many
/// repetitions on a long subject is refused before it runs.
fn guard_patterns(lua: &Lua) -> mlua::Result<()> {
    let string: Table = lua.globals().get("string")?;
    for name in ["find", "match", "gmatch", "gsub"] {
        let inner: mlua::Function = string.get(name)?;
        let wrapped = lua.create_function(move |_, args: MultiValue| {
            let mut it = args.iter();
            if let (Some(LuaValue::String(s)), Some(LuaValue::String(p))) = (it.next(), it.next())
            {
                let len = s.as_bytes().len() as f64;
                let reps = repetitions(&p.as_bytes());
                if reps >= 2 && len.powi(reps as i32 + 1) > PATTERN_WORK {
                    return Err(mlua::Error::runtime(format!(
                        "dgnkit: string.{name} with a pattern of {reps} repetitions on {len} bytes could run for hours in C"
                    )));
                }
            }
            inner.call::<MultiValue>(args)
        })?;
        string.set(name, wrapped)?;
    }
    Ok(())
}

/// How many single-character repetitions (`*`, `+`, `-`, `?`) a Lua
/// pattern has, escapes skipped.
fn repetitions(p: &[u8]) -> u32 {
    let mut n = 0;
    let mut i = 0;
    while i < p.len() {
        match p[i] {
            b'%' => i += 1,
            b'*' | b'+' | b'-' | b'?' if i > 0 => n += 1,
            _ => {}
        }
        i += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_text(code: &str) -> (Result<Run, Stop>, Vec<DrawRec>) {
        let chooser = Rc::new(RefCell::new(Chooser::default()));
        let r = run(
            code.as_bytes(),
            chooser.clone(),
            Instant::now() + TOTAL_TIME_LIMIT,
        );
        let log = chooser.borrow().log.clone();
        (r, log)
    }

    fn stop(code: &str) -> Stop {
        match run_text(code).0 {
            Ok(_) => panic!("`{code}` ran"),
            Err(s) => s,
        }
    }

    #[test]
    fn the_game_does_not_give_the_file_io_os_or_loading() {
        for code in [
            "os.execute('true')",
            "io.open('/etc/passwd')",
            "require('os')",
            "load('return 1')()",
            "loadstring('return 1')",
            "dofile('/etc/passwd')",
            "debug.getinfo(1)",
            "package.loadlib('x', 'y')",
            "print('hi')",
            "error('x')",
            "setmetatable({}, {})",
            "collectgarbage()",
        ] {
            match stop(code) {
                Stop::Error(m) => assert!(m.contains("nil value"), "{code}: {m}"),
                s => panic!("{code}: {s:?}"),
            }
        }
        // What it does give.
        assert!(run_text(
            "local t = {} table.insert(t, string.rep('a', 3)) x = math.floor(utf8.len('ab') + #t)"
        )
        .0
        .is_ok());
    }

    #[test]
    fn exhaustion_is_a_limit_reached_quickly() {
        for code in [
            "while true do end",
            "local t = {} local i = 0 while true do i = i + 1 t[i] = i end",
            "local s = string.rep('x', 1 << 30)",
            "local function f(n) return f(n + 1) + 1 end f(1)",
            "string.find(string.rep('a', 5000), '.-.-.-.-.-.-b')",
            "local co = coroutine.wrap(function() while true do end end) co()",
        ] {
            let t = Instant::now();
            match stop(code) {
                Stop::Limit(_) => {}
                s => panic!("{code}: {s:?}"),
            }
            assert!(t.elapsed() < Duration::from_secs(3), "{code}");
        }
    }

    #[test]
    fn draws_are_logged_with_their_lines_and_classes() {
        let (r, log) = run_text(
            "x = percent(30)\ny = math.random(4)\nshuffle({1,2,3})\nz = d(2, 6) + nh.random(5, 3)",
        );
        let run = r.unwrap();
        let g = run.lua.globals();
        assert!(g.get::<bool>("x").unwrap());
        assert_eq!(g.get::<i64>("y").unwrap(), 1);
        assert_eq!(g.get::<i64>("z").unwrap(), 2 + 5);
        let bounds: Vec<(u32, u32)> = log.iter().map(|d| (d.bound, d.line)).collect();
        assert_eq!(
            bounds,
            vec![(100, 1), (4, 2), (3, 3), (2, 3), (6, 4), (6, 4), (3, 4)]
        );
        assert_eq!(log[0].cuts, vec![30, 100]);
        // rn2 of nothing draws nothing.
        let (_, log) = run_text("x = nh.rn2(0) + math.random(5, 4)");
        assert!(log.is_empty());
    }

    #[test]
    fn forced_classes_pick_the_values() {
        let chooser = Rc::new(RefCell::new(Chooser {
            forced: vec![1, 3],
            log: Vec::new(),
        }));
        let run = run(
            b"x = percent(50) y = math.random(4)",
            chooser,
            Instant::now() + TOTAL_TIME_LIMIT,
        )
        .unwrap();
        let g = run.lua.globals();
        assert!(!g.get::<bool>("x").unwrap());
        assert_eq!(g.get::<i64>("y").unwrap(), 4);
    }
}
