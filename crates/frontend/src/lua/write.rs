//! A lowered script as `dungeon.lua` text that reads back to the same
//! script: the layout of NetHack 3.7's own file (three-space indents, one
//! table per dungeon, one line per level and branch), fields left out when
//! they have 3.7's default. Two defaults differ from a `.def` file's: a
//! dungeon without `chance` rolls rn2(100) in 3.7, so a script's 0 (no
//! roll) is written `chance = 0`; and a chain is written as a name, which
//! 3.7 looks up among all the levels read before.
//!
//! Variant constructs that `.def` dialects have (GnollHack's display names
//! and tilesets, SLASH'EM's branch entry levels, the variants' descriptor
//! words) are written as fields of the same names (`display`, `tileset`,
//! `entry`, flag words), which the reader accepts in the same dialects.

use super::read::{ALIGNMENTS, FLAG_WORDS};
use dgnkit_script::lossy;
use dgnkit_script::{flags, Branch, BranchType, Dungeon, Level, Script};
use std::collections::HashMap;

/// The variant descriptor words (DESCRIPTION only), as decompile.rs names them.
pub const EXTENSION_WORDS: &[(&str, u32)] = &[
    ("iceq", flags::EXT_ICEQ),
    ("vecnad", flags::EXT_VECNAD),
    ("gtown", flags::EXT_GTOWN),
    ("purg", flags::EXT_PURG),
    ("hdgn", flags::EXT_HDGN),
];

/// What dungeon.lua cannot say, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    pub place: Place,
    pub message: String,
}

/// A dungeon, level or branch by its index in the file (all dungeons'
/// levels and branches counted in order, as the model numbers them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    File,
    Dungeon(usize),
    Level(usize),
    Branch(usize),
}

/// `script` as dungeon.lua, or what it holds that dungeon.lua cannot say.
pub fn write(script: &Script) -> Result<Vec<u8>, Vec<WriteError>> {
    let mut first_of = HashMap::new();
    for (i, l) in script.dungeons.iter().flat_map(|d| &d.levels).enumerate() {
        first_of.entry(l.name.clone()).or_insert(i);
    }
    let mut w = Writer {
        out: b"-- dungeon.lua written by dgnkit (dgn convert)\n".to_vec(),
        errors: Vec::new(),
        first_of,
        place: Place::File,
        counts: [0; 3],
    };
    w.line(0, "dungeon = {");
    let mut first = 0usize;
    for d in &script.dungeons {
        w.dungeon(d, first);
        first += d.levels.len();
    }
    w.line(0, "}");
    if w.errors.is_empty() {
        Ok(w.out)
    } else {
        Err(w.errors)
    }
}

struct Writer {
    out: Vec<u8>,
    errors: Vec<WriteError>,
    /// What is being written, for errors.
    place: Place,
    /// Dungeons, levels and branches written so far.
    counts: [usize; 3],
    /// The file-wide index of the first level of each name.
    first_of: HashMap<Vec<u8>, usize>,
}

/// One `key = value` of a table.
struct Fields(Vec<Vec<u8>>);

impl Fields {
    fn str(&mut self, key: &str, bytes: &[u8]) {
        let mut f = format!("{key} = ").into_bytes();
        quote(bytes, &mut f);
        self.0.push(f);
    }

    fn int(&mut self, key: &str, v: i32) {
        self.0.push(format!("{key} = {v}").into_bytes());
    }

    fn words(&mut self, key: &str, words: &[&str]) {
        match words {
            [] => {}
            [one] => self.0.push(format!("{key} = \"{one}\"").into_bytes()),
            many => {
                let list: Vec<String> = many.iter().map(|w| format!("\"{w}\"")).collect();
                self.0
                    .push(format!("{key} = {{ {} }}", list.join(", ")).into_bytes());
            }
        }
    }
}

/// A Lua string literal: printable ASCII and valid UTF-8 as they are,
/// other bytes as decimal escapes (three digits, so a digit after one is
/// never read as part of it).
fn quote(bytes: &[u8], out: &mut Vec<u8>) {
    out.push(b'"');
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '"' | '\\' => {
                    out.push(b'\\');
                    out.push(c as u8);
                }
                c if c.is_control() => {
                    let mut buf = [0u8; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        out.extend_from_slice(format!("\\{b:03}").as_bytes());
                    }
                }
                c => {
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        for b in chunk.invalid() {
            out.extend_from_slice(format!("\\{b:03}").as_bytes());
        }
    }
    out.push(b'"');
}

