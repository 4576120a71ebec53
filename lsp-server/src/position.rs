//! Byte offsets <-> LSP positions. The library speaks byte offsets only; the
//! editor speaks lines and UTF-16 code units of the text it shows. For a file
//! that is not UTF-8 the editor shows the lossy decoding (one U+FFFD per
//! maximal invalid sequence, as `String::from_utf8_lossy` and the WHATWG
//! decoder both do), so columns are counted over that decoding while offsets
//! stay those of the real bytes.

use dgnkit_grammar::Span;
use tower_lsp_server::ls_types::{Position, Range};

/// Start offsets of every line. LSP counts `\n`, `\r\n` and a lone `\r` as
/// line ends, so we do too, even where the language itself rejects a lone `\r`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    len: u32,
}

impl LineIndex {
    pub fn new(text: &[u8]) -> Self {
        let mut line_starts = vec![0];
        let mut i = 0;
        while i < text.len() {
            match text[i] {
                b'\n' => line_starts.push(offset_u32(i + 1)),
                b'\r' => {
                    if text.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    line_starts.push(offset_u32(i + 1));
                }
                _ => {}
            }
            i += 1;
        }
        LineIndex {
            line_starts,
            len: offset_u32(text.len()),
        }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Byte range of line `line` without its terminator.
    pub fn line_content(&self, text: &[u8], line: usize) -> (u32, u32) {
        let len = self.len.min(offset_u32(text.len()));
        let start = self.line_starts.get(line).copied().unwrap_or(len).min(len);
        let Some(&next) = self.line_starts.get(line + 1) else {
            return (start, len);
        };
        let mut end = next.min(len).max(start);
        if end > start && text.get(end as usize - 1) == Some(&b'\n') {
            end -= 1;
        }
        if end > start && text.get(end as usize - 1) == Some(&b'\r') {
            end -= 1;
        }
        (start, end)
    }

    /// The line holding `offset` (an offset at a line start belongs to that line).
    pub fn line_of(&self, offset: u32) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next.saturating_sub(1),
        }
    }

    /// The LSP position of a byte offset. An offset inside a multi-byte
    /// character or an invalid sequence maps to the start of it; one inside a
    /// line terminator maps to the end of the line.
    pub fn position(&self, text: &[u8], offset: u32) -> Position {
        let offset = offset.min(self.len).min(offset_u32(text.len()));
        let line = self.line_of(offset);
        let (start, end) = self.line_content(text, line);
        let upto = offset.min(end);
        let character =
            utf16_len_until(&text[start as usize..end as usize], (upto - start) as usize);
        Position {
            line: line as u32,
            character: character as u32,
        }
    }

    /// The byte offset of an LSP position. A character past the end of its line
    /// means the end of the line; a line past the end means the end of the text.
    pub fn offset(&self, text: &[u8], position: Position) -> u32 {
        let line = position.line as usize;
        if line >= self.line_starts.len() {
            return self.len.min(offset_u32(text.len()));
        }
        let (start, end) = self.line_content(text, line);
        let within = byte_len_for_utf16(
            &text[start as usize..end as usize],
            position.character as usize,
        );
        start + offset_u32(within)
    }

    pub fn range(&self, text: &[u8], span: Span) -> Range {
        let start = self.position(text, span.start);
        let end = self.position(text, span.end.max(span.start));
        Range { start, end }
    }

    /// The byte span of an LSP range; a reversed range is put in order.
    pub fn span(&self, text: &[u8], range: Range) -> Span {
        let a = self.offset(text, range.start);
        let b = self.offset(text, range.end);
        Span::new(a.min(b), a.max(b))
    }
}

fn offset_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// UTF-16 units of the lossy decoding of `line[..upto]`, where a character
/// that straddles `upto` does not count.
fn utf16_len_until(line: &[u8], upto: usize) -> usize {
    let mut units = 0;
    let mut pos = 0;
    for chunk in line.utf8_chunks() {
        for c in chunk.valid().chars() {
            let next = pos + c.len_utf8();
            if next > upto {
                return units;
            }
            units += c.len_utf16();
            pos = next;
        }
        let bad = chunk.invalid().len();
        if bad > 0 {
            if pos + bad > upto {
                return units;
            }
            units += 1;
            pos += bad;
        }
    }
    units
}

