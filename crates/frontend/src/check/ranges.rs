//! The numbers of each statement on their own (language.md §4): couples
//! within MAXLEVEL and with a sane random part, dungeon sizes, variant
//! counts, chances and entry levels. Whether a range fits the dungeon's
//! size is `placement`'s business.

use super::codes::*;
use super::geometry::{entry_value, Sizes};
use super::Ctx;
use crate::model::{Couple, Value};
use dgnkit_grammar::{Diagnostic, Edit};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `@ (base, rand)` of LEVEL, RNDLEVEL, BRANCH.
    Absolute,
    /// `+ (base, rand)` of CHAINLEVEL, RNDCHLEVEL.
    ChainedLevel,
    /// `+ (base, rand)` of CHAINBRANCH.
    ChainedBranch,
    /// The size of a DUNGEON.
    Dungeon,
}

pub fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let m = ctx.model;
    for d in &m.dungeons {
        couple(ctx, out, &d.size, Kind::Dungeon, None);
        // dungeon.lua's `chance = 0` is 3.7's way to say "no roll".
        if let Some(c) = d.chance.filter(|c| !(ctx.lua() && c.value == 0)) {
            if !(0..=100).contains(&c.value) || c.value == 0 {
                let meaning = if c.value == 0 {
                    "a dungeon chance of 0 is stored like no chance at all and means \"always\""
                        .to_string()
                } else if c.value > 100 {
                    "above 100 is the same as always".to_string()
                } else {
                    "a negative chance means the dungeon always exists (NetHack skips the roll for 0 only)".to_string()
                };
                out.push(
                    Diagnostic::warning(
                        CHANCE_OUT_OF_RANGE,
                        "chance-out-of-range",
                        c.span,
                        format!(
                            "dungeon chance {} is not a percentage from 1 to 100",
                            c.value
                        ),
                    )
                    .with_label(c.span, "percent chance that the dungeon exists")
                    .with_note(meaning),
                );
            }
        }
        let e = entry_value(ctx, d.id);
        if e > 0 {
            if let Some(sizes) = Sizes::of(d, &ctx.limits) {
                let span = d.entry.map(|v| v.span).or_else(|| {
                    super::geometry::parent_branch(m, d.id).and_then(|b| b.entry.map(|v| v.span))
                });
                if let (Some(span), true) = (span, e > sizes.min()) {
                    let fits = sizes.count_at_least(e);
                    out.push(
                        Diagnostic::warning(
                            ENTRY_BEYOND_BOTTOM,
                            "entry-beyond-bottom",
                            span,
                            format!(
                                "entry level {e} is below the bottom of \"{}\" when it has {} levels",
                                d.name.text(),
                                super::geometry::describe_range(sizes.min(), (e - 1).min(sizes.max()))
                            ),
                        )
                        .with_label(span, format!("the dungeon has {} levels", sizes.describe()))
                        .with_note(format!(
                            "{} of {} equally likely sizes are too small; the loader then cuts the entry to the bottom \
                             level, so the branch arrives there instead",
                            sizes.total() - fits,
                            sizes.total()
                        ))
                        .with_note("use a negative entry to count from the bottom (-1 is the bottom level)"),
                    );
                }
            }
        }
    }
    for l in &m.levels {
        let kind = if l.chain.is_some() {
            Kind::ChainedLevel
        } else {
            Kind::Absolute
        };
        couple(
            ctx,
            out,
            &l.placement,
            kind,
            l.chain.as_ref().map(|c| c.name.text()),
        );
        if let Some(c) = l.chance {
            if !(1..=100).contains(&c.value) {
                let meaning = if c.value < 1 {
                    "the level never exists"
                } else {
                    "above 100 is the same as 100"
                };
                out.push(
                    Diagnostic::warning(
                        CHANCE_OUT_OF_RANGE,
                        "chance-out-of-range",
                        c.span,
                        format!("level chance {} is not a percentage from 1 to 100", c.value),
                    )
                    .with_label(c.span, meaning)
                    .with_note("NetHack creates the level when its chance is above rn2(100)"),
                );
            }
        }
        if let Some(n) = l.rndlevs {
            let max = ctx.limits.max_rndlevs;
            if n.value < 1 || max.is_some_and(|m| n.value > m) {
                let bound = max.map_or(String::new(), |m| format!(" and at most {m}"));
                out.push(
                    Diagnostic::error(BAD_RNDLEVS, n.span, format!("{} variants of \"{}\": the count must be at least 1{bound}", n.value, l.name.text()))
                        .with_label(n.span, "number of level files name-1 .. name-n to choose from")
                        .with_note("NetHack keeps the count in an unsigned char and picks one variant with rnd(n)"),
                );
            }
        }
        values_fit(out, [l.chance, l.rndlevs]);
    }
    for b in &m.branches {
        let kind = if b.chain.is_some() {
            Kind::ChainedBranch
        } else {
            Kind::Absolute
        };
        couple(
            ctx,
            out,
            &b.placement,
            kind,
            b.chain.as_ref().map(|c| c.name.text()),
        );
        values_fit(out, [b.entry, None]);
    }
    for d in &m.dungeons {
        values_fit(out, [d.chance, d.entry]);
    }
}

