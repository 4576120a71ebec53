//! JSON text into Python objects, without `json.loads`' detour through
//! Python code per value: `dgn layout --seeds` prints a few kilobytes a
//! layout, hundreds of small objects, and this is most of what
//! `dgnkit.layouts()` costs.
//!
//! What a command repeats is made once, in a [`Strings`] that outlives a
//! line (a stream keeps one):
//! - the keys, the names of levels and dungeons and other short strings:
//!   Python's strings are immutable, so sharing them is invisible;
//! - the short objects of an array, by their text: a layout's levels,
//!   dungeons and branches are mostly the same text from one seed to the
//!   next (a level's record and its place), and a copy of the dict made
//!   for that text the first time is a few machine words to copy where
//!   parsing is dozens of Python calls. Each answer gets its own dicts and
//!   lists (a nested one is copied too); what they hold is immutable.
//!
//! The reader is this file's own: one pass over the text that finds a flat
//! object's end and looks it up before parsing it (serde_json would scan
//! the element twice, once for its raw text and once to parse it). It
//! reads what `json.loads` reads, values equal: numbers as Python does
//! (integers of any size, floats correctly rounded), every escape, a lone
//! surrogate refused (the commands never write one).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Strings shorter than this are kept for reuse.
const SHORT: usize = 48;
/// At most this many strings are kept: a command's keys and names are a
/// few hundred; an xlogfile's player names would grow it without end.
const KEPT: usize = 16_384;
/// Objects of an array longer than this (in bytes of text) are parsed
/// each time: looking one up costs a scan of its text.
const SHORT_OBJECT: usize = 1024;
/// At most this many short objects are kept (a layout's few hundred
/// distinct level places of a game, many times over).
const KEPT_OBJECTS: usize = 65_536;

/// FxHash (rustc's): the texts hashed here are short and not an attacker's
/// choice of collisions worth defending against in one's own process.
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

/// A short object kept: a dict whose values are immutable but for the
/// flat dicts `nested` names, which a copy copies too (a branch's ends).
struct Kept {
    dict: Py<PyDict>,
    nested: Vec<(Py<PyString>, Py<PyDict>)>,
}

impl Kept {
    /// `d` to keep, when it is flat or holds only flat dicts.
    fn of(d: &Bound<'_, PyDict>) -> PyResult<Option<Kept>> {
        let mut nested = Vec::new();
        for (k, v) in d.iter() {
            if v.is_instance_of::<PyList>() {
                return Ok(None);
            }
            if let Ok(inner) = v.cast::<PyDict>() {
                let flat = inner
                    .values()
                    .iter()
                    .all(|x| !x.is_instance_of::<PyList>() && !x.is_instance_of::<PyDict>());
                let Ok(k) = k.cast_into::<PyString>() else {
                    return Ok(None);
                };
                if !flat {
                    return Ok(None);
                }
                nested.push((k.unbind(), inner.copy()?.unbind()));
            }
        }
        Ok(Some(Kept {
            dict: d.copy()?.unbind(),
            nested,
        }))
    }

    /// A copy that shares nothing mutable with the kept dict.
    fn fresh<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let copy = self.dict.bind(py).copy()?;
        for (k, inner) in &self.nested {
            copy.set_item(k.bind(py), inner.bind(py).copy()?)?;
        }
        Ok(copy)
    }
}

/// The Python strings and short objects made so far, by text.
#[derive(Default)]
pub struct Strings {
    kept: FxMap<Box<str>, Py<PyString>>,
    objects: FxMap<Box<[u8]>, Kept>,
}

impl Strings {
    fn get<'py>(&mut self, py: Python<'py>, s: &str) -> Bound<'py, PyString> {
        if s.len() >= SHORT {
            return PyString::new(py, s);
        }
        if let Some(p) = self.kept.get(s) {
            return p.bind(py).clone();
        }
        let p = PyString::new(py, s);
        if self.kept.len() < KEPT {
            self.kept.insert(s.into(), p.clone().unbind());
        }
        p
    }
}

/// Nesting deeper than this is refused (no command's JSON comes close).
const MAX_DEPTH: usize = 256;

