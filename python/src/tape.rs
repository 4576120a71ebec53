//! JSON text read into a tape, without Python: the half of turning a
//! command's output into Python objects that needs no GIL, so that a
//! stream does it on the command's own thread while Python builds the
//! previous piece (`json.rs` builds from the tape).
//!
//! The reader reads what `json.loads` reads, values equal: numbers as
//! Python does (integers of any size, floats correctly rounded), every
//! escape, a lone surrogate refused (the commands never write one).
//!
//! What a command repeats is named once, by [`Names`], which outlives a
//! tape (a stream keeps one): the tape says "string 12" or "object 40"
//! where the builder has made them before, so the Python side neither
//! scans nor hashes them again:
//! - the keys, the names of levels and dungeons and other short strings;
//! - an array's short objects, by their text: a layout's levels,
//!   dungeons and branches are mostly the same text from one seed to the
//!   next, and the builder copies the dict it made for that text.
//!
//! And what a line repeats of the line before is found without a lookup:
//! the keys of an object mostly come in the order they came last (each
//! key's successor is kept, and the text compared where the next key
//! starts), and a key's string value is often the one it had last (an
//! xlogfile's version, role, race, death, its `deaths` and `uid`): the
//! tape says "key 40's value again" ([`Op::Slot`]), and the builder keeps
//! the object it made for each key's last value. An object's keys, when
//! it has a few and all are named, are its shape: the builder copies a
//! dict of those keys rather than growing one key by key.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Strings shorter than this are named for reuse.
const SHORT: usize = 48;
/// At most this many strings are named: a command's keys and names are a
/// few hundred; an xlogfile's player names would grow it without end.
const NAMED: usize = 16_384;
/// Objects of an array longer than this (in bytes of text) are read each
/// time: looking one up costs a scan of its text.
const SHORT_OBJECT: usize = 1024;
/// At most this many short objects are named (a layout's few hundred
/// distinct level places of a game, many times over).
const NAMED_OBJECTS: usize = 65_536;
/// Nesting deeper than this is refused (no command's JSON comes close).
const MAX_DEPTH: usize = 256;
/// No name: a key that is not named, or no key known.
pub const NONE: u32 = u32::MAX;
/// Objects of fewer members have no shape: a new dict holds five without
/// growing.
const SHAPED: u32 = 6;
/// At most this many shapes are named.
const SHAPES: usize = 4096;

/// FxHash (rustc's): the texts hashed here are short, and a caller's own
/// output is no adversary.
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl Fx {
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// One step of a tape. Strings and digits are ranges of [`Tape::text`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    Null,
    Bool(bool),
    Int(i64),
    /// An integer beyond 64 bits, as its digits.
    Big(u32, u32),
    Float(f64),
    /// A string made here and not named.
    Str(u32, u32),
    /// A string named before.
    Named(u32),
    /// A string to make and name: its name, then its text's range.
    NewNamed(u32, u32, u32),
    /// An array of this many values, which follow.
    List(u32),
    /// An object of this many members, which follow: key, value, ...; and
    /// its shape (the names of its keys), or [`NONE`].
    Dict(u32, u32),
    /// A short object named before.
    Object(u32),
    /// Names the object that follows.
    NewObject(u32),
    /// The string the member of this key (a named string) had last: an
    /// object member's value, where the value made last for that key was
    /// a string (the builder keeps each key's).
    Slot(u32),
}

/// JSON values, one after another.
#[derive(Debug, Default)]
pub struct Tape {
    pub ops: Vec<Op>,
    pub text: String,
    /// How many values (lines) it holds.
    pub values: usize,
}

impl Tape {
    pub fn str(&self, start: u32, len: u32) -> &str {
        &self.text[start as usize..(start + len) as usize]
    }
}

/// What a stream's tapes have named so far.
#[derive(Default)]
pub struct Names {
    strings: FxMap<Box<str>, u32>,
    objects: FxMap<Box<[u8]>, u32>,
    /// Each named string's text, by its name, where it can be compared
    /// with JSON text as it stands (it holds no `"` and no `\\`).
    texts: Vec<Option<Box<str>>>,
    /// The key that came last after each key `k` (at `2k + 1`) and first
    /// in an object that is (or is in an array that is) the value of `k`
    /// (at `2k + 2`); at 0 the first of an object of no key.
    follows: Vec<u32>,
    /// Each key's last string value, by the key's name: what the builder
    /// keeps for [`Op::Slot`].
    slots: Vec<Slot>,
    /// The shapes of objects, by their keys' names ([`NONE`] for keys
    /// that repeat one), and how many there are.
    shapes: FxMap<Box<[u32]>, u32>,
    shaped: u32,
    /// What came after the value of each key last, by the key's name.
    next: Vec<Next>,
}

