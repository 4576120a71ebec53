//! Names and bones markers: well-formed markers, unique dungeon names,
//! level names (a warning for plain levels, an error for chained ones, as in
//! dgn_comp), empty names, and names too long for the target's fields.

use super::codes::*;
use super::Ctx;
use crate::model::{Bones, BonesInfo, Name};
use dgnkit_grammar::ast::KeywordKind;
use dgnkit_grammar::Diagnostic;

pub fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let m = ctx.model;
    for d in &m.dungeons {
        bones(out, &d.bones, "dungeon");
        empty(out, &d.name, "dungeon name");
        if let Some(first) = d.first_of_name {
            if !ctx.dialect.features().alternates {
                let f = m.dungeon(first);
                out.push(
                    Diagnostic::error(DUPLICATE_DUNGEON, d.name.span, format!("dungeon \"{}\" is defined twice", d.name.text()))
                        .with_label(f.name.span, "first defined here")
                        .with_note("branches and the game find dungeons by name, so this one could never be reached")
                        .with_note("dNAO's dialect (--dialect dnao) reads a repeated name as an alternate dungeon"),
                );
            }
        }
        too_long(
            ctx,
            out,
            &d.name,
            ctx.limits.dungeon_name,
            "dungeon name",
            "24-byte",
        );
        if let Some(p) = &d.protofile {
            too_long(
                ctx,
                out,
                p,
                ctx.limits.proto_name,
                if ctx.lua() {
                    "protofile name"
                } else {
                    "PROTOFILE name"
                },
                "15-byte run-time",
            );
        }
    }
    // NetHack 3.7 copies these with Strcpy, "FIXME: these should have
    // length checks" (src/dungeon.c:1061-1065, init_dungeon_dungeons).
    for d in &m.dungeons {
        for (name, what) in [
            (&d.lua.lvlfill, "lvlfill file name"),
            (&d.lua.themerooms, "themerooms file name"),
        ] {
            if let Some(name) = name {
                too_long(ctx, out, name, ctx.limits.lua_file_name, what, "15-byte");
            }
        }
    }
    // NetHack 3.7 keeps a branch's name as the string Lua gave
    // (tmpb->name, src/dungeon.c:905): only the dungeon's own is cut.
    for b in m.branches.iter().filter(|_| !ctx.lua()) {
        too_long(
            ctx,
            out,
            &b.target,
            ctx.limits.dungeon_name,
            "branch target name",
            "24-byte",
        );
    }
    for l in &m.levels {
        if let Some(b) = &l.bones {
            bones(out, b, "level");
        }
        empty(out, &l.name, "level name");
        if let Some(c) = &l.chain {
            empty(out, &c.name, "chain name");
        }
        too_long(
            ctx,
            out,
            &l.name,
            ctx.limits.level_name,
            "level name",
            "15-byte run-time",
        );
        if let Some(disp) = &l.display {
            too_long(
                ctx,
                out,
                disp,
                ctx.limits.display_name,
                "display name",
                "64-byte",
            );
        }
        let Some(first) = l.first_of_name else {
            continue;
        };
        let f = m.level(first);
        let same_dungeon = f.dungeon == l.dungeon;
        let where_ = if same_dungeon {
            String::new()
        } else {
            format!(" (in \"{}\")", m.dungeon(f.dungeon).name.text())
        };
        // dgn_comp refuses a chained level's duplicate name; 3.7 does not.
        if !ctx.lua()
            && matches!(
                l.keyword,
                KeywordKind::ChainLevel | KeywordKind::RndChLevel | KeywordKind::RndChainLevel
            )
        {
            out.push(
                Diagnostic::error(
                    DUPLICATE_CHAINED_LEVEL,
                    l.name.span,
                    format!(
                        "chained level \"{}\" has the name of an earlier level{where_}",
                        l.name.text()
                    ),
                )
                .with_label(f.name.span, "first defined here")
                .with_note(format!(
                    "{} rejects it (\"Duplicate level name.\")",
                    ctx.compiler_name()
                ))
                .with_note("give the level its own name"),
            );
        } else {
            out.push(
                Diagnostic::warning(
                    DUPLICATE_LEVEL,
                    "duplicate-level-name",
                    l.name.span,
                    format!("level \"{}\" is defined again{where_}", l.name.text()),
                )
                .with_label(f.name.span, "first defined here")
                .with_note(
                    "legal, but chains and the game's look-ups by name (find_level) only ever find the first \
                     level of a name: this one is never the one found",
                ),
            );
        }
    }
    for b in &m.branches {
        if let Some(c) = &b.chain {
            empty(out, &c.name, "chain name");
        }
    }
}

fn bones(out: &mut Vec<Diagnostic>, b: &BonesInfo, what: &str) {
    if b.value != Bones::Invalid {
        return;
    }
    out.push(
        Diagnostic::error(
            BAD_BONES,
            b.span,
            format!("{what} bones marker must be a single character or \"none\""),
        )
        .with_label(b.span, "not one character")
        .with_note("the marker is one byte of the bones file names (bon<dungeon>0.<level>)")
        .with_note("NetHack's dgn_comp: \"Bones marker must be a single char, or \\\"none\\\"!\""),
    );
}

fn empty(out: &mut Vec<Diagnostic>, name: &Name, what: &str) {
    if name.bytes.is_empty() {
        out.push(
            Diagnostic::error(EMPTY_NAME, name.span, format!("empty {what}"))
                .with_label(name.span, "nothing between the quotes")
                .with_note("NetHack cannot look up an empty name (dgn_comp reads an empty chain name as \"not chained\")"),
        );
    }
}

fn too_long(
    ctx: &Ctx,
    out: &mut Vec<Diagnostic>,
    name: &Name,
    limit: Option<usize>,
    what: &str,
    field: &str,
) {
    let Some(limit) = limit else { return };
    let len = name.bytes.len();
    if len <= limit {
        return;
    }
    out.push(
        Diagnostic::error(
            NAME_TOO_LONG,
            name.span,
            format!("{what} \"{}\" is {len} bytes; {} allows at most {limit}", name.text(), ctx.limits_origin()),
        )
        .with_label(name.span, format!("{} bytes too long", len - limit))
        .with_note(if ctx.lua() {
            // include/dungeon.h:28 (s_level.proto), :62-65 (dname, proto,
            // fill_lvl, themerms); src/dungeon.c:579 and :1062-1065 copy
            // into them with Strcpy.
            format!(
                "NetHack 3.7 copies it with Strcpy into a {field} field (include/dungeon.h), without a length check \
                 (src/dungeon.c: \"FIXME: these should have length checks\"): a longer name overruns memory"
            )
        } else {
            format!(
                "NetHack copies it into a {field} field without a length check: a longer name overruns memory or is cut \
                 and then no longer matches"
            )
        })
        .with_note("shorten it, or check with `--target native` (no limits) if the game has larger fields"),
    );
}