/// The JSON values of `text`'s non-blank lines: values one after another,
/// each on its own line.
///
/// Python's cyclic garbage collector is paused meanwhile (unless the
/// program has it off): what is made here holds no cycle, and a
/// collection every few hundred of the thousands of containers a layout
/// or an xlogfile's rows make would cost a quarter of the time, walking
/// every list it has made so far. It runs again as soon as it is back on.
pub fn lines<'py>(
    py: Python<'py>,
    text: &[u8],
    strings: &mut Strings,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let gc = py.import(pyo3::intern!(py, "gc"))?;
    let was_on = gc
        .call_method0(pyo3::intern!(py, "isenabled"))?
        .is_truthy()?;
    if was_on {
        gc.call_method0(pyo3::intern!(py, "disable"))?;
    }
    let values = read_lines(py, text, strings);
    if was_on {
        gc.call_method0(pyo3::intern!(py, "enable"))?;
    }
    values
}

fn read_lines<'py>(
    py: Python<'py>,
    text: &[u8],
    strings: &mut Strings,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let mut values = Vec::new();
    let mut r = Reader {
        py,
        b: text,
        text: std::str::from_utf8(text).ok(),
        i: 0,
        depth: 0,
        strings,
    };
    loop {
        r.ws();
        if r.i == text.len() {
            return Ok(values);
        }
        let v = r.value().and_then(|v| {
            // The rest of the line is blank.
            while let Some(&c) = r.b.get(r.i) {
                match c {
                    b'\n' => break,
                    b' ' | b'\t' | b'\r' => r.i += 1,
                    _ => return r.fault("text after the value"),
                }
            }
            Ok(v)
        });
        match v {
            Ok(v) => values.push(v),
            Err(e) => {
                // Lines and columns are counted only for the message.
                let before = &text[..e.at.min(text.len())];
                let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
                let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
                return Err(PyValueError::new_err(format!(
                    "dgnkit: line {line}, column {column}: {}",
                    e.what
                )));
            }
        }
    }
}

/// What is wrong where.
struct Fault {
    at: usize,
    what: String,
}

struct Reader<'t, 's, 'py> {
    py: Python<'py>,
    b: &'t [u8],
    /// `b` as text when it is UTF-8 throughout (the commands' output
    /// always is): a string between two quotes is then a slice of it,
    /// with nothing to check.
    text: Option<&'t str>,
    i: usize,
    depth: usize,
    strings: &'s mut Strings,
}

type Read<'py, T = Bound<'py, PyAny>> = Result<T, Fault>;

