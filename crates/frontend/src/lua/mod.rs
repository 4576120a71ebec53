//! NetHack 3.7's `dungeon.lua`, read as the game reads it. A file that is
//! pure data is read without running it: [`syntax`] parses the file with
//! full_moon and evaluates the constant table assigned to `dungeon`. A
//! file that is a program (xNetHack's draws before its table) is run:
//! [`program`] runs it in the [`sandbox`], the Lua 5.4 state the game
//! gives the file with its limits, once per outcome of its draws, and
//! reads each outcome's `dungeon` back with spans. Either way [`read`]
//! turns the value into the same semantic [`Model`](crate::model::Model) a
//! `.def` file gives, spans in the `.lua` file, so every check, the
//! lowering to a [`Script`](dgnkit_script::Script) and the editor features
//! work on it unchanged. [`write`] goes the other way, from a script to
//! `dungeon.lua`; [`format`] re-indents a file keeping its layout and
//! comments; [`codes`] holds the reader's diagnostic codes (`E12xx`,
//! `W12xx`).

pub mod codes;
pub mod format;
pub mod program;
pub mod read;
pub mod sandbox;
pub mod syntax;
pub mod write;

pub use read::read;

/// Whether `src` is a `dungeon.lua` rather than a `dungeon.def`, from its
/// first significant text: a `.def` file starts with a `#` comment, a
/// `%FLAG` or a keyword followed by a colon; a Lua file with a `--`
/// comment, `dungeon =`, `local` or `return`.
pub fn looks_like_lua(src: &[u8]) -> bool {
    let text = src.trim_ascii_start();
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    if text.starts_with(b"--") {
        return true;
    }
    let word_end = text
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .unwrap_or(text.len());
    let (word, rest) = text.split_at(word_end);
    match word {
        b"dungeon" => rest.trim_ascii_start().starts_with(b"="),
        b"local" | b"return" => true,
        _ => false,
    }
}
