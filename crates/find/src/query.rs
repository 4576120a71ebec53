//! A checked query: names looked up in the [`Resolver`]'s records, types
//! checked, and every fact it reads listed with the loader checkpoint from
//! which its value is final.

// A query stops at its first error, built once on that path: the size of
// the error value costs nothing here.
#![allow(clippy::result_large_err)]

use super::codes;
use super::parser::{CmpOp, Expr};
use dgnkit_frontend::check::closest;
use dgnkit_grammar::{Diagnostic, Span};
use dgnkit_loader::{Checkpoint, Resolver};

/// Something a layout says that a query reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fact {
    /// The special level (any of these records; several when the file
    /// reuses a name) exists.
    LevelExists(Box<[u32]>),
    LevelLevel(Box<[u32]>),
    LevelDepth(Box<[u32]>),
    LevelDungeon(Box<[u32]>),
    /// Of the dungeon (any record of this name).
    DungeonExists(Box<[u32]>),
    DungeonLevels(Box<[u32]>),
    DungeonDepthStart(Box<[u32]>),
    DungeonEntryDepth(Box<[u32]>),
    /// Of the branch into the dungeon: its level in the parent, and depth.
    BranchLevel(Box<[u32]>),
    BranchDepth(Box<[u32]>),
    Tune,
    /// A death on the Dungeons of Doom's level at this depth can leave
    /// bones.
    BonesDepth(i64),
    /// A death on this special level can leave bones.
    BonesLevel(Box<[u32]>),
}

/// The kinds of values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Bool,
    Int,
    Str,
    /// A dungeon: compares as its index with integers, as its name with
    /// strings.
    Dungeon,
}

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::Bool => "a condition",
            Ty::Int => "a number",
            Ty::Str => "a string",
            Ty::Dungeon => "a dungeon",
        }
    }
}

impl Fact {
    pub fn ty(&self) -> Ty {
        match self {
            Fact::LevelExists(_)
            | Fact::DungeonExists(_)
            | Fact::BonesDepth(_)
            | Fact::BonesLevel(_) => Ty::Bool,
            Fact::LevelDungeon(_) => Ty::Dungeon,
            Fact::Tune => Ty::Str,
            _ => Ty::Int,
        }
    }
}

/// One fact the query reads, with how it was written.
#[derive(Clone, Debug)]
pub struct FactInfo {
    pub fact: Fact,
    /// The query's text for it (the key of its value in JSON output).
    pub text: String,
    /// The first stage (see [`stage`]) at which its value is final.
    pub ready: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    Fact(u16),
    Int(i64),
    Str(Box<[u8]>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// A fact that is a condition.
    Fact(u16),
    Cmp {
        op: CmpOp,
        lhs: Operand,
        rhs: Operand,
    },
    /// `lo <= value <= hi`.
    In {
        value: Operand,
        lo: i64,
        hi: i64,
    },
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Not(Box<Node>),
}

/// A query ready to run against layouts of one [`Resolver`]'s script.
#[derive(Clone, Debug)]
pub struct Query {
    pub root: Node,
    pub facts: Vec<FactInfo>,
    /// The stage after the whole resolution.
    pub final_stage: u32,
    /// For a `dungeon.lua` whose own draws choose among scripts: the query
    /// checked against each outcome's script (names may name other
    /// records there); empty otherwise.
    pub outcomes: Vec<Query>,
}

impl Query {
    /// The query as checked against outcome `i` of the file's draws.
    pub fn for_outcome(&self, i: u32) -> &Query {
        self.outcomes.get(i as usize).unwrap_or(self)
    }
}

/// The loader's progress as a number: three stages per dungeon record,
/// then the end.
pub fn stage(at: Checkpoint) -> u32 {
    match at {
        Checkpoint::Decided { record } => 3 * record,
        Checkpoint::Chances { record } => 3 * record + 1,
        Checkpoint::Placed { record } => 3 * record + 2,
    }
}

struct Checker<'a> {
    res: &'a Resolver,
    src: &'a str,
    facts: Vec<FactInfo>,
}

fn bytes_text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Checks the parsed query `expr` (of text `src`) against `res`'s script.
pub fn check(expr: &Expr, src: &str, res: &Resolver) -> Result<Query, Diagnostic> {
    let mut c = Checker {
        res,
        src,
        facts: Vec::new(),
    };
    let root = c.cond(expr)?;
    Ok(Query {
        root,
        facts: c.facts,
        final_stage: 3 * res.dungeons.len() as u32,
        outcomes: Vec::new(),
    })
}

