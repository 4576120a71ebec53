//! The dungeon.lua reader on NetHack 3.7's own file and on small files with mistakes
//! (in this crate because they check through the whole analysis).

use crate::check::codes as check_codes;
use crate::frontend::{analyze, CheckOptions};
use crate::lua::codes::*;
use crate::model::{Bones, ChainTarget, SourceKind};
use crate::script::{flags, BranchType};

fn codes(src: &str) -> Vec<&'static str> {
    analyze(src.as_bytes(), &CheckOptions::default())
        .diagnostics
        .iter()
        .map(|d| d.code)
        .collect()
}

#[test]
fn sniffing_tells_lua_from_def() {
    assert!(crate::lua::looks_like_lua(b"-- comment\ndungeon = {}"));
    assert!(crate::lua::looks_like_lua(b"  dungeon={}"));
    assert!(crate::lua::looks_like_lua(b"\xef\xbb\xbflocal x"));
    assert!(!crate::lua::looks_like_lua(
        b"# comment\nDUNGEON: \"x\" \"x\" (1, 0)"
    ));
    assert!(!crate::lua::looks_like_lua(b"DUNGEON: \"x\" \"x\" (1, 0)"));
    assert!(!crate::lua::looks_like_lua(b"dungeon"));
    assert!(!crate::lua::looks_like_lua(b""));
}

#[test]
fn every_lua_example_produces_its_code() {
    for c in CODES.iter().filter(|c| !c.example.is_empty()) {
        let found = codes(c.example);
        assert!(found.contains(&c.code), "{}: {found:?}", c.code);
    }
}

const SMALL: &str = r#"-- a small dungeon.lua
dungeon = {
   {
      name = "The Dungeons of Doom",
      bonetag = "D",
      base = 25,
      range = 5,
      alignment = "unaligned",
      themerooms = "themerms.lua",
      branches = {
         { name = "Sokoban", chainlevel = "oracle", base = 1, direction = "up" },
         { name = "The Quest", chainlevel = "oracle", base = 6, range = 2, branchtype = "portal" },
      },
      levels = {
         { name = "rogue", bonetag = "R", base = 15, range = 4, flags = "roguelike" },
         { name = "oracle", bonetag = "O", base = 5, range = 5, alignment = "neutral" },
         { name = "bigrm", bonetag = "B", base = 10, range = 3, chance = 40, nlevels = 13 },
      },
   },
   { name = "Sokoban", base = 4, alignment = "neutral", flags = { "mazelike" }, entry = -1,
     levels = { { name = "soko1", base = 1, nlevels = 2 } } },
   { name = "The Quest", bonetag = "Q", base = 5, range = 2, lvlfill = "fill" },
   { name = "The Tutorial", base = 2, flags = { "mazelike", "unconnected" } },
}
"#;

#[test]
fn a_small_file_lowers_field_for_field() {
    let a = analyze(SMALL.as_bytes(), &CheckOptions::default());
    let errors: Vec<_> = a.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(a.model.source, SourceKind::Lua);
    let s = a.script.unwrap();
    let doom = &s.dungeons[0];
    assert_eq!(doom.name, b"The Dungeons of Doom");
    assert_eq!((doom.bones, doom.size.base, doom.size.rand), (b'D', 25, 5));
    // 3.7's default chance is 100: rolled, always kept.
    assert_eq!((doom.chance, doom.entry, doom.flags), (100, 0, 0));
    assert_eq!(doom.lua.themerooms.as_deref(), Some(&b"themerms.lua"[..]));
    let names: Vec<&[u8]> = doom.levels.iter().map(|l| l.name.as_slice()).collect();
    assert_eq!(names, [&b"rogue"[..], b"oracle", b"bigrm"]);
    assert_eq!(doom.levels[0].flags, flags::ROGUELIKE);
    assert_eq!(
        doom.levels[1].flags,
        flags::ALIGN_NEUTRAL << flags::ALIGN_SHIFT
    );
    assert_eq!((doom.levels[2].chance, doom.levels[2].rndlevs), (40, 13));
    assert_eq!(
        (
            doom.levels[1].chance,
            doom.levels[1].rndlevs,
            doom.levels[1].chain
        ),
        (100, 0, -1)
    );
    // Branches chain to "oracle", file-wide level 1.
    assert_eq!(doom.branches[0].chain, 1);
    assert!(doom.branches[0].up);
    assert_eq!(doom.branches[1].branch_type, BranchType::Portal);
    assert!(!doom.branches[1].up);
    let soko = &s.dungeons[1];
    assert_eq!(soko.bones, 0);
    assert_eq!(soko.entry, -1);
    assert_eq!(
        soko.flags,
        flags::MAZELIKE | flags::ALIGN_NEUTRAL << flags::ALIGN_SHIFT
    );
    assert_eq!(s.dungeons[2].lua.lvlfill.as_deref(), Some(&b"fill"[..]));
    let tut = &s.dungeons[3];
    assert!(tut.lua.unconnected);
    assert_eq!(tut.flags, flags::MAZELIKE);
    // Spans point into the Lua text.
    let oracle = a.model.level_by_name(b"oracle").unwrap();
    let l = a.model.level(oracle);
    assert_eq!(&SMALL[l.name.inner.range()], "oracle");
    assert_eq!(&SMALL[l.placement.base_span.range()], "5");
    assert_eq!(l.bones.as_ref().map(|b| b.value), Some(Bones::Marker(b'O')));
    let b = &a.model.branches[0];
    assert_eq!(
        b.chain.as_ref().map(|c| c.target),
        Some(ChainTarget::Level(oracle))
    );
}

