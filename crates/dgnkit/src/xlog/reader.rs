//! Reading an xlogfile as a stream of lines and a line as `key=value`
//! fields, without copying and in bounded memory whatever the file's size.
//!
//! NetHack 3.6 and later separate fields with a tab (3.6.7 src/topten.c:346);
//! the 3.4.3 servers' patch used a colon. A line is read with the separator
//! it contains: a tab anywhere makes it a tab line, else colons. Fields may
//! come in any order and unknown ones are kept (reachable by name).

use std::io::{self, Read};

/// The longest line read; a longer one is reported and skipped. Real lines
/// are well under 2 KiB.
pub const MAX_LINE: usize = 64 * 1024;

const CHUNK: usize = 1 << 20;

/// One line of the file, without its line ending.
#[derive(Clone, Copy, Debug)]
pub struct RawLine<'a> {
    /// 1-based.
    pub number: u64,
    pub bytes: &'a [u8],
}

/// What the stream yields.
#[derive(Debug)]
pub enum Item<'a> {
    Line(RawLine<'a>),
    /// A line longer than [`MAX_LINE`] (skipped up to its end).
    TooLong {
        number: u64,
    },
}

/// Lines of a reader, read in large chunks.
pub struct LineStream<R> {
    inner: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    number: u64,
    /// Skipping the rest of an over-long line.
    skipping: bool,
}

impl<R: Read> LineStream<R> {
    pub fn new(inner: R) -> Self {
        LineStream {
            inner,
            buf: vec![0; CHUNK + MAX_LINE],
            start: 0,
            end: 0,
            eof: false,
            number: 0,
            skipping: false,
        }
    }

    /// Lines read so far.
    pub fn lines(&self) -> u64 {
        self.number
    }

    fn fill(&mut self) -> io::Result<()> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        while self.end < self.buf.len() {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => {
                    self.end += n;
                    // Enough for many lines; do not wait for more.
                    if self.end >= CHUNK {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The next line, `None` at the end.
    pub fn next_item(&mut self) -> io::Result<Option<Item<'_>>> {
        loop {
            let avail = &self.buf[self.start..self.end];
            if let Some(nl) = memchr::memchr(b'\n', avail) {
                let (s, e) = (self.start, self.start + nl);
                self.start = e + 1;
                if self.skipping {
                    self.skipping = false;
                    continue;
                }
                self.number += 1;
                let mut bytes = &self.buf[s..e];
                if let [rest @ .., b'\r'] = bytes {
                    bytes = rest;
                }
                if bytes.len() > MAX_LINE {
                    return Ok(Some(Item::TooLong {
                        number: self.number,
                    }));
                }
                return Ok(Some(Item::Line(RawLine {
                    number: self.number,
                    bytes,
                })));
            }
            if self.eof {
                if self.start == self.end {
                    return Ok(None);
                }
                // A last line without its newline.
                let (s, e) = (self.start, self.end);
                self.start = self.end;
                if self.skipping {
                    self.skipping = false;
                    return Ok(None);
                }
                self.number += 1;
                return Ok(Some(Item::Line(RawLine {
                    number: self.number,
                    bytes: &self.buf[s..e],
                })));
            }
            if self.end - self.start > MAX_LINE {
                // Over-long: drop what we have and skip to its newline.
                let report = !self.skipping;
                self.start = self.end;
                if report {
                    self.skipping = true;
                    self.number += 1;
                    return Ok(Some(Item::TooLong {
                        number: self.number,
                    }));
                }
            }
            self.fill()?;
        }
    }
}

/// The field separator of a line: a tab if it has one, else a colon.
pub fn separator(line: &[u8]) -> u8 {
    if memchr::memchr(b'\t', line).is_some() {
        b'\t'
    } else {
        b':'
    }
}

/// The `key=value` fields of a line; a piece without `=` has an empty key
/// and the whole piece as value.
pub fn fields(line: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    let sep = separator(line);
    line.split(move |&b| b == sep)
        .filter(|f| !f.is_empty())
        .map(|f| match f.iter().position(|&b| b == b'=') {
            Some(i) => (&f[..i], &f[i + 1..]),
            None => (&f[..0], f),
        })
}

/// A line's fields found in one pass, eight bytes at a time: the hot path
/// of `dgn xlog`, where a line is some 300 bytes in 26 short fields. The
/// same fields as [`fields`], kept as spans so that reading the line and
/// writing its JSON split it once.
#[derive(Clone, Debug, Default)]
pub struct Split {
    spans: Vec<Span>,
    sep: u8,
    plain: bool,
    keyed: bool,
    /// The line and [`PAD`] plain bytes: blocks of sixteen are read from
    /// any offset in the line without a shorter last one.
    padded: Vec<u8>,
}

/// A line's keys in order, and its separator: the lines of one file
/// nearly all have the same, so what a reader makes of a line's keys is
/// made once and kept beside them ([`Split::has_keys`]). Keys of up to
/// fifteen bytes, each one number: comparing a line's keys is then a
/// compare a field.
#[derive(Clone, Debug, Default)]
pub struct Keys {
    /// 0 while it holds no line's keys (no line has it as separator).
    sep: u8,
    words: Vec<u128>,
}

/// How many bytes [`Split::padded`] has after the line.
pub const PAD: usize = 16;

/// A field's place in its line.
#[derive(Clone, Copy, Debug)]
pub struct Span {
    pub(crate) start: usize,
    /// Its first `=`, or `start` less one (wrapping) when it has none.
    eq: usize,
    pub(crate) end: usize,
}

impl Span {
    /// The key (empty when the field has no `=`).
    #[inline]
    pub fn key<'a>(&self, line: &'a [u8]) -> &'a [u8] {
        line.get(self.start..self.eq).unwrap_or_default()
    }

