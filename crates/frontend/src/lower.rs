//! Lowering: the resolved model becomes the [`Script`] that NetHack's
//! dgn_comp would have stored, field for field: a dungeon's chance is 0 when
//! not given (dNAO's compiler: 100), a level's 100; `rndlevs` is 0 for a
//! plain level; a chain is the file-wide index of the chained-from level
//! record (-1 when not chained); flags are the descriptor bits OR-ed
//! together (alignment in bits 4-6); a bones marker of "none" (or a missing
//! one) is the zero byte; ENTRY is 0 when not given.
//!
//! Only called on files without errors, so every value is in range and
//! every chain resolved.

use crate::dialect::Dialect;
use crate::model::{Model, SourceKind, Value};
use dgnkit_script::{Branch, BranchType, Dungeon, Level, LuaFields, Range, Script};

fn int(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

fn range(c: &crate::model::Couple) -> Range {
    Range {
        base: int(c.base),
        rand: int(c.rand),
    }
}

fn opt(v: Option<Value>) -> Option<i32> {
    v.map(|v| int(v.value))
}

/// The script NetHack's dgn_comp (of `dialect`) would store for `model`.
pub fn lower(model: &Model, dialect: Dialect) -> Script {
    // NetHack 3.7 reads a missing `chance` as 100 (dungeon.c:1014), which
    // still rolls rn2(100); dgn_comp stores 0, no roll.
    let default_chance =
        if model.source == SourceKind::Lua || dialect.features().dungeon_chance_default_100 {
            100
        } else {
            0
        };
    let dungeons = model
        .dungeons
        .iter()
        .map(|d| Dungeon {
            name: d.name.bytes.clone(),
            proto: d
                .protofile
                .as_ref()
                .map(|p| p.bytes.clone())
                .unwrap_or_default(),
            bones: d.bones.value.byte(),
            size: range(&d.size),
            flags: d.flags,
            chance: opt(d.chance).unwrap_or(default_chance),
            entry: opt(d.entry).unwrap_or(0),
            levels: model
                .levels_of(d.id)
                .map(|l| Level {
                    name: l.name.bytes.clone(),
                    display: l.display.as_ref().map(|n| n.bytes.clone()),
                    bones: l.bones.as_ref().map_or(0, |b| b.value.byte()),
                    range: range(&l.placement),
                    chance: opt(l.chance).unwrap_or(100),
                    rndlevs: opt(l.rndlevs).unwrap_or(0),
                    chain: l
                        .chain
                        .as_ref()
                        .and_then(|c| c.target.resolved())
                        .map_or(-1, |id| id.0 as i32),
                    flags: l.flags,
                })
                .collect(),
            branches: model
                .branches_of(d.id)
                .map(|b| Branch {
                    target: b.target.bytes.clone(),
                    range: range(&b.placement),
                    chain: b
                        .chain
                        .as_ref()
                        .and_then(|c| c.target.resolved())
                        .map_or(-1, |id| id.0 as i32),
                    branch_type: b.branch_type.unwrap_or(BranchType::Stair),
                    up: b.up,
                    entry: opt(b.entry),
                })
                .collect(),
            tileset: d.tilesets.last().and_then(|&(_, v, _)| v).map(int),
            lua: LuaFields {
                themerooms: d.lua.themerooms.as_ref().map(|n| n.bytes.clone()),
                lvlfill: d.lua.lvlfill.as_ref().map(|n| n.bytes.clone()),
                unconnected: d.lua.unconnected.is_some(),
                nofood: d.lua.nofood.is_some(),
            },
        })
        .collect();
    Script {
        dungeons,
        prelude: None,
    }
}
