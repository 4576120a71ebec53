//! Lowered script -> dungeon.def text that compiles back to the same script.
//!
//! Style (the project formatter's): one statement per line, `KEYWORD:`
//! followed by tabs so the operands start at column 16 (8-column tabs, as in
//! NetHack's own file), operands separated by single spaces, defaults left
//! out (chance 100, `stair`, `down`), a blank line between dungeons. Each
//! dungeon lists its header statements, then its levels (each followed by
//! its LEVELDESC/LEVALIGN lines), then its branches: the binary keeps
//! levels before branches, and a CHAINBRANCH may name any level of its
//! dungeon.
//!
//! Output is bytes because names are bytes (JNetHack's are not UTF-8).

use crate::lossy;
use crate::script::{flags, Dungeon, Level, Range, Script};
use std::fmt;

/// Something in the script that the language cannot express.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecompileError {
    pub message: String,
}

impl fmt::Display for DecompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DecompileError {}

fn err<T>(message: String) -> Result<T, DecompileError> {
    Err(DecompileError { message })
}

/// Column at which operands start.
const OPERAND_COLUMN: usize = 16;

/// Descriptor words by flag bit, in the order they are written.
const DESCRIPTORS: [(u32, &str); 9] = [
    (flags::TOWN, "town"),
    (flags::HELLISH, "hellish"),
    (flags::MAZELIKE, "mazelike"),
    (flags::ROGUELIKE, "roguelike"),
    (flags::EXT_ICEQ, "iceq"),
    (flags::EXT_VECNAD, "vecnad"),
    (flags::EXT_GTOWN, "gtown"),
    (flags::EXT_PURG, "purg"),
    (flags::EXT_HDGN, "hdgn"),
];

const ALIGNMENTS: [(u32, &str); 3] = [
    (flags::ALIGN_LAWFUL << flags::ALIGN_SHIFT, "lawful"),
    (flags::ALIGN_NEUTRAL << flags::ALIGN_SHIFT, "neutral"),
    (flags::ALIGN_CHAOTIC << flags::ALIGN_SHIFT, "chaotic"),
];

struct Writer {
    out: Vec<u8>,
}

impl Writer {
    fn keyword(&mut self, kw: &str) {
        self.out.extend_from_slice(kw.as_bytes());
        self.out.push(b':');
        let mut col = kw.len() + 1;
        if col >= OPERAND_COLUMN {
            self.out.push(b' ');
            return;
        }
        while col < OPERAND_COLUMN {
            self.out.push(b'\t');
            col = (col / 8 + 1) * 8;
        }
    }

    fn raw(&mut self, s: &str) {
        self.out.extend_from_slice(s.as_bytes());
    }

    /// A space-separated operand (no space right after the keyword's tabs).
    fn sep(&mut self) {
        if !matches!(self.out.last(), Some(b'\t') | Some(b' ')) {
            self.out.push(b' ');
        }
    }

    fn word(&mut self, s: &str) {
        self.sep();
        self.raw(s);
    }

    fn int(&mut self, v: i32) {
        self.word(&v.to_string());
    }

    fn string(&mut self, s: &[u8]) {
        self.sep();
        self.out.push(b'"');
        self.out.extend_from_slice(s);
        self.out.push(b'"');
    }

    fn couple(&mut self, r: Range) {
        self.word(&format!("({}, {})", r.base, r.rand));
    }

    fn end(&mut self) {
        self.out.push(b'\n');
    }
}

/// Checks that `s` can sit between double quotes: the language has no
/// escapes and strings end at the line's end.
fn quotable(s: &[u8], what: &dyn Fn() -> String) -> Result<(), DecompileError> {
    if let Some(&b) = s.iter().find(|&&b| matches!(b, b'"' | b'\n' | b'\r' | 0)) {
        return err(format!(
            "{} (\"{}\") contains the byte {:?}, which a dungeon.def string cannot hold",
            what(),
            lossy(s),
            char::from(b)
        ));
    }
    Ok(())
}

fn bones_text(bones: u8, what: &dyn Fn() -> String) -> Result<Vec<u8>, DecompileError> {
    if bones == 0 {
        return Ok(b"none".to_vec());
    }
    quotable(&[bones], what)?;
    Ok(vec![bones])
}

