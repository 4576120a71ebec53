//! The canonical form of a document: its tokens, without whole-line
//! comments, with every run of whitespace reduced to what can change how the
//! file lexes (whether there is a line break, and whether a line starts with
//! blank space). Two texts that differ only in whole-line comments and
//! spacing have the same canonical form, so the analysis is keyed on it and is
//! not rerun for such edits. Trailing `# ...` comments stay: the checks warn
//! about them and their fixes carry their text.
//!
//! The analysis then speaks canonical offsets; [`CanonMap`] carries them back
//! to the real text (and real offsets to canonical ones for look-ups). Every
//! token is copied byte for byte, so offsets inside tokens map exactly; the
//! only other canonical offsets are the ends of gaps and the point after a
//! gap's line break, which map to the same places in the real gap.

use dgnkit_grammar::lexer::{Token, TokenKind};
use dgnkit_grammar::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
enum SegKind {
    Token,
    /// Whitespace and whole-line comments between tokens. Every canonical
    /// offset in the gap is an anchor `(offset from canon_start, real offset)`.
    Gap {
        anchors: Vec<(u32, u32)>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Seg {
    kind: SegKind,
    canon_start: u32,
    canon_len: u32,
    real_start: u32,
    real_len: u32,
}

/// Offset maps between a text and its canonical form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CanonMap {
    /// Alternating gap, token, gap, ..., gap; in order in both texts.
    segs: Vec<Seg>,
}

/// Builds the canonical text of `src` from its tokens (as [`lex`] gives them).
///
/// [`lex`]: dgnkit_grammar::lexer::lex
pub fn canonicalize(src: &[u8], tokens: &[Token]) -> (Vec<u8>, CanonMap) {
    let mut text = Vec::with_capacity(src.len());
    let mut segs = Vec::with_capacity(tokens.len() * 2 + 1);
    let mut real_pos: u32 = 0;
    let mut first = true;
    for tok in tokens.iter().filter(|t| t.kind != TokenKind::Comment) {
        let start = tok.span.start.max(real_pos);
        let end = tok.span.end.max(start);
        let place = if first {
            GapPlace::Leading
        } else {
            GapPlace::Between
        };
        push_gap(src, &mut text, &mut segs, real_pos, start, place);
        first = false;
        let bytes = src.get(start as usize..end as usize).unwrap_or_default();
        segs.push(Seg {
            kind: SegKind::Token,
            canon_start: len_u32(&text),
            canon_len: len_u32(bytes),
            real_start: start,
            real_len: end - start,
        });
        text.extend_from_slice(bytes);
        real_pos = end;
    }
    let real_end = len_u32(src).max(real_pos);
    push_gap(
        src,
        &mut text,
        &mut segs,
        real_pos,
        real_end,
        if first {
            GapPlace::Leading
        } else {
            GapPlace::Trailing
        },
    );
    (text, CanonMap { segs })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum GapPlace {
    Leading,
    Between,
    Trailing,
}

/// Renders the gap `src[start..end]`. What is kept is what the lexer or the
/// checks can see: that tokens on a line are separate, the first line break
/// (and whether it is `\r\n`: fixes insert line ends of the file's kind),
/// whether more line breaks follow (a statement's own line ends at the first,
/// the next statement's line starts after the last), and blank space at the
/// start of the next token's line (as one space: its width and kind do not
/// matter).
fn push_gap(
    src: &[u8],
    text: &mut Vec<u8>,
    segs: &mut Vec<Seg>,
    start: u32,
    end: u32,
    place: GapPlace,
) {
    let gap = src.get(start as usize..end as usize).unwrap_or_default();
    let canon_start = len_u32(text);
    let mut out: Vec<u8> = Vec::new();
    let mut anchors = vec![(0, start)];
    let mut anchor = |out: &Vec<u8>, real: usize| anchors.push((len_u32(out), start + real as u32));
    let first_nl = gap.iter().position(|&b| b == b'\n');
    let last_nl = gap.iter().rposition(|&b| b == b'\n');
    match (first_nl, last_nl) {
        (Some(f), Some(l)) => {
            if place == GapPlace::Leading {
                out.push(b'\n');
                anchor(&out, l + 1);
            } else {
                if f > 0 && gap[f - 1] == b'\r' {
                    out.push(b'\r');
                    anchor(&out, f);
                }
                out.push(b'\n');
                anchor(&out, f + 1);
                let rest = &gap[l + 1..];
                let more = l > f || (place == GapPlace::Trailing && !rest.is_empty());
                if more {
                    out.push(b'\n');
                    anchor(&out, l + 1);
                }
            }
            let rest = &gap[l + 1..];
            if !rest.is_empty() {
                out.push(b' ');
                anchor(&out, gap.len());
            }
        }
        // Within a line: one blank, even between adjacent tokens (`(5,2)`
        // and `( 5 , 2 )` lex alike; a token's extent never depends on what
        // follows it beyond its last byte). Blank space before the first
        // token decides whether a `%` or `#` there starts its line.
        _ if place == GapPlace::Between => {
            out.push(b' ');
            anchor(&out, gap.len());
        }
        _ => {
            if !gap.is_empty() {
                out.push(b' ');
                anchor(&out, gap.len());
            }
        }
    }
    text.extend_from_slice(&out);
    segs.push(Seg {
        kind: SegKind::Gap { anchors },
        canon_start,
        canon_len: len_u32(&out),
        real_start: start,
        real_len: end - start,
    });
}

fn len_u32(b: &[u8]) -> u32 {
    u32::try_from(b.len()).unwrap_or(u32::MAX)
}

impl CanonMap {
    /// The map of a text that is its own canonical form (a `dungeon.lua`:
    /// the Lua reader has no comment-free form to share results with).
    pub fn identity(src: &[u8]) -> CanonMap {
        let whole = Token {
            kind: TokenKind::Word,
            span: Span::new(0, len_u32(src)),
        };
        let tokens: &[Token] = if src.is_empty() {
            &[]
        } else {
            std::slice::from_ref(&whole)
        };
        canonicalize(src, tokens).1
    }

    /// The real offset of a canonical offset.
    pub fn to_real(&self, canon: u32) -> u32 {
        // The last segment starting at or before `canon`; for an offset on a
        // boundary either neighbour gives the same real point.
        let i = self
            .segs
            .partition_point(|s| s.canon_start <= canon)
            .saturating_sub(1);
        let Some(seg) = self.segs.get(i) else {
            return canon;
        };
        let k = canon - seg.canon_start.min(canon);
        match &seg.kind {
            SegKind::Token => seg.real_start + k.min(seg.real_len),
            SegKind::Gap { anchors } => {
                let j = anchors
                    .partition_point(|(ck, _)| *ck <= k)
                    .saturating_sub(1);
                anchors.get(j).map_or(seg.real_start, |(_, real)| *real)
            }
        }
    }

    pub fn span_to_real(&self, span: Span) -> Span {
        let start = self.to_real(span.start);
        let end = self.to_real(span.end.max(span.start));
        Span::new(start, end.max(start))
    }

    /// The canonical offset of a real offset inside or at the edge of a
    /// token, or at a place in a gap that the canonical text keeps; `None`
    /// inside comments and blank space. Where two tokens touch, the offset
    /// is the start of the second one.
    pub fn to_canon(&self, real: u32) -> Option<u32> {
        self.to_canon_biased(real, true)
    }

    fn to_canon_biased(&self, real: u32, prefer_start: bool) -> Option<u32> {
        let i = self
            .segs
            .partition_point(|s| s.real_start <= real)
            .saturating_sub(1);
        let window = || {
            self.segs
                .get(i.saturating_sub(3)..(i + 2).min(self.segs.len()))
                .unwrap_or_default()
                .iter()
        };
        let tokens = || window().filter(|s| s.kind == SegKind::Token);
        let inside = tokens().find(|s| s.real_start < real && real < s.real_start + s.real_len);
        let starting = || tokens().find(|s| s.real_start == real);
        let ending = || tokens().find(|s| s.real_start + s.real_len == real);
        let token = inside.or_else(|| {
            if prefer_start {
                starting().or_else(ending)
            } else {
                ending().or_else(starting)
            }
        });
        if let Some(seg) = token {
            return Some(seg.canon_start + (real - seg.real_start).min(seg.canon_len));
        }
        window().find_map(|seg| match &seg.kind {
            SegKind::Gap { anchors } => anchors
                .iter()
                .find(|(_, r)| *r == real)
                .map(|(k, _)| seg.canon_start + k),
            SegKind::Token => None,
        })
    }

    pub fn span_to_canon(&self, span: Span) -> Option<Span> {
        let start = self.to_canon_biased(span.start, true)?;
        let end = self.to_canon_biased(span.end, span.end == span.start)?;
        Some(Span::new(start, end.max(start)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgnkit_grammar::lexer::lex;

    fn canon(src: &str) -> String {
        let (text, _) = canonicalize(src.as_bytes(), &lex(src.as_bytes()));
        String::from_utf8(text).unwrap()
    }

    #[test]
    fn comments_and_spacing_do_not_matter() {
        let a =
            "# header\nDUNGEON: \"A\" \"a\" (5, 2)\n\nLEVEL:\t\"x\" \"x\" @ (1, 0)  # trailing\n";
        let b = "# other\n# header\n DUNGEON:    \"A\" \"a\" (5,  2)\n# another\n# comment\nLEVEL: \"x\" \"x\" @ (1, 0) # trailing\n";
        assert_eq!(canon(a).replace("\n ", "\n"), canon(b).replace("\n ", "\n"));
        assert_eq!(
            canon(a),
            "\nDUNGEON : \"A\" \"a\" ( 5 , 2 )\n\nLEVEL : \"x\" \"x\" @ ( 1 , 0 ) # trailing\n"
        );
        let c = "# header, edited\nDUNGEON: \"A\"   \"a\"\t(5,2)\n# now a comment\nLEVEL: \"x\" \"x\" @ (1,\t0)    # trailing\n";
        assert_eq!(canon(a), canon(c));
        // A trailing comment's text is part of what the checks see.
        assert_ne!(canon(a), canon(&a.replace("# trailing", "# other")));
    }

    #[test]
    fn what_changes_lexing_is_kept() {
        // Line breaks and a blank line start matter; adjacency does not.
        assert_eq!(canon("LEVEL: (1,0)"), canon("LEVEL : ( 1 , 0 )"));
        assert_ne!(canon("a\nb"), canon("a b"));
        assert_ne!(
            canon("%REINCARNATION LEVEL:"),
            canon(" %REINCARNATION LEVEL:")
        );
        assert_eq!(canon("x\n  %F y"), canon("x\n\t%F   y"));
        assert_ne!(canon("x\n  %F y"), canon("x\n%F y"));
        // The kind of line end is kept: fixes insert line ends of that kind.
        assert_eq!(canon("a\r\nb"), "a\r\nb");
        assert_ne!(canon("a\r\nb"), canon("a\nb"));
    }

    #[test]
    fn canonical_text_lexes_to_the_same_tokens() {
        let src = "  # c\n%REINCARNATION LEVEL: \"a\" \"b\" @ (1,0) # t\n \t 5-3 ; \"open\r\nX\r\n\"é\" \u{1F600}\n";
        let real = lex(src.as_bytes());
        let (text, map) = canonicalize(src.as_bytes(), &real);
        let again = lex(&text);
        let real_sig: Vec<_> = real
            .iter()
            .filter(|t| t.kind != TokenKind::Comment)
            .collect();
        let again_sig: Vec<_> = again
            .iter()
            .filter(|t| t.kind != TokenKind::Comment)
            .collect();
        assert_eq!(real_sig.len(), again_sig.len());
        for (r, c) in real_sig.iter().zip(&again_sig) {
            assert_eq!(r.kind, c.kind);
            assert_eq!(&src.as_bytes()[r.span.range()], &text[c.span.range()]);
            assert_eq!(map.span_to_real(c.span), r.span);
            assert_eq!(map.span_to_canon(r.span), Some(c.span));
        }
    }

    #[test]
    fn offsets_in_gaps() {
        let src = "A\n# c\n   B";
        let (text, map) = canonicalize(src.as_bytes(), &lex(src.as_bytes()));
        assert_eq!(text, b"A\n\n B");
        let expect_real = [0, 1, 2, 6, 9, 10];
        for (c, r) in expect_real.iter().enumerate() {
            assert_eq!(map.to_real(c as u32), *r, "canonical {c}");
            assert_eq!(map.to_canon(*r), Some(c as u32), "real {r}");
        }
        for r in [3, 4, 5, 7, 8] {
            assert_eq!(map.to_canon(r), None, "real {r}");
        }
    }

    #[test]
    fn statement_line_ends_with_comment_lines_between() {
        // A fix deleting the first statement's whole line must stop at its
        // own line end, before the comment.
        let src = "X: a\r\n# c\r\nY: b  \r\n";
        let (text, map) = canonicalize(src.as_bytes(), &lex(src.as_bytes()));
        assert_eq!(text, b"X : a\r\n\nY : b\r\n");
        assert_eq!(map.to_real(7), 6); // after the first line end
        assert_eq!(map.to_real(8), 11); // start of Y's line
        assert_eq!(map.to_real(text.len() as u32), src.len() as u32);
    }

    #[test]
    fn empty_and_comment_only() {
        assert_eq!(canon(""), "");
        assert_eq!(canon("# only\n\n"), "\n");
        let (_, map) = canonicalize(b"# x", &lex(b"# x"));
        assert_eq!(map.to_real(0), 0);
        assert_eq!(map.to_canon(1), None);
    }
}