/// Bytes of `line` covered by its first `units` UTF-16 units (lossy decoding).
/// A position inside a surrogate pair maps to the start of the character.
fn byte_len_for_utf16(line: &[u8], units: usize) -> usize {
    let mut seen = 0;
    let mut pos = 0;
    for chunk in line.utf8_chunks() {
        for c in chunk.valid().chars() {
            let next = seen + c.len_utf16();
            if next > units {
                return pos;
            }
            seen = next;
            pos += c.len_utf8();
        }
        let bad = chunk.invalid().len();
        if bad > 0 {
            if seen + 1 > units {
                return pos;
            }
            seen += 1;
            pos += bad;
        }
    }
    pos
}

/// The text as the editor shows it.
pub fn lossy(text: &[u8]) -> String {
    String::from_utf8_lossy(text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn ascii_and_line_ends() {
        let text = b"ab\ncd\r\nef\rg";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_count(), 4);
        assert_eq!(idx.position(text, 0), pos(0, 0));
        assert_eq!(idx.position(text, 2), pos(0, 2));
        assert_eq!(idx.position(text, 3), pos(1, 0));
        assert_eq!(idx.position(text, 5), pos(1, 2));
        // Between `\r` and `\n`: still the end of line 1.
        assert_eq!(idx.position(text, 6), pos(1, 2));
        assert_eq!(idx.position(text, 7), pos(2, 0));
        assert_eq!(idx.position(text, 10), pos(3, 0));
        assert_eq!(idx.offset(text, pos(1, 1)), 4);
        assert_eq!(idx.offset(text, pos(1, 99)), 5);
        assert_eq!(idx.offset(text, pos(2, 2)), 9);
        assert_eq!(idx.offset(text, pos(3, 1)), 11);
        assert_eq!(idx.offset(text, pos(9, 0)), 11);
    }

    #[test]
    fn multibyte_and_surrogates() {
        // é is 2 bytes / 1 unit; 𝄞 is 4 bytes / 2 units.
        let text = "aé𝄞b\n".as_bytes();
        let idx = LineIndex::new(text);
        assert_eq!(idx.position(text, 1), pos(0, 1));
        assert_eq!(idx.position(text, 3), pos(0, 2));
        assert_eq!(idx.position(text, 7), pos(0, 4));
        assert_eq!(idx.position(text, 8), pos(0, 5));
        // Inside é: its start.
        assert_eq!(idx.position(text, 2), pos(0, 1));
        assert_eq!(idx.offset(text, pos(0, 2)), 3);
        assert_eq!(idx.offset(text, pos(0, 4)), 7);
        // Inside the surrogate pair: the start of the character.
        assert_eq!(idx.offset(text, pos(0, 3)), 3);
        assert_eq!(idx.offset(text, pos(0, 5)), 8);
    }

    #[test]
    fn invalid_utf8_counts_as_replacement_characters() {
        // 0x89 alone, then a truncated 3-byte sequence E3 81, then `x`.
        let text: &[u8] = b"\"\x89\xe3\x81x\"";
        let shown = lossy(text);
        assert_eq!(shown, "\"\u{FFFD}\u{FFFD}x\"");
        let idx = LineIndex::new(text);
        assert_eq!(idx.position(text, 1), pos(0, 1));
        assert_eq!(idx.position(text, 2), pos(0, 2));
        assert_eq!(idx.position(text, 4), pos(0, 3));
        assert_eq!(idx.position(text, 5), pos(0, 4));
        assert_eq!(idx.offset(text, pos(0, 3)), 4);
        assert_eq!(idx.offset(text, pos(0, 2)), 2);
        // Round trip at every character boundary of the editor's text.
        for units in 0..=5 {
            let off = idx.offset(text, pos(0, units));
            assert_eq!(idx.position(text, off), pos(0, units));
        }
    }

    #[test]
    fn round_trip_every_boundary() {
        let text = "x\r\né\u{1F600}\n\n\t\"ü\"\r".as_bytes();
        let idx = LineIndex::new(text);
        let shown = lossy(text);
        for (i, _) in shown.char_indices() {
            if i > 0 && &text[i - 1..=i] == b"\r\n" {
                // Inside a line end: maps to the end of the line.
                continue;
            }
            let p = idx.position(text, i as u32);
            assert_eq!(idx.offset(text, p), i as u32, "offset {i}");
        }
    }
}