    #[inline]
    pub fn value<'a>(&self, line: &'a [u8]) -> &'a [u8] {
        line.get(self.eq.wrapping_add(1)..self.end)
            .unwrap_or_default()
    }

    /// Where the key and the value are: `(start, end)` each.
    pub(crate) fn parts(&self) -> ((usize, usize), (usize, usize)) {
        ((self.start, self.eq), (self.eq.wrapping_add(1), self.end))
    }
}

impl Split {
    /// Splits `line` (with its [`separator`]), replacing what was there.
    pub fn fill(&mut self, line: &[u8]) {
        let sep = separator(line);
        self.sep = sep;
        self.spans.clear();
        self.padded.clear();
        self.padded.extend_from_slice(line);
        self.padded.extend_from_slice(&[b'a'; PAD]);
        let mut start = 0;
        let mut eq = usize::MAX;
        let mut bad = 0;
        let mut keyed = true;
        let mut base = 0;
        while base < line.len() {
            // Two blocks at once: a line's 300 bytes are ten words of
            // stops rather than twenty, and each word's loop ends once.
            let (lo, hi) = (
                Masks::of(&block(&self.padded, base), sep),
                Masks::of(&block(&self.padded, base + 16), sep),
            );
            let m = Masks {
                seps: lo.seps | hi.seps << 16,
                stops: lo.stops | hi.stops << 16,
                bad: lo.bad | hi.bad << 16,
            };
            bad |= m.bad;
            let mut stops = m.stops;
            while stops != 0 {
                let bit = stops & stops.wrapping_neg();
                let i = base + stops.trailing_zeros() as usize;
                if m.seps & bit != 0 {
                    if i > start {
                        keyed &= eq != usize::MAX;
                        self.push(start, eq, i);
                    }
                    start = i + 1;
                    eq = usize::MAX;
                } else if eq == usize::MAX {
                    eq = i;
                }
                stops &= stops - 1;
            }
            base += 32;
        }
        if line.len() > start {
            keyed &= eq != usize::MAX;
            self.push(start, eq, line.len());
        }
        self.plain = bad == 0;
        self.keyed = keyed;
    }

    #[inline]
    fn push(&mut self, start: usize, eq: usize, end: usize) {
        let eq = if eq == usize::MAX {
            start.wrapping_sub(1)
        } else {
            eq
        };
        self.spans.push(Span { start, eq, end });
    }

    pub fn spans(&self) -> &[Span] {
        &self.spans
    }

    /// The line's [`separator`].
    pub fn separator(&self) -> u8 {
        self.sep
    }