/// Numbers beyond 32 bits cannot be stored in any format.
fn values_fit(out: &mut Vec<Diagnostic>, values: [Option<Value>; 2]) {
    for v in values.into_iter().flatten() {
        if i32::try_from(v.value).is_err() {
            out.push(
                Diagnostic::error(
                    BASE_OUT_OF_RANGE,
                    v.span,
                    format!("{} does not fit in 32 bits", v.value),
                )
                .with_label(v.span, "every number is stored as a 32-bit integer"),
            );
        }
    }
}

fn couple(ctx: &Ctx, out: &mut Vec<Diagnostic>, c: &Couple, kind: Kind, anchor: Option<String>) {
    if base_beyond_maxlevel(ctx, out, c, kind) || !fits_32_bits(out, c) {
        return;
    }
    if kind == Kind::Dungeon {
        dungeon_size(out, c);
        return;
    }
    if rand_below_minus_one(out, c, kind) {
        return;
    }
    match kind {
        Kind::Absolute => absolute_range(ctx, out, c),
        Kind::ChainedLevel => chained_level(out, c, anchor),
        Kind::ChainedBranch | Kind::Dungeon => {}
    }
}

/// A base beyond `MAXLEVEL`, which dgn_comp zeroes: reported, and true.
fn base_beyond_maxlevel(ctx: &Ctx, out: &mut Vec<Diagnostic>, c: &Couple, kind: Kind) -> bool {
    let max = ctx.limits.max_level;
    let orig = match kind {
        Kind::Absolute => "Abs",
        _ => "Rel",
    };
    if let Some(m) = max {
        if c.base < -m || c.base > m {
            let what = match kind {
                Kind::Dungeon => "dungeon size",
                Kind::Absolute => "level",
                _ => "offset",
            };
            out.push(
                Diagnostic::error(BASE_OUT_OF_RANGE, c.base_span, format!("{what} {} is beyond MAXLEVEL {m}", c.base))
                    .with_label(c.base_span, format!("must be within -{m}..{m} for {}", ctx.limits_origin()))
                    .with_note(format!(
                        "{} reports \"{orig} base out of dlevel range - zeroing!\" and the zeroed range makes the game \
                         panic at start-up",
                        ctx.compiler_name()
                    ))
                    .with_note(match kind {
                        Kind::Dungeon => "the loader would cut the size to MAXLEVEL anyway; a variant with a larger MAXLEVEL needs its `--dialect`",
                        _ => "a variant with a larger MAXLEVEL needs its `--dialect`",
                    }),
            );
            return true;
        }
    }
    false
}

/// Whether both numbers fit in 32 bits (reported when not).
fn fits_32_bits(out: &mut Vec<Diagnostic>, c: &Couple) -> bool {
    if i32::try_from(c.base).is_err() || i32::try_from(c.rand).is_err() {
        let span = if i32::try_from(c.base).is_err() {
            c.base_span
        } else {
            c.rand_span
        };
        out.push(
            Diagnostic::error(BASE_OUT_OF_RANGE, span, "number does not fit in 32 bits")
                .with_label(span, "ranges are stored as 32-bit integers"),
        );
        return false;
    }
    true
}

/// A dungeon's size: at least one level, and no negative random part.
fn dungeon_size(out: &mut Vec<Diagnostic>, c: &Couple) {
    if c.base < 1 {
        out.push(
            Diagnostic::error(BAD_DUNGEON_SIZE, c.base_span, format!("a dungeon of {} levels", c.base))
                .with_label(c.base_span, "a dungeon needs at least 1 level")
                .with_note("the dungeon has base + rn2(rand) levels; dgn_comp's check for this is never called"),
        );
    }
    if c.rand < 0 {
        out.push(
            Diagnostic::error(
                BAD_RAND,
                c.rand_span,
                format!("random part {} of a dungeon size", c.rand),
            )
            .with_label(
                c.rand_span,
                "must be 0 (exactly base levels) or n > 0 (base .. base+n-1)",
            )
            .with_note(
                "the size is rn1(rand, base) = base + rn2(rand), and rn2 of a negative number differs by \
                 game: NetHack 3.4.3, SLASH'EM and DynaHack draw one of base .. base+|rand|-1; NetHack 3.6, \
                 EvilHack and GnollHack add ISAAC-64's raw output, cut to a byte, so the size is negative \
                 about half the time and otherwise mostly cut to MAXLEVEL; UnNetHack, NetHack 3.7 and its \
                 forks (and dNetHack, after a draw) take base",
            )
            .with_note("only dNetHack's dgn_comp rejects it (\"Invalid dungeon depth specified.\")"),
        );
    }
}