impl Writer {
    fn error(&mut self, message: String) {
        self.errors.push(WriteError {
            place: self.place,
            message,
        });
    }

    /// Moves to the next dungeon (0), level (1) or branch (2).
    fn enter(&mut self, which: usize) {
        let i = self.counts[which];
        self.counts[which] += 1;
        self.place = match which {
            0 => Place::Dungeon(i),
            1 => Place::Level(i),
            _ => Place::Branch(i),
        };
    }

    fn line(&mut self, indent: usize, text: &str) {
        self.raw_line(indent, text.as_bytes());
    }

    fn raw_line(&mut self, indent: usize, text: &[u8]) {
        self.out.extend(std::iter::repeat_n(b' ', indent));
        self.out.extend_from_slice(text);
        self.out.push(b'\n');
    }

    /// The words of a flags value and its alignment word.
    fn flag_words(
        &mut self,
        bits: u32,
        dungeon: bool,
        what: &dyn Fn() -> String,
    ) -> (Vec<&'static str>, Option<&'static str>) {
        let mut rest = bits;
        let mut words = Vec::new();
        let ext: &[(&str, u32)] = if dungeon { EXTENSION_WORDS } else { &[] };
        // "unconnected" is not a flag word of the script: it is LuaFields'.
        for &(word, bit) in FLAG_WORDS[..4].iter().chain(ext) {
            if bits & bit != 0 {
                words.push(word);
                rest &= !bit;
            }
        }
        let align = bits & flags::ALIGN_MASK;
        rest &= !flags::ALIGN_MASK;
        let alignment = match ALIGNMENTS.iter().find(|(_, b)| *b == align) {
            _ if align == 0 => None,
            Some((w, _)) => Some(*w),
            None => {
                self.error(format!(
                    "{} has several alignments (flags 0x{align:x}); dungeon.lua's `alignment` is one word",
                    what()
                ));
                None
            }
        };
        if rest != 0 {
            self.error(format!(
                "{} has flag bits 0x{rest:x} that no flag word sets",
                what()
            ));
        }
        (words, alignment)
    }

    fn dungeon(&mut self, d: &Dungeon, first: usize) {
        self.enter(0);
        let dname = || format!("dungeon \"{}\"", lossy(&d.name));
        let mut f = Fields(Vec::new());
        f.str("name", &d.name);
        if d.bones != 0 {
            f.str("bonetag", &[d.bones]);
        }
        f.int("base", d.size.base);
        if d.size.rand != 0 {
            f.int("range", d.size.rand);
        }
        if d.chance != 100 {
            f.int("chance", d.chance);
        }
        if d.entry != 0 {
            f.int("entry", d.entry);
        }
        if !d.proto.is_empty() {
            f.str("protofile", &d.proto);
        }
        let (mut words, alignment) = self.flag_words(d.flags, true, &dname);
        if d.lua.unconnected {
            words.push("unconnected");
        }
        if d.lua.nofood {
            words.push("nofood");
        }
        if let Some(a) = alignment {
            f.words("alignment", &[a]);
        }
        f.words("flags", &words);
        if let Some(t) = &d.lua.lvlfill {
            f.str("lvlfill", t);
        }
        if let Some(t) = &d.lua.themerooms {
            f.str("themerooms", t);
        }
        if let Some(t) = d.tileset {
            f.int("tileset", t);
        }
        self.line(3, "{");
        for field in &f.0 {
            let mut text = field.clone();
            text.push(b',');
            self.raw_line(6, &text);
        }
        if !d.levels.is_empty() {
            self.line(6, "levels = {");
            for (i, l) in d.levels.iter().enumerate() {
                self.level(d, l, first, i);
            }
            self.line(6, "},");
        }
        if !d.branches.is_empty() {
            self.line(6, "branches = {");
            for (i, b) in d.branches.iter().enumerate() {
                self.branch(d, b, first, i);
            }
            self.line(6, "},");
        }
        self.line(3, "},");
    }