/// The next key as it came after a member's value: `,"key":` as it
/// stands (up to sixteen bytes, held as the first eight and the last
/// eight), compared inline with the text that follows the next value,
/// which is its comma, key and colon read in one step.
#[derive(Clone, Copy)]
struct Next {
    key: u32,
    len: u32,
    words: [u64; 2],
}

impl Default for Next {
    fn default() -> Self {
        Next {
            key: NONE,
            len: 0,
            words: [0; 2],
        }
    }
}

impl Next {
    /// `,"text":`, when `text` (of the key `key`) stands as it is and fits.
    fn of(text: &str, key: u32) -> Option<Next> {
        let len = text.len() + 4;
        if len > 16 || text.contains(['"', '\\']) {
            return None;
        }
        let mut bytes = [0; 16];
        bytes[..2].copy_from_slice(b",\"");
        bytes[2..len - 2].copy_from_slice(text.as_bytes());
        bytes[len - 2..len].copy_from_slice(b"\":");
        Some(Next {
            key,
            len: len as u32,
            words: [word(&bytes, 0), word(&bytes, len.max(8) - 8)],
        })
    }
}

/// A key's last string value, as it stood in JSON between its quotes,
/// escapes and all: the same bytes followed by a quote are the same
/// string.
#[derive(Default)]
struct Slot {
    raw: Vec<u8>,
}

impl Names {
    /// Where `follows` keeps the key after `key` (`NONE` when there is no
    /// such place).
    fn after(key: u32) -> usize {
        if key == NONE {
            usize::MAX
        } else {
            2 * key as usize + 1
        }
    }

    /// Where `follows` keeps the first key of an object under `key`.
    fn first_under(key: u32) -> usize {
        if key == NONE {
            0
        } else {
            2 * key as usize + 2
        }
    }

    fn follow(&mut self, at: usize, key: u32) {
        if at == usize::MAX {
            return;
        }
        if self.follows.len() <= at {
            self.follows.resize(at + 1, NONE);
        }
        self.follows[at] = key;
    }
}

/// What is wrong where (a byte offset of the text read).
#[derive(Debug)]
pub struct Fault {
    pub at: usize,
    pub what: String,
}