    /// A key as one number: its bytes (zero past its end) and its length
    /// in the top byte, or `None` when it is longer than fifteen bytes.
    #[inline]
    fn key_word(&self, s: &Span) -> Option<u128> {
        let n = s.eq.wrapping_sub(s.start);
        // A field without `=` has an empty key.
        let n = if n > self.padded.len() { 0 } else { n };
        if n > 15 {
            return None;
        }
        let block: [u8; 16] = self.padded.get(s.start..s.start + 16)?.try_into().ok()?;
        let bytes = u128::from_le_bytes(block) & ((1u128 << (8 * n)) - 1);
        Some(bytes | (n as u128) << 120)
    }

    /// Whether this line's keys and separator are the ones `keys` holds.
    pub fn has_keys(&self, keys: &Keys) -> bool {
        keys.sep == self.sep
            && keys.words.len() == self.spans.len()
            && self
                .spans
                .iter()
                .zip(&keys.words)
                .all(|(s, &w)| self.key_word(s) == Some(w))
    }

    /// Makes `keys` this line's keys and separator, or none (matching no
    /// line) when a key is longer than fifteen bytes.
    pub fn keys_into(&self, keys: &mut Keys) {
        keys.words.clear();
        keys.words
            .extend(self.spans.iter().map_while(|s| self.key_word(s)));
        keys.sep = self.sep;
        if keys.words.len() < self.spans.len() {
            keys.sep = 0;
            keys.words.clear();
        }
    }

    /// Every byte of the line is printable ASCII other than `"` and `\\`,
    /// or the separator: keys and values go into JSON as they are.
    pub fn plain(&self) -> bool {
        self.plain
    }

    /// Every field has a `=`.
    pub fn keyed(&self) -> bool {
        self.keyed
    }

    /// The line split, then [`PAD`] plain bytes.
    pub fn padded(&self) -> &[u8] {
        &self.padded
    }

    /// The line split.
    pub fn line(&self) -> &[u8] {
        &self.padded[..self.padded.len().saturating_sub(PAD)]
    }
}

/// The sixteen bytes of a padded line from `base` (before the line's end).
#[inline]
fn block(padded: &[u8], base: usize) -> [u8; 16] {
    let mut b = [b'a'; 16];
    if let Some(bytes) = padded.get(base..base + 16) {
        b.copy_from_slice(bytes);
    }
    b
}

/// Per byte of a block (bit `i` for byte `i`): where the separators are,
/// where a field's reading stops (a separator or `=`), and the bytes that
/// are not plain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Masks {
    seps: u32,
    stops: u32,
    bad: u32,
}

impl Masks {
    /// With SSE2, which every x86_64 processor has: a block in a dozen
    /// instructions, where eight bytes at a time in a `u64`
    /// ([`Masks::portable`]) take some forty a word and made splitting a
    /// quarter of `dgn xlog --format json`.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn of(block: &[u8; 16], sep: u8) -> Masks {
        use std::arch::x86_64::{
            _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
            _mm_set1_epi8,
        };
        // SAFETY: SSE2 is in the x86_64 baseline (every x86_64 target
        // enables it), and the load reads the sixteen bytes of `block`.
        #[allow(unsafe_code)]
        unsafe {
            let v = _mm_loadu_si128(block.as_ptr().cast());
            let eq = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
            let seps = _mm_movemask_epi8(eq(sep)) as u32;
            let equals = _mm_movemask_epi8(eq(b'=')) as u32;
            // Signed: below 0x20, or 0x80 and above.
            let odd = _mm_or_si128(
                _mm_or_si128(eq(b'"'), eq(b'\\')),
                _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
            );
            let bad = _mm_movemask_epi8(odd) as u32;
            Masks {
                seps,
                stops: seps | equals,
                bad: bad & !seps,
            }
        }
    }

    #[cfg(not(target_arch = "x86_64"))]
    #[inline]
    fn of(block: &[u8; 16], sep: u8) -> Masks {
        Masks::portable(block, sep)
    }

    /// Eight bytes at a time in a `u64`, without a processor's vectors.
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    fn portable(block: &[u8; 16], sep: u8) -> Masks {
        let mut m = Masks {
            seps: 0,
            stops: 0,
            bad: 0,
        };
        for (half, bytes) in block.chunks_exact(8).enumerate() {
            let mut w = [0; 8];
            w.copy_from_slice(bytes);
            let x = u64::from_le_bytes(w);
            let seps = bytes_equal(x, sep);
            let stops = seps | bytes_equal(x, b'=');
            let bad =
                (bytes_equal(x, b'"') | bytes_equal(x, b'\\') | bytes_below(x, 0x20) | (x & HI))
                    & !seps;
            let shift = 8 * half;
            m.seps |= gather(seps) << shift;
            m.stops |= gather(stops) << shift;
            m.bad |= gather(bad) << shift;
        }
        m
    }
}