impl<'py> Reader<'_, '_, 'py> {
    fn fault<T>(&self, what: impl Into<String>) -> Read<'py, T> {
        Err(Fault {
            at: self.i,
            what: what.into(),
        })
    }

    fn python<T>(&self, r: PyResult<T>) -> Read<'py, T> {
        r.or_else(|e| self.fault(e.to_string()))
    }

    fn ws(&mut self) {
        while matches!(self.b.get(self.i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.i += 1;
        }
    }

    fn value(&mut self) -> Read<'py> {
        self.ws();
        match self.b.get(self.i) {
            Some(b'{') => self.nested(Self::object),
            Some(b'[') => self.nested(Self::array),
            Some(b'"') => Ok(self.string()?.into_any()),
            Some(b't') => self.word("true", PyBool::new(self.py, true).to_owned().into_any()),
            Some(b'f') => self.word("false", PyBool::new(self.py, false).to_owned().into_any()),
            Some(b'n') => self.word("null", self.py.None().into_bound(self.py)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => self.fault("expected a JSON value"),
            None => self.fault("the text ends before its value"),
        }
    }

    fn nested(&mut self, read: fn(&mut Self) -> Read<'py>) -> Read<'py> {
        if self.depth == MAX_DEPTH {
            return self.fault("nested too deeply");
        }
        self.depth += 1;
        let v = read(self);
        self.depth -= 1;
        v
    }

    fn word(&mut self, w: &str, v: Bound<'py, PyAny>) -> Read<'py> {
        if self.b[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(v)
        } else {
            self.fault("expected a JSON value")
        }
    }

    fn expect(&mut self, c: u8) -> Read<'py, ()> {
        self.ws();
        if self.b.get(self.i) == Some(&c) {
            self.i += 1;
            Ok(())
        } else {
            self.fault(format!("expected `{}`", c as char))
        }
    }

    /// After a value of an array or object: `true` at its `close`.
    fn next_or_close(&mut self, close: u8) -> Read<'py, bool> {
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

    fn array(&mut self) -> Read<'py> {
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.b.get(self.i) == Some(&b']') {
            self.i += 1;
        } else {
            loop {
                self.ws();
                let v = if self.b.get(self.i) == Some(&b'{') {
                    self.element()?
                } else {
                    self.value()?
                };
                items.push(v);
                if self.next_or_close(b']')? {
                    break;
                }
            }
        }
        let list = PyList::new(self.py, items);
        Ok(self.python(list)?.into_any())
    }

    /// An array's object: a short one seen before is a copy of the dict
    /// made then.
    fn element(&mut self) -> Read<'py> {
        let start = self.i;
        let Some(end) = short_end(self.b, start) else {
            return self.nested(Self::object);
        };
        let text = &self.b[start..end];
        if let Some(kept) = self.strings.objects.get(text) {
            let copy = kept.fresh(self.py);
            self.i = end;
            return Ok(self.python(copy)?.into_any());
        }
        let v = self.nested(Self::object)?;
        if self.strings.objects.len() < KEPT_OBJECTS {
            if let Ok(d) = v.cast::<PyDict>() {
                // What is kept is a copy: the caller may change its own.
                if let Some(kept) = self.python(Kept::of(d))? {
                    self.strings.objects.insert(text.into(), kept);
                }
            }
        }
        Ok(v)
    }

    fn object(&mut self) -> Read<'py> {
        self.i += 1;
        let dict = PyDict::new(self.py);
        self.ws();
        if self.b.get(self.i) == Some(&b'}') {
            self.i += 1;
            return Ok(dict.into_any());
        }
        loop {
            self.ws();
            if self.b.get(self.i) != Some(&b'"') {
                return self.fault("expected a key (a string)");
            }
            let k = self.string()?;
            self.expect(b':')?;
            let v = self.value()?;
            let set = dict.set_item(k, v);
            self.python(set)?;
            if self.next_or_close(b'}')? {
                return Ok(dict.into_any());
            }
        }
    }

    fn string(&mut self) -> Read<'py, Bound<'py, PyString>> {
        let start = self.i + 1;
        let mut j = start;
        loop {
            match self.b.get(j) {
                Some(b'"') => break,
                Some(b'\\') => return self.escaped(start),
                Some(_) => j += 1,
                None => return self.fault("a string that does not end"),
            }
        }
        let s = match self.text {
            Some(t) => &t[start..j],
            None => match std::str::from_utf8(&self.b[start..j]) {
                Ok(s) => s,
                Err(_) => return self.fault("a string that is not UTF-8"),
            },
        };
        self.i = j + 1;
        Ok(self.strings.get(self.py, s))
    }

    /// A string with escapes, from its first byte at `start`.
    fn escaped(&mut self, start: usize) -> Read<'py, Bound<'py, PyString>> {
        let mut out = Vec::new();
        let mut j = start;
        loop {
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
                Some(&c) => {
                    out.push(c);
                    j += 1;
                }
                None => return self.fault("a string that does not end"),
            }
        }
        let Ok(s) = String::from_utf8(out) else {
            return self.fault("a string that is not UTF-8");
        };
        self.i = j + 1;
        Ok(self.strings.get(self.py, &s))
    }

    /// `\uXXXX` at `j` (a surrogate pair is two): the character and the
    /// escape's length.
    fn unicode(&mut self, j: usize) -> Read<'py, (char, usize)> {
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

    fn number(&mut self) -> Read<'py> {
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
        // ASCII by construction.
        let text = std::str::from_utf8(&self.b[start..self.i]).unwrap_or_default();
        if !valid_number(text.as_bytes()) {
            self.i = start;
            return self.fault("a malformed number");
        }
        if float {
            return match text.parse::<f64>() {
                Ok(f) => Ok(PyFloat::new(self.py, f).into_any()),
                Err(_) => self.fault("a malformed number"),
            };
        }
        if let Ok(n) = text.parse::<i64>() {
            let Ok(n) = n.into_pyobject(self.py);
            return Ok(n.into_any());
        }
        // Beyond 64 bits: Python's own int().
        let big = self.py.get_type::<PyInt>().call1((text,));
        self.python(big)
    }
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
/// within [`SHORT_OBJECT`] bytes. Strings are skipped whole, so a brace
/// inside one is text.
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
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
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
