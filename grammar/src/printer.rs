//! Canonical text of a syntax tree: what `dgn fmt` writes for each statement.
//!
//! The style is NetHack's own: the keyword and its colon, tabs to the value
//! column (column 16 with 8-column tab stops, where every keyword fits), then
//! the operands separated by single spaces, ranges written `(base, rand)`:
//!
//! ```text
//! (<TAB> stands for a tab character)
//! DUNGEON:<TAB>"The Dungeons of Doom" "D" (25, 5)
//! LEVEL:<TAB><TAB>"oracle" "O" @ (5, 5)
//! RNDLEVEL:<TAB>"bigrm" "B" @ (10, 3) 40 10
//! CHAINBRANCH:<TAB>"Sokoban" "oracle" + (1, 0) up
//! ```
//!
//! Names are written byte for byte. [`print`] re-parses to the same tree
//! modulo spans; it has no source, so it prints statements only (comments
//! and `%FLAG` prefixes are the formatter's business) and skips
//! [`StmtKind::Error`] placeholders, which hold nothing to print.

use crate::ast::*;

/// Column where values start (a multiple of the tab width).
pub const VALUE_COLUMN: usize = 16;
const TAB_WIDTH: usize = 8;

/// The statements of `file`, one per line, each ending in `\n`.
pub fn print(file: &SourceFile) -> Vec<u8> {
    let mut out = Vec::with_capacity(file.statements.len() * 40);
    for stmt in &file.statements {
        if print_statement(stmt, &mut out) {
            out.push(b'\n');
        }
    }
    out
}

/// Appends `stmt` without a line end; returns false (and appends nothing)
/// for an error placeholder.
pub fn print_statement(stmt: &Statement, out: &mut Vec<u8>) -> bool {
    match &stmt.kind {
        StmtKind::Dungeon(d) => {
            keyword(&d.keyword, out);
            string(&d.name, out);
            out.push(b' ');
            string(&d.bones, out);
            out.push(b' ');
            couple(&d.size, out);
            opt_num(d.chance.as_ref(), out);
        }
        StmtKind::Entry(e) => {
            keyword(&e.keyword, out);
            num(&e.level, out);
        }
        StmtKind::Protofile(p) => {
            keyword(&p.keyword, out);
            string(&p.name, out);
        }
        StmtKind::Description(w)
        | StmtKind::Alignment(w)
        | StmtKind::LevelDesc(w)
        | StmtKind::LevAlign(w) => {
            keyword(&w.keyword, out);
            out.extend_from_slice(w.word.text.as_bytes());
        }
        StmtKind::Tileset(t) => {
            keyword(&t.keyword, out);
            match &t.value {
                TilesetValue::Word(w) => out.extend_from_slice(w.text.as_bytes()),
                TilesetValue::Num(n) => num(n, out),
            }
        }
        StmtKind::Level(l) => {
            keyword(&l.keyword, out);
            for s in [
                l.display.as_ref(),
                Some(&l.name),
                l.bones.as_ref(),
                l.chain.as_ref(),
            ]
            .into_iter()
            .flatten()
            {
                string(s, out);
                out.push(b' ');
            }
            out.extend_from_slice(if l.is_chained() { b"+ " } else { b"@ " });
            couple(&l.placement, out);
            opt_num(l.chance.as_ref(), out);
            opt_num(l.rndlevs.as_ref(), out);
        }
        StmtKind::Branch(b) => {
            keyword(&b.keyword, out);
            string(&b.target, out);
            out.push(b' ');
            if let Some(chain) = &b.chain {
                string(chain, out);
                out.push(b' ');
            }
            out.extend_from_slice(if b.is_chained() { b"+ " } else { b"@ " });
            couple(&b.placement, out);
            for w in [&b.branch_type, &b.direction].into_iter().flatten() {
                out.push(b' ');
                out.extend_from_slice(w.text.as_bytes());
            }
            opt_num(b.entry.as_ref(), out);
        }
        StmtKind::Error => return false,
    }
    true
}

fn keyword(k: &Keyword, out: &mut Vec<u8>) {
    let text = k.kind.as_str();
    out.extend_from_slice(text.as_bytes());
    out.push(b':');
    let mut col = text.len() + 1;
    loop {
        out.push(b'\t');
        col = (col / TAB_WIDTH + 1) * TAB_WIDTH;
        if col >= VALUE_COLUMN {
            break;
        }
    }
}

fn string(s: &StrLit, out: &mut Vec<u8>) {
    out.push(b'"');
    out.extend_from_slice(&s.bytes);
    out.push(b'"');
}

fn num(n: &Num, out: &mut Vec<u8>) {
    match n.value {
        Some(v) => out.extend_from_slice(v.to_string().as_bytes()),
        // Overflowed text prints as the smallest number that overflows
        // again, so the tree round-trips.
        None => out.extend_from_slice(b"9223372036854775808"),
    }
}

fn opt_num(n: Option<&Num>, out: &mut Vec<u8>) {
    if let Some(n) = n {
        out.push(b' ');
        num(n, out);
    }
}

fn couple(c: &Couple, out: &mut Vec<u8>) {
    out.push(b'(');
    num(&c.base, out);
    out.extend_from_slice(b", ");
    num(&c.rand, out);
    out.push(b')');
}