/// Decompiles `script` to dungeon.def text.
pub fn decompile(script: &Script) -> Result<Vec<u8>, DecompileError> {
    // dungeon.def has no form for NetHack 3.7's fields: never drop them.
    if let Some(d) = script.dungeons.iter().find(|d| !d.lua.is_empty()) {
        return err(format!(
            "dungeon \"{}\" has NetHack 3.7 fields (themerooms, lvlfill or unconnected) that dungeon.def cannot hold; \
             write it as dungeon.lua with `dgn convert --to lua`",
            lossy(&d.name)
        ));
    }
    let mut w = Writer { out: Vec::new() };
    let mut first_level = 0usize;
    for (i, d) in script.dungeons.iter().enumerate() {
        if i > 0 {
            w.end();
        }
        dungeon(&mut w, d, first_level)?;
        first_level += d.levels.len();
    }
    Ok(w.out)
}

fn dungeon(w: &mut Writer, d: &Dungeon, first: usize) -> Result<(), DecompileError> {
    let dname = || format!("dungeon \"{}\"", lossy(&d.name));
    quotable(&d.name, &|| format!("the name of {}", dname()))?;
    let bones = bones_text(d.bones, &|| format!("the bones marker of {}", dname()))?;
    w.keyword("DUNGEON");
    w.string(&d.name);
    w.string(&bones);
    w.couple(d.size);
    if d.chance != 0 {
        w.int(d.chance);
    }
    w.end();

    if !d.proto.is_empty() {
        quotable(&d.proto, &|| format!("the PROTOFILE of {}", dname()))?;
        w.keyword("PROTOFILE");
        w.string(&d.proto);
        w.end();
    }
    if d.flags & flags::TOWN != 0 {
        return err(format!(
            "{} has the town flag, which only levels can have (DESCRIPTION: town is rejected)",
            dname()
        ));
    }
    flag_lines(w, d.flags, "DESCRIPTION", "ALIGNMENT", &dname)?;
    if d.entry != 0 {
        w.keyword("ENTRY");
        w.int(d.entry);
        w.end();
    }
    if let Some(t) = d.tileset {
        w.keyword("TILESET");
        w.int(t);
        w.end();
    }

    for (i, l) in d.levels.iter().enumerate() {
        level(w, d, l, first, i)?;
    }

    for (i, b) in d.branches.iter().enumerate() {
        let bname = || format!("branch {} (to \"{}\") of {}", i, lossy(&b.target), dname());
        quotable(&b.target, &|| format!("the target of {}", bname()))?;
        if b.chain == -1 {
            w.keyword("BRANCH");
            w.string(&b.target);
            w.word("@");
        } else {
            let anchor = anchor(d, b.chain, first, d.levels.len(), &bname)?;
            w.keyword("CHAINBRANCH");
            w.string(&b.target);
            w.string(anchor);
            w.word("+");
        }
        w.couple(b.range);
        if b.branch_type != crate::script::BranchType::Stair {
            w.word(b.branch_type.keyword());
        }
        if b.up {
            w.word("up");
        }
        if let Some(entry) = b.entry {
            w.int(entry);
        }
        w.end();
    }
    Ok(())
}

fn level(
    w: &mut Writer,
    d: &Dungeon,
    l: &Level,
    first: usize,
    index: usize,
) -> Result<(), DecompileError> {
    let lname = || {
        format!(
            "level {} (\"{}\") of dungeon \"{}\"",
            first + index,
            lossy(&l.name),
            lossy(&d.name)
        )
    };
    quotable(&l.name, &|| format!("the name of {}", lname()))?;
    let bones = bones_text(l.bones, &|| format!("the bones marker of {}", lname()))?;
    let chained = l.chain != -1;
    let keyword = match (chained, l.rndlevs != 0) {
        (false, false) => "LEVEL",
        (false, true) => "RNDLEVEL",
        (true, false) => "CHAINLEVEL",
        (true, true) => "RNDCHLEVEL",
    };
    w.keyword(keyword);
    if let Some(display) = &l.display {
        quotable(display, &|| format!("the display name of {}", lname()))?;
        w.string(display);
    }
    w.string(&l.name);
    w.string(&bones);
    if chained {
        let anchor = anchor(d, l.chain, first, index, &lname)?;
        w.string(anchor);
        w.word("+");
    } else {
        w.word("@");
    }
    w.couple(l.range);
    if l.chance != 100 {
        w.int(l.chance);
    }
    if l.rndlevs != 0 {
        w.int(l.rndlevs);
    }
    w.end();
    flag_lines(w, l.flags, "LEVELDESC", "LEVALIGN", &lname)
}