/// A random part below -1: reported, and true.
fn rand_below_minus_one(out: &mut Vec<Diagnostic>, c: &Couple, kind: Kind) -> bool {
    if c.rand < -1 {
        out.push(
            Diagnostic::error(
                BAD_RAND,
                c.rand_span,
                format!("random part {} is below -1", c.rand),
            )
            .with_label(
                c.rand_span,
                "0: exactly base; n > 0: base .. base+n-1; -1: base to the bottom",
            )
            .with_note(match kind {
                Kind::Absolute => {
                    "NetHack's dgn_comp reports \"Abs range out of dlevel range - zeroing!\""
                }
                Kind::ChainedLevel => {
                    "NetHack's dgn_comp does not check it: the range holds no level, so every game panics \
                     at start-up when it places the level (\"pick_level: ran out of valid levels\")"
                }
                _ => {
                    "NetHack's dgn_comp does not check it: the loader searches a negative count of levels \
                     and puts the branch on its base level, except that NetHack 3.4.3, SLASH'EM and \
                     DynaHack hang at start-up when the base level already ends a branch (unless rn2 \
                     gives 0), and NetHack 3.6, EvilHack and GnollHack, whose rn2 returns ISAAC-64's \
                     raw output, hang then too and about half the time put the branch on a level \
                     outside the dungeon (UnNetHack, NetHack 3.7 and dNetHack always take the base)"
                }
            })
            .with_fix(
                "use -1 (from base to the bottom)",
                vec![Edit {
                    span: c.rand_span,
                    replacement: "-1".into(),
                }],
            ),
        );
        return true;
    }
    false
}

/// An absolute range: not on level 0, and not past `MAXLEVEL`.
fn absolute_range(ctx: &Ctx, out: &mut Vec<Diagnostic>, c: &Couple) {
    let max = ctx.limits.max_level;
    if c.base == 0 {
        out.push(
            Diagnostic::error(LEVEL_ZERO, c.base_span, "there is no level 0")
                .with_label(
                    c.base_span,
                    "levels count from 1 at the top, from -1 at the bottom",
                )
                .with_note("NetHack's loader panics \"level_range: base value out of range\"")
                .with_fix(
                    "start at the top level",
                    vec![Edit {
                        span: c.base_span,
                        replacement: "1".into(),
                    }],
                ),
        );
        return;
    }
    if let Some(m) = max {
        let end = if c.base < 0 {
            c.base + c.rand + 1
        } else {
            c.base + c.rand - m
        };
        if end > 0 {
            let last = if c.base < 0 {
                format!("{} levels below the bottom", c.base + c.rand + 1)
            } else {
                format!("level {}", c.base + c.rand)
            };
            out.push(
                Diagnostic::error(RANGE_PAST_MAXLEVEL, c.span, format!("range ({}, {}) reaches past MAXLEVEL {m}", c.base, c.rand))
                    .with_label(c.span, format!("base + rand reaches {last}"))
                    .with_note(format!(
                        "{} requires base + rand <= {m} (for a negative base: base + rand + 1 <= 0) and otherwise \
                         reports \"Abs range out of dlevel range - zeroing!\"",
                        ctx.compiler_name()
                    )),
            );
        }
    }
}

/// A chained level's range: not on the level it is chained from.
fn chained_level(out: &mut Vec<Diagnostic>, c: &Couple, anchor: Option<String>) {
    if c.base == 0 && (c.rand == 0 || c.rand == 1) {
        let anchor = anchor.unwrap_or_default();
        out.push(
            Diagnostic::error(ON_ANCHOR, c.span, format!("this level would be on \"{anchor}\" itself"))
                .with_label(c.span, "offset 0 is the level it is chained from")
                .with_note("two special levels never share a level: the loader panics \"couldn't place levels\"")
                .with_fix("place it one level below", vec![Edit { span: c.base_span, replacement: "1".into() }]),
        );
    }
}