impl Fault {
    /// The fault in words, with its line and column in `text`.
    pub fn message(&self, text: &[u8]) -> String {
        let before = &text[..self.at.min(text.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        format!("line {line}, column {column}: {}", self.what)
    }
}

/// Reads `text`'s JSON values, one per line (blank lines skipped), onto
/// a tape.
pub fn read(text: &[u8], names: &mut Names) -> Result<Tape, Fault> {
    let mut r = Reader {
        b: text,
        utf8: std::str::from_utf8(text).ok(),
        i: 0,
        depth: 0,
        keys: Vec::new(),
        names,
        tape: Tape::default(),
    };
    loop {
        r.ws();
        if r.i == text.len() {
            return Ok(r.tape);
        }
        r.value(NONE)?;
        r.tape.values += 1;
        // The rest of the line is blank.
        while let Some(&c) = r.b.get(r.i) {
            match c {
                b'\n' => break,
                b' ' | b'\t' | b'\r' => r.i += 1,
                _ => return r.fault("text after the value"),
            }
        }
    }
}

struct Reader<'t, 'n> {
    b: &'t [u8],
    /// `b` as text when it is UTF-8 throughout (the commands' output
    /// always is): a string between two quotes is then a slice of it.
    utf8: Option<&'t str>,
    i: usize,
    depth: usize,
    /// The keys' names of the objects being read, innermost last.
    keys: Vec<u32>,
    names: &'n mut Names,
    tape: Tape,
}

type Read<T = ()> = Result<T, Fault>;

impl Reader<'_, '_> {
    fn fault<T>(&self, what: impl Into<String>) -> Read<T> {
        Err(Fault {
            at: self.i,
            what: what.into(),
        })
    }

    fn ws(&mut self) {
        while matches!(self.b.get(self.i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.i += 1;
        }
    }

    /// A value, of the member `key` (a name, or [`NONE`]).
    fn value(&mut self, key: u32) -> Read {
        self.ws();
        match self.b.get(self.i) {
            Some(b'{') => self.nested(key, Self::object),
            Some(b'[') => self.nested(key, Self::array),
            Some(b'"') => self.string(None).map(drop),
            Some(b't') => self.word("true", Op::Bool(true)),
            Some(b'f') => self.word("false", Op::Bool(false)),
            Some(b'n') => self.word("null", Op::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => self.fault("expected a JSON value"),
            None => self.fault("the text ends before its value"),
        }
    }

    fn nested(&mut self, key: u32, read: fn(&mut Self, u32) -> Read) -> Read {
        if self.depth == MAX_DEPTH {
            return self.fault("nested too deeply");
        }
        self.depth += 1;
        let r = read(self, key);
        self.depth -= 1;
        r
    }

    fn word(&mut self, w: &str, op: Op) -> Read {
        if self.b[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            self.tape.ops.push(op);
            Ok(())
        } else {
            self.fault("expected a JSON value")
        }
    }

    fn expect(&mut self, c: u8) -> Read {
        self.ws();
        if self.b.get(self.i) == Some(&c) {
            self.i += 1;
            Ok(())
        } else {
            self.fault(format!("expected `{}`", c as char))
        }
    }

    /// After a value of an array or object: `true` at its `close`.
    fn next_or_close(&mut self, close: u8) -> Read<bool> {
        self.ws();
        match self.b.get(self.i) {
            Some(b',') => {
                self.i += 1;
                Ok(false)
            }
            Some(&c) if c == close => {
                self.i += 1;
                Ok(true)
            }
            _ => self.fault(format!("expected `,` or `{}`", close as char)),
        }
    }

    /// Pushes a container's op, to be given its count by [`Self::close`].
    fn open(&mut self, op: Op) -> usize {
        self.tape.ops.push(op);
        self.tape.ops.len() - 1
    }

    fn close(&mut self, at: usize, n: u32) {
        self.tape.ops[at] = Op::List(n);
    }

    fn array(&mut self, key: u32) -> Read {
        self.i += 1;
        let at = self.open(Op::List(0));
        let mut n = 0;
        self.ws();
        if self.b.get(self.i) == Some(&b']') {
            self.i += 1;
        } else {
            loop {
                self.ws();
                if self.b.get(self.i) == Some(&b'{') {
                    self.element(key)?;
                } else {
                    self.value(key)?;
                }
                n += 1;
                if self.next_or_close(b']')? {
                    break;
                }
            }
        }
        self.close(at, n);
        Ok(())
    }

    /// An array's object: a short one seen before is named.
    fn element(&mut self, key: u32) -> Read {
        let start = self.i;
        let Some(end) = short_end(self.b, start) else {
            return self.nested(key, Self::object);
        };
        let text = &self.b[start..end];
        if let Some(&id) = self.names.objects.get(text) {
            self.tape.ops.push(Op::Object(id));
            self.i = end;
            return Ok(());
        }
        if self.names.objects.len() < NAMED_OBJECTS {
            let id = self.names.objects.len() as u32;
            self.names.objects.insert(text.into(), id);
            self.tape.ops.push(Op::NewObject(id));
        }
        self.nested(key, Self::object)
    }

    /// An object, the value of the member `key` (or of an array's).
    fn object(&mut self, key: u32) -> Read {
        self.i += 1;
        let at = self.open(Op::Dict(0, NONE));
        let mut n = 0;
        self.ws();
        if self.b.get(self.i) == Some(&b'}') {
            self.i += 1;
            return Ok(());
        }
        let base = self.keys.len();
        let mut k = self.key_colon(Names::first_under(key))?;
        loop {
            self.keys.push(k);
            self.member(k)?;
            n += 1;
            // The comma, key and colon that came after this key last.
            if let Some(next) = self.names.next.get(k as usize).copied() {
                if next.key != NONE && self.at(next.len as usize, next.words) {
                    self.i += next.len as usize;
                    self.tape.ops.push(Op::Named(next.key));
                    k = next.key;
                    continue;
                }
            }
            if self.next_or_close(b'}')? {
                let shape = self.shape(base, n);
                self.keys.truncate(base);
                self.tape.ops[at] = Op::Dict(n, shape);
                return Ok(());
            }
            let after = self.key_colon(Names::after(k))?;
            if k != NONE && after != NONE {
                if let Some(Some(next)) = self
                    .names
                    .texts
                    .get(after as usize)
                    .map(|t| t.as_deref().and_then(|t| Next::of(t, after)))
                {
                    let at = k as usize;
                    if self.names.next.len() <= at {
                        self.names.next.resize(at + 1, Next::default());
                    }
                    self.names.next[at] = next;
                }
            }
            k = after;
        }
    }

    /// A key (expected to be the one `follows` keeps) and its colon: its
    /// name, or [`NONE`].
    fn key_colon(&mut self, follows: usize) -> Read<u32> {
        self.ws();
        if self.b.get(self.i) != Some(&b'"') {
            return self.fault("expected a key (a string)");
        }
        let k = self.key(follows)?;
        self.expect(b':')?;
        Ok(k)
    }

    /// Whether the text at `self.i` is the `len` bytes whose first eight
    /// and last eight are `words`.
    #[inline]
    fn at(&self, len: usize, words: [u64; 2]) -> bool {
        let i = self.i;
        if i + 16 <= self.b.len() {
            let w = word(self.b, i);
            if len <= 8 {
                w & (u64::MAX >> (64 - 8 * len)) == words[0]
            } else {
                w == words[0] && word(self.b, i + len - 8) == words[1]
            }
        } else {
            let mut bytes = [0; 16];
            bytes[..8].copy_from_slice(&words[0].to_le_bytes());
            if len > 8 {
                bytes[len - 8..len].copy_from_slice(&words[1].to_le_bytes());
            }
            self.b.get(i..i + len) == Some(&bytes[..len])
        }
    }

    /// The shape of the object whose keys are `self.keys[base..]` (`n`).
    fn shape(&mut self, base: usize, n: u32) -> u32 {
        let keys = &self.keys[base..];
        if n < SHAPED || keys.contains(&NONE) {
            return NONE;
        }
        if let Some(&id) = self.names.shapes.get(keys) {
            return id;
        }
        if self.names.shapes.len() == SHAPES {
            return NONE;
        }
        // A key twice (never in a command's output, but JSON has it: the
        // last value counts) would make a dict of fewer keys than members,
        // whose copy the builder could not fill member by member.
        let repeats = keys.iter().enumerate().any(|(i, k)| keys[..i].contains(k));
        let id = if repeats {
            NONE
        } else {
            self.names.shaped += 1;
            self.names.shaped - 1
        };
        self.names.shapes.insert(keys.into(), id);
        id
    }

    /// The key at `self.i` (its quote), expected to be the one `follows`
    /// keeps: its name, or [`NONE`].
    fn key(&mut self, follows: usize) -> Read<u32> {
        if let Some(&k) = self.names.follows.get(follows) {
            if let Some(Some(text)) = self.names.texts.get(k as usize) {
                if let Some(end) = self.is_string(text.as_bytes()) {
                    self.i = end;
                    self.tape.ops.push(Op::Named(k));
                    return Ok(k);
                }
            }
        }
        let k = self.string(None)?.unwrap_or(NONE);
        if k != NONE {
            self.names.follow(follows, k);
        }
        Ok(k)
    }

    /// The value of the member `key` (a name, or [`NONE`]): a string that
    /// is the key's last is its [`Op::Slot`].
    fn member(&mut self, key: u32) -> Read {
        self.ws();
        if key == NONE || self.b.get(self.i) != Some(&b'"') {
            return self.value(key);
        }
        if let Some(slot) = self.names.slots.get(key as usize) {
            if let Some(end) = self.is_string(&slot.raw) {
                self.i = end;
                self.tape.ops.push(Op::Slot(key));
                return Ok(());
            }
        }
        self.string(Some(key)).map(drop)
    }

    /// Where the JSON string at `self.i` (its quote) ends, when its bytes
    /// are `raw` (the bytes between a string's quotes).
    fn is_string(&self, raw: &[u8]) -> Option<usize> {
        let start = self.i + 1;
        let end = start + raw.len();
        (self.b.get(end) == Some(&b'"') && same(&self.b[start..end], raw)).then_some(end + 1)
    }

    /// A string, the value of the member `slot` if any: its name, if it
    /// has one.
    fn string(&mut self, slot: Option<u32>) -> Read<Option<u32>> {
        let start = self.i + 1;
        let j = start + quote_or_backslash(&self.b[start..]);
        match self.b.get(j) {
            Some(b'"') => {}
            Some(_) => return self.escaped(start, slot),
            None => return self.fault("a string that does not end"),
        }
        let s = match self.utf8 {
            Some(t) => &t[start..j],
            None => match std::str::from_utf8(&self.b[start..j]) {
                Ok(s) => s,
                Err(_) => return self.fault("a string that is not UTF-8"),
            },
        };
        self.i = j + 1;
        if let Some(k) = slot {
            self.keep(k, start, j);
        }
        Ok(self.push_str(s, true))
    }

    /// Keeps the string at `self.b[start..end]` (between its quotes) as
    /// the last value of the key `key`.
    fn keep(&mut self, key: u32, start: usize, end: usize) {
        let k = key as usize;
        if self.names.slots.len() <= k {
            self.names.slots.resize_with(k + 1, Slot::default);
        }
        let raw = &mut self.names.slots[k].raw;
        raw.clear();
        raw.extend_from_slice(&self.b[start..end]);
    }

    /// Pushes the string `s` (`plain` when it holds no `"` and no `\\`):
    /// its name, if it has one.
    fn push_str(&mut self, s: &str, plain: bool) -> Option<u32> {
        // A number written as text (an xlogfile's points, turns, dates)
        // seldom comes twice: not worth a name.
        let named = s.len() < SHORT && !s.starts_with(|c: char| c.is_ascii_digit() || c == '-');
        if named {
            if let Some(&id) = self.names.strings.get(s) {
                self.tape.ops.push(Op::Named(id));
                return Some(id);
            }
        }
        let start = self.tape.text.len() as u32;
        self.tape.text.push_str(s);
        let len = s.len() as u32;
        if named && self.names.strings.len() < NAMED {
            let id = self.names.strings.len() as u32;
            self.names.strings.insert(s.into(), id);
            self.names.texts.push(plain.then(|| s.into()));
            self.tape.ops.push(Op::NewNamed(id, start, len));
            Some(id)
        } else {
            self.tape.ops.push(Op::Str(start, len));
            None
        }
    }

    /// A string with escapes, from its first byte at `start`.
    fn escaped(&mut self, start: usize, slot: Option<u32>) -> Read<Option<u32>> {
        let mut out = Vec::new();
        let mut j = start;
        loop {
            // The run up to the next quote or escape, whole.
            let run = quote_or_backslash(&self.b[j..]);
            out.extend_from_slice(&self.b[j..j + run]);
            j += run;
            match self.b.get(j) {
                Some(b'"') => break,
                Some(b'\\') => {
                    let c = match self.b.get(j + 1) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            let (c, len) = self.unicode(j)?;
                            j += len;
                            let mut buf = [0; 4];
                            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                            continue;
                        }
                        _ => {
                            self.i = j;
                            return self.fault("an unknown escape");
                        }
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    j += 2;
                }
                Some(_) | None => return self.fault("a string that does not end"),
            }
        }
        let Ok(s) = String::from_utf8(out) else {
            return self.fault("a string that is not UTF-8");
        };
        self.i = j + 1;
        if let Some(k) = slot {
            self.keep(k, start, j);
        }
        let plain = !s.contains(['"', '\\']);
        Ok(self.push_str(&s, plain))
    }

    /// `\uXXXX` at `j` (a surrogate pair is two): the character and the
    /// escape's length.
    fn unicode(&mut self, j: usize) -> Read<(char, usize)> {
        let hex = |at: usize| -> Option<u32> {
            let h = self.b.get(at..at + 4)?;
            u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
        };
        self.i = j;
        let Some(hi) = hex(j + 2) else {
            return self.fault("a \\u escape without four hex digits");
        };
        if (0xD800..0xDC00).contains(&hi) {
            if self.b.get(j + 6..j + 8) == Some(b"\\u") {
                if let Some(lo) = hex(j + 8).filter(|lo| (0xDC00..0xE000).contains(lo)) {
                    let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    if let Some(c) = char::from_u32(c) {
                        return Ok((c, 12));
                    }
                }
            }
            return self.fault("a lone surrogate (\\u escape)");
        }
        match char::from_u32(hi) {
            Some(c) => Ok((c, 6)),
            None => self.fault("a lone surrogate (\\u escape)"),
        }
    }

    fn number(&mut self) -> Read {
        let start = self.i;
        let mut float = false;
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b'0'..=b'9' | b'-' | b'+' => {}
                b'.' | b'e' | b'E' => float = true,
                _ => break,
            }
            self.i += 1;
        }
        let digits = &self.b[start..self.i];
        if !valid_number(digits) {
            self.i = start;
            return self.fault("a malformed number");
        }
        // ASCII by the check above.
        let text = std::str::from_utf8(digits).unwrap_or_default();
        let op = if float {
            match text.parse::<f64>() {
                Ok(f) => Op::Float(f),
                Err(_) => return self.fault("a malformed number"),
            }
        } else if let Ok(n) = text.parse::<i64>() {
            Op::Int(n)
        } else {
            let start = self.tape.text.len() as u32;
            self.tape.text.push_str(text);
            Op::Big(start, text.len() as u32)
        };
        self.tape.ops.push(op);
        Ok(())
    }
}

/// The offset of the first `"` or `\\` in `b` (its length if none), eight
/// bytes at a time: most of a tape's reading is finding where strings end.
fn quote_or_backslash(b: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has = |w: u64, c: u8| {
        let x = w ^ (ONES * u64::from(c));
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let mut chunks = b.chunks_exact(8);
    let mut at = 0;
    for c in &mut chunks {
        let mut w = [0; 8];
        w.copy_from_slice(c);
        let w = u64::from_le_bytes(w);
        let found = has(w, b'"') | has(w, b'\\');
        if found != 0 {
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    at + chunks
        .remainder()
        .iter()
        .position(|&c| c == b'"' || c == b'\\')
        .unwrap_or(chunks.remainder().len())
}

/// The eight bytes of `s` at `at`, as a little-endian word.
#[inline]
fn word(s: &[u8], at: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&s[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Whether `a` and `b`, of one length, are the same bytes: eight at a
/// time, inline (the texts compared are mostly a few bytes long, where a
/// call to `memcmp` costs more than the comparing).
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 8 {
        return a.iter().zip(b).all(|(x, y)| x == y);
    }
    let mut at = 0;
    while at + 8 < n {
        if word(a, at) != word(b, at) {
            return false;
        }
        at += 8;
    }
    // The last eight, over the tail of the word before.
    word(a, n - 8) == word(b, n - 8)
}

/// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
fn valid_number(t: &[u8]) -> bool {
    let digits = |t: &[u8], at: usize| t[at..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = usize::from(t.first() == Some(&b'-'));
    match t.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i += digits(t, i),
        _ => return false,
    }
    if t.get(i) == Some(&b'.') {
        let n = digits(t, i + 1);
        if n == 0 {
            return false;
        }
        i += 1 + n;
    }
    if matches!(t.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(t.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let n = digits(t, i);
        if n == 0 {
            return false;
        }
        i += n;
    }
    i == t.len()
}

/// The end (one past its `}`) of the object at `start`, when it ends
/// within [`SHORT_OBJECT`] bytes and holds no array and no object deeper
/// than one level (what the builder copies: a branch's ends). Strings are
/// skipped whole, so a brace inside one is text.
fn short_end(b: &[u8], start: usize) -> Option<usize> {
    let limit = b.len().min(start + SHORT_OBJECT);
    let mut depth = 0usize;
    let mut j = start;
    while j < limit {
        match b[j] {
            b'"' => {
                j += 1;
                loop {
                    match *b.get(j)? {
                        b'"' => break,
                        b'\\' => j += 2,
                        _ => j += 1,
                    }
                }
            }
            b'[' => return None,
            b'{' => {
                depth += 1;
                if depth > 2 {
                    return None;
                }
            }
            b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
        j += 1;
    }
    None
}