    fn level(&mut self, d: &Dungeon, l: &Level, first: usize, index: usize) {
        self.enter(1);
        let lname = || {
            format!(
                "level \"{}\" of dungeon \"{}\"",
                lossy(&l.name),
                lossy(&d.name)
            )
        };
        let mut f = Fields(Vec::new());
        f.str("name", &l.name);
        if let Some(display) = &l.display {
            f.str("display", display);
        }
        if l.bones != 0 {
            f.str("bonetag", &[l.bones]);
        }
        if l.chain != -1 {
            // A level's chain: the first level of that name read before it
            // (dungeon.c:844), which must be the script's, in its dungeon.
            let own = first + index;
            self.chain(&mut f, d, l.chain, first, own, own, &lname);
        }
        f.int("base", l.range.base);
        if l.range.rand != 0 {
            f.int("range", l.range.rand);
        }
        if l.rndlevs != 0 {
            f.int("nlevels", l.rndlevs);
        }
        if l.chance != 100 {
            f.int("chance", l.chance);
        }
        let (words, alignment) = self.flag_words(l.flags, false, &lname);
        if let Some(a) = alignment {
            f.words("alignment", &[a]);
        }
        f.words("flags", &words);
        self.table_line(&f);
    }

    fn branch(&mut self, d: &Dungeon, b: &Branch, first: usize, index: usize) {
        self.enter(2);
        let bname = || {
            format!(
                "branch to \"{}\" of dungeon \"{}\"",
                lossy(&b.target),
                lossy(&d.name)
            )
        };
        let mut f = Fields(Vec::new());
        f.str("name", &b.target);
        if b.chain != -1 {
            // A branch's search stops at n_levs + f - 1 (dungeon.c:914).
            let read = first + d.levels.len();
            self.chain(
                &mut f,
                d,
                b.chain,
                first,
                read,
                (read + index).saturating_sub(1),
                &bname,
            );
        }
        f.int("base", b.range.base);
        if b.range.rand != 0 {
            f.int("range", b.range.rand);
        }
        let kind = match b.branch_type {
            BranchType::Stair => None,
            BranchType::Portal => Some("portal"),
            BranchType::NoDown => Some("no_down"),
            BranchType::NoUp => Some("no_up"),
        };
        if let Some(k) = kind {
            f.words("branchtype", &[k]);
        }
        if b.up {
            f.words("direction", &["up"]);
        }
        if let Some(e) = b.entry {
            f.int("entry", e);
        }
        self.table_line(&f);
    }

    /// `chainlevel = "name"` when 3.7's search by name finds the script's
    /// level: the first level of that name in the file, before `read` and
    /// `covered`, in the same dungeon.
    #[allow(clippy::too_many_arguments)]
    fn chain(
        &mut self,
        f: &mut Fields,
        d: &Dungeon,
        chain: i32,
        first: usize,
        read: usize,
        covered: usize,
        what: &dyn Fn() -> String,
    ) {
        let local = usize::try_from(chain)
            .ok()
            .and_then(|c| c.checked_sub(first))
            .and_then(|c| d.levels.get(c));
        let Some(target) = local else {
            self.error(format!(
                "{} chains from level {chain}, which is not a level of its dungeon",
                what()
            ));
            return;
        };
        f.str("chainlevel", &target.name);
        let found = self.first_of.get(&target.name).copied();
        if found != Some(chain as usize) || chain as usize >= read.min(covered) {
            let why = if found != Some(chain as usize) {
                "an earlier level has the same name, and NetHack 3.7 finds that one"
            } else {
                "NetHack 3.7's search for a dungeon's first branch stops before the last level read"
            };
            self.error(format!(
                "{} chains from \"{}\", which dungeon.lua cannot name: {why}",
                what(),
                lossy(&target.name)
            ));
        }
    }

    fn table_line(&mut self, f: &Fields) {
        let mut text = b"{ ".to_vec();
        for (i, field) in f.0.iter().enumerate() {
            if i > 0 {
                text.extend_from_slice(b", ");
            }
            text.extend_from_slice(field);
        }
        text.extend_from_slice(b" },");
        self.raw_line(9, &text);
    }
}
