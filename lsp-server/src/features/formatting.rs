//! Formatting through the formatter that `dgn fmt` uses (`dgnkit_grammar`'s
//! for a `dungeon.def`, [`dgnkit::lua::format`] for a `dungeon.lua`), sent
//! as one edit covering the lines that change.

use crate::analysis::parse_options;
use crate::state::DocView;
use tower_lsp_server::ls_types::{Range, TextEdit};

/// The edits that format the document; `Err` with the reason when it cannot
/// be formatted (syntax errors, or a change that would touch bytes the
/// editor cannot represent).
pub fn format(view: DocView<'_>) -> Result<Vec<TextEdit>, String> {
    let text = view.text();
    let formatted = if view.is_lua() {
        dgnkit::lua::format::format(text)
    } else {
        dgnkit_grammar::format::format(text, &parse_options(&view.config()))
    };
    let formatted = formatted.map_err(|diags| {
        let first = diags.iter().find(|d| d.is_error()).or(diags.first());
        match first {
            Some(d) => {
                let at = view.range(d.span).start;
                format!(
                    "cannot format: {} (line {}); fix the errors first",
                    d.message,
                    at.line + 1
                )
            }
            None => "cannot format this file".to_string(),
        }
    })?;
    if formatted == text {
        return Ok(Vec::new());
    }
    let (prefix, suffix) = common_lines(text, &formatted);
    let old_end = text.len() - suffix;
    let new_middle = &formatted[prefix..formatted.len() - suffix];
    let new_text = String::from_utf8(new_middle.to_vec()).map_err(|_| {
        "cannot format: the lines that would change hold bytes that are not UTF-8, which the editor cannot keep"
            .to_string()
    })?;
    let index = &view.syntax().index;
    let range = Range {
        start: index.position(text, prefix as u32),
        end: index.position(text, old_end as u32),
    };
    Ok(vec![TextEdit { range, new_text }])
}

/// Lengths of the longest common prefix and suffix made of whole lines
/// (ending in `\n`), not overlapping. Line ends never sit inside a character,
/// so the middle part starts and ends on character boundaries.
fn common_lines(a: &[u8], b: &[u8]) -> (usize, usize) {
    let mut prefix = 0;
    while let Some(line_len) = a[prefix..].iter().position(|&c| c == b'\n').map(|p| p + 1) {
        if b.get(prefix..prefix + line_len) != Some(&a[prefix..prefix + line_len]) {
            break;
        }
        prefix += line_len;
    }
    let max_suffix = a.len().min(b.len()) - prefix;
    let mut suffix = 0;
    // A suffix starts after a line end (or at the end of the prefix).
    while suffix < max_suffix {
        let a_rest = &a[..a.len() - suffix];
        let b_rest = &b[..b.len() - suffix];
        // The line before the current suffix, including its `\n`.
        let start_a = a_rest[..a_rest.len().saturating_sub(1)]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1);
        let line = &a_rest[start_a..];
        if line.is_empty() || suffix + line.len() > max_suffix || !b_rest.ends_with(line) {
            break;
        }
        let start_b = b_rest.len() - line.len();
        if start_b != 0 && b_rest.get(start_b - 1) != Some(&b'\n') {
            break;
        }
        suffix += line.len();
    }
    (prefix, suffix)
}

#[cfg(test)]
mod tests {
    use super::common_lines;

    #[test]
    fn common_whole_lines() {
        assert_eq!(common_lines(b"a\nb\nc\n", b"a\nB\nc\n"), (2, 2));
        assert_eq!(common_lines(b"a\nb\n", b"a\nb\nc\n"), (4, 0));
        assert_eq!(common_lines(b"x\n", b"y\n"), (0, 0));
        assert_eq!(common_lines(b"a\nxb\n", b"a\nb\n"), (2, 0));
        assert_eq!(common_lines(b"same", b"same\n"), (0, 0));
        // Repeated lines: prefix and suffix never overlap.
        let (p, s) = common_lines(b"a\na\na\n", b"a\na\n");
        assert!(p + s <= 4, "{p} {s}");
    }
}
