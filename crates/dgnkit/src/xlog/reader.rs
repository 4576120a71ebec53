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
            if let Some(nl) = avail.iter().position(|&b| b == b'\n') {
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
    if line.contains(&b'\t') {
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

/// The value of field `key`, the first if it occurs more than once.
pub fn field<'a>(line: &'a [u8], key: &[u8]) -> Option<&'a [u8]> {
    fields(line).find(|(k, _)| *k == key).map(|(_, v)| v)
}

/// A decimal integer (optionally signed), or `0x` hexadecimal.
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
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut n: i64 = 0;
    for &b in digits {
        let d = (b as char).to_digit(radix)?;
        n = n * i64::from(radix) + i64::from(d);
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

    #[test]
    fn integers() {
        assert_eq!(parse_int(b"-3"), Some(-3));
        assert_eq!(parse_int(b"0x1f"), Some(31));
        assert_eq!(parse_int(b"12a"), None);
        assert_eq!(parse_int(b""), None);
        assert_eq!(parse_int(b"99999999999999999999"), None);
    }
}