/// The name a chain refers to. Chains are resolved by name to the first
/// level of the dungeon that has it, so a chain to a later namesake cannot
/// be written.
fn anchor<'a>(
    d: &'a Dungeon,
    chain: i32,
    first: usize,
    limit: usize,
    what: &dyn Fn() -> String,
) -> Result<&'a [u8], DecompileError> {
    let local = usize::try_from(chain)
        .ok()
        .and_then(|c| c.checked_sub(first))
        .filter(|&c| c < limit);
    let Some(target) = local.and_then(|c| d.levels.get(c)) else {
        return err(format!(
            "{} chains from level {chain}, which is not a level of its dungeon defined before it",
            what()
        ));
    };
    let found = d.levels.iter().position(|l| l.name == target.name);
    if found != local {
        return err(format!(
            "{} chains from the second level named \"{}\" in its dungeon; a chain by name always finds the first",
            what(),
            lossy(&target.name)
        ));
    }
    Ok(&target.name)
}

fn flag_lines(
    w: &mut Writer,
    bits: u32,
    desc_kw: &str,
    align_kw: &str,
    what: &dyn Fn() -> String,
) -> Result<(), DecompileError> {
    let mut rest = bits;
    // The variant words exist only for DESCRIPTION.
    let words = if desc_kw == "LEVELDESC" {
        &DESCRIPTORS[..4]
    } else {
        &DESCRIPTORS[..]
    };
    for &(bit, word) in words {
        if bits & bit != 0 {
            w.keyword(desc_kw);
            w.word(word);
            w.end();
            rest &= !bit;
        }
    }
    for (bit, word) in ALIGNMENTS {
        if bits & bit != 0 {
            w.keyword(align_kw);
            w.word(word);
            w.end();
            rest &= !bit;
        }
    }
    if rest != 0 {
        return err(format!(
            "{} has flag bits 0x{rest:x} that no descriptor word sets",
            what()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::{Branch, BranchType};

    fn level(name: &str, bones: u8, base: i32, rand: i32) -> Level {
        Level {
            name: name.as_bytes().to_vec(),
            bones,
            range: Range { base, rand },
            chance: 100,
            chain: -1,
            ..Level::default()
        }
    }

    fn sample() -> Script {
        let mut wizard2 = level("wizard2", b'X', 1, 0);
        wizard2.chain = 3;
        let mut bigrm = level("bigrm", b'B', 10, 3);
        bigrm.chance = 40;
        bigrm.rndlevs = 10;
        let mut rogue = level("rogue", b'R', 15, 4);
        rogue.flags = flags::ROGUELIKE;
        let mut oracle = level("oracle", b'O', 5, 5);
        oracle.flags = flags::ALIGN_NEUTRAL << flags::ALIGN_SHIFT;
        Script {
            prelude: None,
            dungeons: vec![
                Dungeon {
                    name: b"The Dungeons of Doom".to_vec(),
                    bones: b'D',
                    size: Range { base: 25, rand: 5 },
                    levels: vec![rogue, oracle, bigrm],
                    branches: vec![
                        Branch {
                            target: b"Sokoban".to_vec(),
                            range: Range { base: 1, rand: 0 },
                            chain: 1,
                            up: true,
                            ..Branch::default()
                        },
                        Branch {
                            target: b"Gehennom".to_vec(),
                            range: Range { base: 2, rand: 3 },
                            chain: -1,
                            branch_type: BranchType::Portal,
                            ..Branch::default()
                        },
                    ],
                    ..Dungeon::default()
                },
                Dungeon {
                    name: b"Gehennom".to_vec(),
                    proto: b"tower".to_vec(),
                    bones: 0,
                    size: Range { base: 20, rand: 5 },
                    flags: flags::MAZELIKE | flags::HELLISH,
                    chance: 75,
                    entry: -1,
                    levels: vec![level("wizard1", 0, 11, 6), wizard2],
                    ..Dungeon::default()
                },
            ],
        }
    }

    #[test]
    fn formats_like_nethacks_own_file() {
        let text = decompile(&sample()).expect("decompiles");
        let expected = "DUNGEON:\t\"The Dungeons of Doom\" \"D\" (25, 5)\n\
LEVEL:\t\t\"rogue\" \"R\" @ (15, 4)\n\
LEVELDESC:\troguelike\n\
LEVEL:\t\t\"oracle\" \"O\" @ (5, 5)\n\
LEVALIGN:\tneutral\n\
RNDLEVEL:\t\"bigrm\" \"B\" @ (10, 3) 40 10\n\
CHAINBRANCH:\t\"Sokoban\" \"oracle\" + (1, 0) up\n\
BRANCH:\t\t\"Gehennom\" @ (2, 3) portal\n\
\n\
DUNGEON:\t\"Gehennom\" \"none\" (20, 5) 75\n\
PROTOFILE:\t\"tower\"\n\
DESCRIPTION:\thellish\n\
DESCRIPTION:\tmazelike\n\
ENTRY:\t\t-1\n\
LEVEL:\t\t\"wizard1\" \"none\" @ (11, 6)\n\
CHAINLEVEL:\t\"wizard2\" \"X\" \"wizard1\" + (1, 0)\n";
        assert_eq!(String::from_utf8_lossy(&text), expected);
    }

    #[test]
    fn inexpressible_scripts_are_errors() {
        let mut s = sample();
        s.dungeons[0].flags = flags::TOWN;
        assert!(decompile(&s).is_err());

        let mut s = sample();
        s.dungeons[0].levels[0].name = b"a\"b".to_vec();
        assert!(decompile(&s).unwrap_err().message.contains("cannot hold"));

        let mut s = sample();
        s.dungeons[1].levels[1].chain = 0;
        assert!(decompile(&s).is_err(), "chain into another dungeon");

        let mut s = sample();
        s.dungeons[0].levels[2].name = b"rogue".to_vec();
        s.dungeons[0].branches[0].chain = 2;
        assert!(decompile(&s)
            .unwrap_err()
            .message
            .contains("second level named"));

        let mut s = sample();
        s.dungeons[0].levels[0].flags = 0x80;
        assert!(decompile(&s).is_err());

        let mut s = sample();
        s.dungeons[0].levels[0].flags = flags::EXT_ICEQ;
        assert!(decompile(&s).is_err(), "variant words are DESCRIPTION-only");
        s.dungeons[0].levels[0].flags = 0;
        s.dungeons[0].flags = flags::EXT_ICEQ;
        assert!(
            String::from_utf8_lossy(&decompile(&s).expect("dungeon word"))
                .contains("DESCRIPTION:\ticeq\n")
        );
    }

    #[test]
    fn gnollhack_and_slashem_extensions() {
        let mut s = sample();
        s.dungeons[0].levels[0].display = Some(b"The Rogue Level".to_vec());
        s.dungeons[0].tileset = Some(3);
        s.dungeons[0].branches[1].entry = Some(-2);
        let text = String::from_utf8(decompile(&s).expect("decompiles")).expect("utf8");
        assert!(text.contains("LEVEL:\t\t\"The Rogue Level\" \"rogue\" \"R\" @ (15, 4)\n"));
        assert!(text.contains("TILESET:\t3\n"));
        assert!(text.contains("BRANCH:\t\t\"Gehennom\" @ (2, 3) portal -2\n"));
    }

    #[test]
    fn keyword_columns() {
        for kw in [
            "LEVEL",
            "DUNGEON",
            "CHAINBRANCH",
            "RNDCHLEVEL",
            "ENTRY",
            "DESCRIPTION",
        ] {
            let mut w = Writer { out: Vec::new() };
            w.keyword(kw);
            let mut col = 0;
            for &b in &w.out {
                col = if b == b'\t' {
                    (col / 8 + 1) * 8
                } else {
                    col + 1
                };
            }
            assert_eq!(col, OPERAND_COLUMN, "{kw}");
        }
    }
}