/// The high bits of a word's bytes as eight bits, byte `i`'s as bit `i`.
fn gather(m: u64) -> u32 {
    let mut bits = 0;
    for i in 0..8 {
        bits |= (((m >> (8 * i + 7)) & 1) as u32) << i;
    }
    bits
}

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` that equals `b`, exactly (no borrow
/// crosses a byte: the low seven bits plus 0x7f stay below 0x100).
#[inline]
fn bytes_equal(x: u64, b: u8) -> u64 {
    let y = x ^ (LO * u64::from(b));
    !(((y & !HI) + !HI) | y) & HI
}

/// The high bit of each byte of `x` below `n` (`n` at most 0x80).
#[inline]
fn bytes_below(x: u64, n: u8) -> u64 {
    !(((x & !HI) + LO * u64::from(0x80 - n)) | x) & HI
}

/// The value of field `key`, the first if it occurs more than once.
pub fn field<'a>(line: &'a [u8], key: &[u8]) -> Option<&'a [u8]> {
    fields(line).find(|(k, _)| *k == key).map(|(_, v)| v)
}

/// A decimal integer (optionally signed), or `0x` hexadecimal; `None`
/// beyond `i64` (a flags field of seventeen hex digits once overflowed
/// here: a panic in a debug build, a wrong value in a release).
pub fn parse_int(v: &[u8]) -> Option<i64> {
    let (neg, digits) = match v {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, v),
    };
    let (radix, digits) = match digits {
        [b'0', b'x' | b'X', rest @ ..] => (16, rest),
        _ => (10, digits),
    };
    if digits.is_empty() {
        return None;
    }
    let mut n: i64 = 0;
    for &b in digits {
        let d = (b as char).to_digit(radix)?;
        n = n.checked_mul(i64::from(radix))?.checked_add(i64::from(d))?;
    }
    Some(if neg { -n } else { n })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(data: &[u8]) -> Vec<(u64, Option<Vec<u8>>)> {
        let mut s = LineStream::new(data);
        let mut out = Vec::new();
        while let Some(item) = s.next_item().unwrap() {
            out.push(match item {
                Item::Line(l) => (l.number, Some(l.bytes.to_vec())),
                Item::TooLong { number } => (number, None),
            });
        }
        out
    }

    #[test]
    fn lines_with_and_without_final_newline_and_crlf() {
        let got = collect(b"a=1\r\nb=2\n\nc=3");
        assert_eq!(
            got,
            vec![
                (1, Some(b"a=1".to_vec())),
                (2, Some(b"b=2".to_vec())),
                (3, Some(Vec::new())),
                (4, Some(b"c=3".to_vec())),
            ]
        );
    }

    #[test]
    fn over_long_line_is_reported_once_and_the_next_line_read() {
        let mut data = vec![b'x'; MAX_LINE * 3 + 5];
        data.extend_from_slice(b"\nversion=3.6.6\n");
        let got = collect(&data);
        assert_eq!(got, vec![(1, None), (2, Some(b"version=3.6.6".to_vec()))]);
    }

    #[test]
    fn lines_across_chunk_boundaries() {
        let line = b"version=3.6.6\tdeathlev=5\n";
        let n = CHUNK / line.len() * 3 + 7;
        let data: Vec<u8> = line.iter().copied().cycle().take(line.len() * n).collect();
        let got = collect(&data);
        assert_eq!(got.len(), n);
        assert!(got
            .iter()
            .all(|(_, l)| l.as_deref() == Some(&line[..line.len() - 1])));
    }

    #[test]
    fn fields_by_separator() {
        let tab = b"version=3.6.1\tdeath=killed by a jackal: ouch\tx";
        assert_eq!(field(tab, b"death"), Some(&b"killed by a jackal: ouch"[..]));
        assert_eq!(field(tab, b"x"), None);
        let colon = b"version=3.4.3:deathlev=4:name=a=b";
        assert_eq!(field(colon, b"deathlev"), Some(&b"4"[..]));
        assert_eq!(field(colon, b"name"), Some(&b"a=b"[..]));
    }

    /// [`Split::fill`]'s fields, plainness and keys against the
    /// byte-at-a-time reading, for `line`.
    fn assert_split_is_fields(split: &mut Split, line: &[u8]) {
        let sep = separator(line);
        split.fill(line);
        let got: Vec<_> = split
            .spans()
            .iter()
            .map(|s| (s.key(line), s.value(line)))
            .collect();
        let want: Vec<_> = fields(line).collect();
        assert_eq!(got, want, "{}", String::from_utf8_lossy(line));
        let want_plain = line
            .iter()
            .all(|&b| b == sep || ((0x20..0x80).contains(&b) && b != b'"' && b != b'\\'));
        assert_eq!(
            split.plain(),
            want_plain,
            "{}",
            String::from_utf8_lossy(line)
        );
        let want_keyed = line
            .split(|&b| b == sep)
            .all(|f| f.is_empty() || f.contains(&b'='));
        assert_eq!(
            split.keyed(),
            want_keyed,
            "{}",
            String::from_utf8_lossy(line)
        );
    }

    proptest::proptest! {
        /// Lines of any length, the bytes that stop a field most of them,
        /// so that separators and `=` fall on every place of a block and
        /// of the pair of blocks read at once.
        #[test]
        fn split_is_fields_on_any_line(
            line in proptest::collection::vec(
                proptest::prop_oneof![
                    4 => proptest::sample::select(b"=:\t".to_vec()),
                    4 => proptest::sample::select(b"ab1".to_vec()),
                    1 => proptest::prelude::any::<u8>(),
                ],
                0..200,
            )
        ) {
            assert_split_is_fields(&mut Split::default(), &line);
        }
    }

    #[test]
    fn split_is_fields() {
        let lines: [&[u8]; 10] = [
            b"version=3.6.1\tdeath=killed by a jackal: ouch\tx",
            b"version=3.4.3:deathlev=4:name=a=b",
            b"",
            b"=",
            b"\t\t=x\ty=\t\t",
            b"a=1:b=2::c=3:",
            b"k=\"q\"\tv=back\\slash\tc=\x01\tu=\xc3\xa9",
            b"key=value_longer_than_eight_bytes\tk2=v",
            b"12345678\t=2345678\tabcdefg=",
            b"a=1\tb=2",
        ];
        let mut split = Split::default();
        for line in lines {
            assert_split_is_fields(&mut split, line);
        }
    }

    #[test]
    fn masks_are_the_portable_ones() {
        for sep in [b'\t', b':'] {
            for b in 0..=255u8 {
                for pos in [0, 7, 8, 15] {
                    let mut block = *b"abc=def\tgh:ij=kl";
                    block[pos] = b;
                    let m = Masks::of(&block, sep);
                    assert_eq!(m, Masks::portable(&block, sep), "byte {b:#x} at {pos}");
                    let bit = 1u32 << pos;
                    assert_eq!(m.seps & bit != 0, b == sep);
                    assert_eq!(m.stops & bit != 0, b == sep || b == b'=');
                    let plain = (0x20..0x80).contains(&b) && b != b'"' && b != b'\\';
                    assert_eq!(m.bad & bit != 0, !plain && b != sep);
                }
            }
        }
    }

    #[test]
    fn byte_masks_are_exact() {
        for b in 0..=255u8 {
            for pos in 0..8 {
                let mut w = [b'a'; 8];
                w[pos] = b;
                let x = u64::from_le_bytes(w);
                let bit = 0x80u64 << (8 * pos);
                for probe in [b'\t', b':', b'=', b'"', 0, 0xff] {
                    assert_eq!(bytes_equal(x, probe) == bit, b == probe && probe != b'a');
                }
                assert_eq!(bytes_below(x, 0x20) == bit, b < 0x20);
            }
        }
    }

    #[test]
    fn integers() {
        assert_eq!(parse_int(b"-3"), Some(-3));
        assert_eq!(parse_int(b"0x1f"), Some(31));
        assert_eq!(parse_int(b"12a"), None);
        assert_eq!(parse_int(b""), None);
        assert_eq!(parse_int(b"99999999999999999999"), None);
        assert_eq!(parse_int(b"0x7fffffffffffffff"), Some(i64::MAX));
        assert_eq!(parse_int(b"0x8000000000000000"), None);
        assert_eq!(parse_int(b"0x1BBBBBBBBBBBBBBB0"), None);
    }
}