#[test]
fn mistakes_are_reported_on_their_spans() {
    let src = "dungeon = {\n { name = \"D\", base = 25, rnage = 5, alignment = \"lawfull\",\n   levels = { { name = \"a\", base = 1 }, { name = \"b\", chainlevel = \"c\", base = 1 } } },\n}\n";
    let a = analyze(src.as_bytes(), &CheckOptions::default());
    let find = |code| a.diagnostics.iter().find(|d| d.code == code).unwrap();
    let unknown = find(LUA_UNKNOWN_FIELD);
    assert_eq!(&src[unknown.span.range()], "rnage");
    assert_eq!(unknown.fix.as_ref().unwrap().edits[0].replacement, "range");
    let word = find(LUA_BAD_WORD);
    assert_eq!(&src[word.span.range()], "\"lawfull\"");
    assert_eq!(word.fix.as_ref().unwrap().edits[0].replacement, "lawful");
    let chain = find(check_codes::CHAIN_UNKNOWN);
    assert_eq!(&src[chain.span.range()], "\"c\"");
    assert!(a.script.is_none());
}

#[test]
fn chains_follow_3_7s_search() {
    // A level may chain to its dungeon's first level (dgn_comp could not).
    let first = "dungeon = { { name = \"D\", base = 25, levels = {\n { name = \"a\", base = 2 }, { name = \"b\", chainlevel = \"a\", base = 1 } } } }";
    assert!(
        !codes(first).iter().any(|c| c.starts_with('E')),
        "{:?}",
        codes(first)
    );
    // The first branch cannot chain to the last level read.
    let unreached = "dungeon = { { name = \"D\", base = 25, levels = { { name = \"a\", base = 2 } },\n branches = { { name = \"S\", chainlevel = \"a\", base = 1 } } }, { name = \"S\", base = 2 } }";
    assert!(codes(unreached).contains(&check_codes::CHAIN_UNREACHED));
    // The second branch can.
    let second = "dungeon = { { name = \"D\", base = 25, levels = { { name = \"a\", base = 2 } },\n branches = { { name = \"S\", base = 3 }, { name = \"T\", chainlevel = \"a\", base = 1 } } },\n { name = \"S\", base = 2 }, { name = \"T\", base = 2 } }";
    assert!(
        !codes(second).iter().any(|c| c.starts_with('E')),
        "{:?}",
        codes(second)
    );
}

#[test]
fn nethack_37s_own_file_reads_without_errors() {
    let Some(path) = corpus_file() else {
        eprintln!("skipped: ../shared is absent");
        return;
    };
    let src = std::fs::read(&path).unwrap();
    let a = analyze(&src, &CheckOptions::default());
    let errors: Vec<_> = a.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let s = a.script.unwrap();
    assert_eq!(s.dungeons.len(), 9);
    assert_eq!(s.level_count(), 37);
    assert_eq!(s.branch_count(), 7);
    let minend = a.model.level(a.model.level_by_name(b"minend").unwrap());
    assert_eq!(minend.bones, None, "minend has its bonetag commented out");
    let tutorial = s
        .dungeons
        .iter()
        .find(|d| d.name == b"The Tutorial")
        .unwrap();
    assert!(tutorial.lua.unconnected);
    let gehennom = &s.dungeons[1];
    assert_eq!(gehennom.lua.lvlfill.as_deref(), Some(&b"hellfill"[..]));
    assert_eq!(gehennom.flags, flags::MAZELIKE | flags::HELLISH);
    let bigrm = &s.dungeons[0].levels[2];
    assert_eq!((bigrm.rndlevs, bigrm.chance), (13, 40));
}

/// NetHack 3.7's own dungeon.lua in `../shared`, when present.
pub(crate) fn corpus_file() -> Option<std::path::PathBuf> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/NetHack__NetHack@3.7/dungeon.lua");
    if p.exists() {
        Some(p)
    } else {
        assert!(
            std::env::var("DGNKIT_REQUIRE_SHARED").as_deref() != Ok("1"),
            "../shared is required"
        );
        None
    }
}

/// Found by the `lua_reader` fuzz target: a backtick outside a string made
/// full_moon's tokenizer panic (its `read_string` has no arm for it
/// without the Luau features), so the reader answered "could not read
/// this file" and `dgn fmt` crashed. It is a syntax error at its byte.
#[test]
fn a_backtick_is_a_syntax_error_at_its_byte() {
    for src in [
        &b"dungeon = { ` }"[..],
        b"dungeon = {\n  { name = \"x\", base = `1 },\n}\n",
        b"`",
        b"-- `quoted` in a comment is fine\ndungeon = { ` }",
    ] {
        let at = src.iter().rposition(|&b| b == b'`').unwrap() as u32;
        let parsed = crate::lua::syntax::parse(src);
        let d = &parsed.diagnostics;
        assert!(
            d.iter().all(|d| d.code != LUA_TOO_COMPLEX),
            "{:?}: {d:?}",
            String::from_utf8_lossy(src)
        );
        assert!(
            d.iter().any(|d| d.code == LUA_SYNTAX && d.span.start == at),
            "{:?}: {d:?}",
            String::from_utf8_lossy(src)
        );
        assert!(crate::lua::format::format(src).is_err());
    }
    // Inside a string it is a character like any other.
    let ok = b"dungeon = { { name = \"a`b\", bonetag = \"`\", base = 1 } }";
    let parsed = crate::lua::syntax::parse(ok);
    assert!(
        parsed.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        parsed.diagnostics
    );
    assert!(crate::lua::format::format(ok).is_ok());
}