impl Checker<'_> {
    fn text(&self, span: Span) -> String {
        self.src.get(span.range()).unwrap_or_default().to_string()
    }

    /// Whether dungeon record `d` holds the dummy level whose presence
    /// lifts its depth at the very end of the resolution.
    fn lifted(&self, d: u32) -> bool {
        self.res.levels.iter().any(|l| l.dungeon == d && l.is_dummy)
    }

    fn ready(&self, fact: &Fact) -> u32 {
        let fin = 3 * self.res.dungeons.len() as u32;
        let dungeon_of = |r: &u32| self.res.levels[*r as usize].dungeon;
        let max =
            |recs: &[u32], f: &dyn Fn(u32) -> u32| recs.iter().map(|&r| f(r)).max().unwrap_or(0);
        let decided = |d: u32| stage(Checkpoint::Decided { record: d });
        let chances = |d: u32| stage(Checkpoint::Chances { record: d });
        let placed = |d: u32| stage(Checkpoint::Placed { record: d });
        let moved = self.res.finish_moves_levels();
        match fact {
            Fact::LevelExists(_)
            | Fact::LevelLevel(_)
            | Fact::LevelDungeon(_)
            | Fact::LevelDepth(_)
                if moved =>
            {
                fin
            }
            Fact::LevelExists(r) => max(r, &|l| chances(dungeon_of(&l))),
            Fact::LevelLevel(r) | Fact::LevelDungeon(r) => max(r, &|l| placed(dungeon_of(&l))),
            Fact::LevelDepth(r) => max(r, &|l| {
                let d = dungeon_of(&l);
                if self.lifted(d) {
                    fin
                } else {
                    placed(d)
                }
            }),
            Fact::DungeonExists(r) | Fact::DungeonLevels(r) | Fact::BranchLevel(r) => {
                max(r, &decided)
            }
            Fact::DungeonDepthStart(r) | Fact::DungeonEntryDepth(r) => {
                max(r, &|d| if self.lifted(d) { fin } else { decided(d) })
            }
            Fact::BranchDepth(r) => max(r, &|d| {
                let parents = &self.res.dungeons[d as usize].incoming;
                if parents.iter().any(|&(_, owner)| self.lifted(owner)) {
                    fin
                } else {
                    decided(d)
                }
            }),
            Fact::Tune | Fact::BonesDepth(_) | Fact::BonesLevel(_) => fin,
        }
    }

    fn add(&mut self, fact: Fact, span: Span) -> u16 {
        if let Some(i) = self.facts.iter().position(|f| f.fact == fact) {
            return i as u16;
        }
        let ready = self.ready(&fact);
        self.facts.push(FactInfo {
            fact,
            text: self.text(span),
            ready,
        });
        (self.facts.len() - 1) as u16
    }

    fn level(&self, name: &[u8], span: Span) -> Result<Box<[u32]>, Diagnostic> {
        let recs: Box<[u32]> = (0..self.res.levels.len() as u32)
            .filter(|&r| self.res.levels[r as usize].name.as_bytes() == name)
            .collect();
        if !recs.is_empty() {
            return Ok(recs);
        }
        let shown = bytes_text(name);
        let near = closest(name, self.res.levels.iter().map(|l| l.name.as_bytes()));
        let mut d = match near {
            Some(near) => {
                let near = bytes_text(near);
                Diagnostic::error(
                    codes::UNKNOWN_LEVEL,
                    span,
                    format!("no level named \"{shown}\"; did you mean \"{near}\"?"),
                )
                .with_label(span, format!("did you mean `{near}`?"))
            }
            None => Diagnostic::error(
                codes::UNKNOWN_LEVEL,
                span,
                format!("no level named \"{shown}\" in this dungeon file"),
            )
            .with_label(span, "not a special level of the file"),
        };
        if self.res.dungeons.iter().any(|x| x.name.as_bytes() == name) {
            d = d.with_note(format!(
                "\"{shown}\" is a dungeon: write dungeon(\"{shown}\").exists"
            ));
        }
        Err(d)
    }

    fn dungeon(&self, arg: &Expr) -> Result<Box<[u32]>, Diagnostic> {
        let Expr::Str(name, span) = arg else {
            return Err(Diagnostic::error(
                codes::BAD_CALL,
                arg.span(),
                "a dungeon is named by a string",
            )
            .with_label(arg.span(), "write the dungeon's name in double quotes"));
        };
        let recs: Box<[u32]> = (0..self.res.dungeons.len() as u32)
            .filter(|&r| self.res.dungeons[r as usize].name.as_bytes() == name.as_slice())
            .collect();
        if !recs.is_empty() {
            return Ok(recs);
        }
        let mut d = Diagnostic::error(
            codes::UNKNOWN_DUNGEON,
            *span,
            format!(
                "no dungeon named \"{}\" in this dungeon file",
                bytes_text(name)
            ),
        );
        let near =
            closest(name, self.res.dungeons.iter().map(|x| x.name.as_bytes())).or_else(|| {
                // "Mines" for "The Gnomish Mines": a word of the name.
                let lower = String::from_utf8_lossy(name).to_ascii_lowercase();
                self.res
                    .dungeons
                    .iter()
                    .map(|x| x.name.as_bytes())
                    .find(|x| {
                        String::from_utf8_lossy(x)
                            .to_ascii_lowercase()
                            .contains(&lower)
                    })
            });
        d = match near {
            Some(n) => d.with_label(*span, format!("did you mean \"{}\"?", bytes_text(n))),
            None => d.with_label(*span, "not a dungeon of the file"),
        };
        let names: Vec<String> = self
            .res
            .dungeons
            .iter()
            .map(|x| format!("\"{}\"", x.name))
            .collect();
        Err(d.with_note(format!("the dungeons are {}", names.join(", "))))
    }

    fn one_arg<'e>(
        &self,
        func: &str,
        args: &'e [Expr],
        span: Span,
    ) -> Result<&'e Expr, Diagnostic> {
        match args {
            [a] => Ok(a),
            _ => Err(Diagnostic::error(
                codes::BAD_CALL,
                span,
                format!("`{func}` takes one argument, not {}", args.len()),
            )
            .with_label(span, "one argument here")),
        }
    }

    fn bad_property(&self, prop: &str, span: Span, of: &str, props: &str) -> Diagnostic {
        Diagnostic::error(
            codes::UNKNOWN_PROPERTY,
            span,
            format!("{of} has no property `{prop}`"),
        )
        .with_label(span, format!("expected {props}"))
    }

    /// A value (or condition) and its type.
    fn value(&mut self, e: &Expr) -> Result<(Operand, Ty), Diagnostic> {
        match e {
            Expr::Int(n, _) => Ok((Operand::Int(*n), Ty::Int)),
            Expr::Str(s, _) => Ok((Operand::Str(s.clone().into_boxed_slice()), Ty::Str)),
            Expr::Paren(inner, _) => self.value(inner),
            Expr::Word(w, span) if w == "tune" => {
                let f = self.add(Fact::Tune, *span);
                Ok((Operand::Fact(f), Ty::Str))
            }
            Expr::Prop {
                base,
                prop,
                prop_span,
                span,
            } => {
                let fact = self.property(base, prop, *prop_span)?;
                let ty = fact.ty();
                let f = self.add(fact, *span);
                Ok((Operand::Fact(f), ty))
            }
            Expr::Call {
                func,
                func_span,
                args,
                span,
            } => self.call(func, *func_span, args, *span),
            Expr::Word(w, span) => {
                let recs = self.level(w.as_bytes(), *span)?;
                let f = self.add(Fact::LevelExists(recs), *span);
                Ok((Operand::Fact(f), Ty::Bool))
            }
            Expr::Cmp { .. } | Expr::In { .. } | Expr::And(..) | Expr::Or(..) | Expr::Not(..) => {
                Err(Diagnostic::error(
                    codes::TYPE_MISMATCH,
                    e.span(),
                    "a condition cannot be compared",
                )
                .with_label(e.span(), "a condition, not a value")
                .with_note(
                    "parenthesise the comparison you meant, or join conditions with `and`/`or`",
                ))
            }
        }
    }

    /// The fact `base.prop` names.
    fn property(&mut self, base: &Expr, prop: &str, prop_span: Span) -> Result<Fact, Diagnostic> {
        Ok(match base {
            Expr::Word(w, s) if w == "tune" => {
                return Err(self
                    .bad_property(
                        prop,
                        prop_span,
                        "`tune`",
                        "nothing: `tune` is a string of five notes",
                    )
                    .with_label(*s, "the passtune"));
            }
            Expr::Word(w, s) => self.level_prop(w.as_bytes(), *s, prop, prop_span)?,
            Expr::Str(n, s) => self.level_prop(n, *s, prop, prop_span)?,
            Expr::Call {
                func,
                args,
                span: cs,
                ..
            } if func == "dungeon" => {
                let recs = self.dungeon(self.one_arg(func, args, *cs)?)?;
                match prop {
                    "exists" => Fact::DungeonExists(recs),
                    "levels" => Fact::DungeonLevels(recs),
                    "depth_start" => Fact::DungeonDepthStart(recs),
                    "entry_depth" => Fact::DungeonEntryDepth(recs),
                    _ => {
                        return Err(self.bad_property(
                            prop,
                            prop_span,
                            "a dungeon",
                            "`exists`, `levels`, `depth_start` or `entry_depth`",
                        ))
                    }
                }
            }
            Expr::Call {
                func,
                args,
                span: cs,
                ..
            } if func == "branch" => {
                let arg = self.one_arg(func, args, *cs)?;
                let recs = self.dungeon(arg)?;
                if recs
                    .iter()
                    .all(|&r| self.res.dungeons[r as usize].incoming.is_empty())
                {
                    return Err(Diagnostic::error(
                        codes::NO_BRANCH,
                        arg.span(),
                        "no branch of the file leads to this dungeon",
                    )
                    .with_label(arg.span(), "reached by no BRANCH or CHAINBRANCH")
                    .with_note("branch(\"NAME\") is the branch into NAME, in its parent dungeon"));
                }
                match prop {
                    "level" => Fact::BranchLevel(recs),
                    "depth" => Fact::BranchDepth(recs),
                    _ => {
                        return Err(self.bad_property(
                            prop,
                            prop_span,
                            "a branch",
                            "`level` or `depth`",
                        ))
                    }
                }
            }
            other => {
                return Err(Diagnostic::error(
                    codes::UNKNOWN_PROPERTY,
                    prop_span,
                    format!("`.{prop}` needs a level, `dungeon(..)` or `branch(..)` before it"),
                )
                .with_label(other.span(), "has no properties"))
            }
        })
    }

    /// A call with no property after it: only `bones(..)` is a value.
    fn call(
        &mut self,
        func: &str,
        func_span: Span,
        args: &[Expr],
        span: Span,
    ) -> Result<(Operand, Ty), Diagnostic> {
        match func {
            "bones" => {
                let fact = match self.one_arg(func, args, span)? {
                    Expr::Int(n, _) => Fact::BonesDepth(*n),
                    Expr::Word(w, s) => Fact::BonesLevel(self.level(w.as_bytes(), *s)?),
                    Expr::Str(n, s) => Fact::BonesLevel(self.level(n, *s)?),
                    other => {
                        return Err(Diagnostic::error(
                            codes::BAD_CALL,
                            other.span(),
                            "`bones` takes a depth (a number) or a level's name",
                        )
                        .with_label(other.span(), "neither a depth nor a level"))
                    }
                };
                let f = self.add(fact, span);
                Ok((Operand::Fact(f), Ty::Bool))
            }
            "dungeon" | "branch" => {
                let props = if func == "dungeon" {
                    "`.exists`, `.levels`, `.depth_start` or `.entry_depth`"
                } else {
                    "`.level` or `.depth`"
                };
                Err(Diagnostic::error(
                    codes::UNKNOWN_PROPERTY,
                    span,
                    format!("`{func}(..)` needs a property"),
                )
                .with_label(span, format!("add {props}")))
            }
            _ => {
                let d = Diagnostic::error(
                    codes::BAD_CALL,
                    func_span,
                    format!("there is no function `{func}`"),
                );
                let near = closest(
                    func.as_bytes(),
                    ["dungeon", "branch", "bones"].iter().map(|s| s.as_bytes()),
                );
                Err(match near {
                    Some(n) => {
                        d.with_label(func_span, format!("did you mean `{}`?", bytes_text(n)))
                    }
                    None => d.with_label(func_span, "expected `dungeon`, `branch` or `bones`"),
                })
            }
        }
    }

    fn level_prop(
        &mut self,
        name: &[u8],
        span: Span,
        prop: &str,
        prop_span: Span,
    ) -> Result<Fact, Diagnostic> {
        let recs = self.level(name, span)?;
        Ok(match prop {
            "level" => Fact::LevelLevel(recs),
            "depth" => Fact::LevelDepth(recs),
            "dungeon" => Fact::LevelDungeon(recs),
            _ => {
                return Err(self.bad_property(
                    prop,
                    prop_span,
                    "a level",
                    "`level`, `depth` or `dungeon`",
                ))
            }
        })
    }

    fn int_bound(&self, e: &Expr) -> Result<i64, Diagnostic> {
        match e {
            Expr::Int(n, _) => Ok(*n),
            _ => Err(Diagnostic::error(
                codes::TYPE_MISMATCH,
                e.span(),
                "a range's ends are integers",
            )
            .with_label(e.span(), "expected a number")),
        }
    }

    fn cond(&mut self, e: &Expr) -> Result<Node, Diagnostic> {
        match e {
            Expr::And(a, b) => Ok(Node::And(Box::new(self.cond(a)?), Box::new(self.cond(b)?))),
            Expr::Or(a, b) => Ok(Node::Or(Box::new(self.cond(a)?), Box::new(self.cond(b)?))),
            Expr::Not(a, _) => Ok(Node::Not(Box::new(self.cond(a)?))),
            Expr::Paren(a, _) => self.cond(a),
            // A string on its own names a level.
            Expr::Str(name, span) => {
                let recs = self.level(name, *span)?;
                Ok(Node::Fact(self.add(Fact::LevelExists(recs), *span)))
            }
            Expr::Cmp {
                op,
                op_span,
                lhs,
                rhs,
            } => {
                let (l, lt) = self.value(lhs)?;
                let (r, rt) = self.value(rhs)?;
                for (t, side) in [(lt, lhs), (rt, rhs)] {
                    if t == Ty::Bool {
                        return Err(Diagnostic::error(
                            codes::TYPE_MISMATCH,
                            side.span(),
                            "a condition is not a value to compare",
                        )
                        .with_label(side.span(), "true or false, not a number or string")
                        .with_note("use it alone (`bigrm`), or with `not`"));
                    }
                }
                let numeric = |t: Ty| matches!(t, Ty::Int | Ty::Dungeon);
                let textual = |t: Ty| matches!(t, Ty::Str | Ty::Dungeon);
                let ok = (numeric(lt) && numeric(rt))
                    || (textual(lt) && textual(rt) && op.is_equality());
                if !ok {
                    let span = lhs.span().to(rhs.span());
                    let msg = if textual(lt) && textual(rt) {
                        "strings compare only with `==` and `!=`".to_string()
                    } else {
                        format!("{} is compared with {}", lt.name(), rt.name())
                    };
                    return Err(Diagnostic::error(codes::TYPE_MISMATCH, *op_span, msg)
                        .with_label(lhs.span(), lt.name())
                        .with_label(rhs.span(), rt.name())
                        .with_note(format!("in `{}`", self.text(span))));
                }
                Ok(Node::Cmp {
                    op: *op,
                    lhs: l,
                    rhs: r,
                })
            }
            Expr::In {
                value,
                lo,
                hi,
                inclusive,
                ..
            } => {
                let (v, t) = self.value(value)?;
                if !matches!(t, Ty::Int | Ty::Dungeon) {
                    return Err(Diagnostic::error(
                        codes::TYPE_MISMATCH,
                        value.span(),
                        format!("`in` takes a number, not {}", t.name()),
                    )
                    .with_label(value.span(), "not a number"));
                }
                let lo = self.int_bound(lo)?;
                let hi = self.int_bound(hi)?;
                // An empty range is simply never true.
                let hi = if *inclusive { hi } else { hi.saturating_sub(1) };
                Ok(Node::In { value: v, lo, hi })
            }
            Expr::Int(..) | Expr::Word(..) | Expr::Prop { .. } | Expr::Call { .. } => {
                let (v, t) = self.value(e)?;
                match (v, t) {
                    (Operand::Fact(f), Ty::Bool) => Ok(Node::Fact(f)),
                    (_, t) => Err(Diagnostic::error(
                        codes::TYPE_MISMATCH,
                        e.span(),
                        format!("{} is not a condition", t.name()),
                    )
                    .with_label(e.span(), "compare it: `== 5`, `in 3..6`, ...")),
                }
            }
        }
    }
}
