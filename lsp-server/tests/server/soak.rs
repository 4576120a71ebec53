//! Thousands of random incremental edits (a fixed seed, so every run is the
//! same) on the vanilla file through the in-process service: the server
//! never fails, its text follows the client's, and its final diagnostics
//! equal the library's on the final text.

use crate::common::*;
use serde_json::{json, Value};
use std::str::FromStr;
use tower_lsp_server::ls_types::Uri;

const EDITS: usize = 3000;

/// xorshift64*: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const SNIPPETS: &[&str] = &[
    "\n",
    "\r\n",
    " ",
    "\t",
    "# a comment\n",
    "# é 𝄞\n",
    " # trailing",
    "LEVEL:",
    "LEVEL:\t\"x\" \"X\" @ (5, 3)\n",
    "RNDLEVEL: \"r\" \"none\" @ (-5, 4) 4\n",
    "CHAINLEVEL: \"c\" \"C\" \"oracle\" + (1, 0)\n",
    "\"oracle\"",
    "\"",
    "@ (5, 3)",
    "+ (1, 0)",
    "(",
    ")",
    ",",
    "BRANCH: \"Sokoban\" @ (2, 3)\n",
    "DUNGEON: \"New\" \"N\" (5, 2)\n",
    "-",
    "5",
    "-1",
    "99999999999999999999",
    "é",
    "𝄞",
    "日本",
    "%REINCARNATION ",
    "portal",
    "up",
    "down",
    "stair",
    "hellish",
    "DESCRIPTION: mazelike\n",
    "LEVELDESC: town\n",
    "ENTRY: -1\n",
    "RNDCHAINLEVEL:",
    ";",
    "\u{0}",
    "\r",
    "Dungeon",
];

/// The client's copy: positions in UTF-16 units, lines ended by `\n`,
/// `\r\n` or `\r`, characters past a line's end meaning its end, lines past
/// the last meaning the end of the text, a position inside a surrogate pair
/// meaning the start of its character.
fn offset_of(text: &str, line: usize, character: usize) -> usize {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => starts.push(i + 1),
            b'\r' => {
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                starts.push(i + 1);
            }
            _ => {}
        }
        i += 1;
    }
    let Some(&start) = starts.get(line) else {
        return text.len();
    };
    let end = starts.get(line + 1).map_or(text.len(), |&next| {
        let mut e = next;
        if e > start && bytes[e - 1] == b'\n' {
            e -= 1;
        }
        if e > start && bytes[e - 1] == b'\r' {
            e -= 1;
        }
        e
    });
    let mut units = 0;
    for (i, c) in text[start..end].char_indices() {
        if units + c.len_utf16() > character {
            return start + i;
        }
        units += c.len_utf16();
    }
    end
}

fn position_of(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let mut line = 0;
    let mut line_start = 0;
    let b = before.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')) {
            line += 1;
            line_start = i + 1;
        }
        i += 1;
    }
    // An offset between `\r` and `\n` belongs to the end of the line.
    let col_text = before[line_start..]
        .strip_suffix('\r')
        .unwrap_or(&before[line_start..]);
    json!({"line": line, "character": col_text.encode_utf16().count()})
}

fn random_position(rng: &mut Rng, text: &str) -> (usize, usize) {
    let lines = text.matches('\n').count() + 1;
    match rng.below(20) {
        0 => (lines + rng.below(5), rng.below(10)),
        1 => (rng.below(lines), 200 + rng.below(100)),
        _ => (rng.below(lines), rng.below(40)),
    }
}

#[tokio::test]
async fn thousands_of_random_edits() {
    let Some(original) = vanilla() else { return };
    // Inline: the layout-odds checks are part of every publish, so the
    // final one can be compared whole with `dgn check`.
    let mut c = Client::start(json!({"dgnkit": {"statistics": "inline"}})).await;
    c.open(URI, &original).await;
    let mut text = original.clone();
    let mut rng = Rng(0x5eed_d00d_cafe_f00d);
    let mut last = Value::Null;
    for version in 2..(EDITS as i32 + 2) {
        let (l1, c1) = random_position(&mut rng, &text);
        let (l2, c2) = if rng.below(3) == 0 {
            (l1, c1)
        } else {
            (l1 + rng.below(2), rng.below(30))
        };
        let mut a = offset_of(&text, l1, c1);
        let mut b = offset_of(&text, l2, c2);
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        let insert = if text.len() > 20_000 || rng.below(4) == 0 {
            String::new()
        } else {
            (0..1 + rng.below(3))
                .map(|_| SNIPPETS[rng.below(SNIPPETS.len())])
                .collect()
        };
        let change = if rng.below(200) == 0 {
            // Occasionally a full-text replacement.
            text = original.clone();
            json!([{"text": text}])
        } else {
            let range = json!({"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}});
            text.replace_range(a..b, &insert);
            json!([{"range": range, "text": insert}])
        };
        last = c.change(URI, version, change).await;
        assert_eq!(last["version"], version);
        if version % 97 == 0 {
            let (l, ch) = random_position(&mut rng, &text);
            let p = json!({"textDocument": {"uri": URI}, "position": {"line": l, "character": ch}});
            for method in [
                "textDocument/hover",
                "textDocument/completion",
                "textDocument/definition",
                "textDocument/prepareRename",
            ] {
                let r = c.request(method, p.clone()).await;
                assert!(r.get("result").is_some(), "{method}: {r}");
            }
            for method in [
                "textDocument/semanticTokens/full",
                "textDocument/documentSymbol",
            ] {
                let r = c
                    .request(method, json!({"textDocument": {"uri": URI}}))
                    .await;
                assert!(r.get("result").is_some(), "{method}: {r}");
            }
            let whole = json!({"start": {"line": 0, "character": 0}, "end": {"line": 9999, "character": 0}});
            let r = c
                .request(
                    "textDocument/inlayHint",
                    json!({"textDocument": {"uri": URI}, "range": whole}),
                )
                .await;
            assert!(r.get("result").is_some(), "{r}");
        }
    }
    let uri = Uri::from_str(URI).unwrap();
    let held = c.server().document_text(&uri).expect("document open");
    assert_eq!(
        String::from_utf8(held).unwrap(),
        text,
        "the server's text follows the client's"
    );

    let expected = dgnkit::frontend::analyze(text.as_bytes(), &Default::default()).diagnostics;
    let got = last["diagnostics"].as_array().unwrap();
    assert_eq!(got.len(), expected.len(), "final diagnostics: {last}");
    for (g, e) in got.iter().zip(&expected) {
        assert_eq!(g["code"], e.code);
        assert!(g["message"].as_str().unwrap().starts_with(&e.message));
        assert_eq!(
            g["range"]["start"],
            position_of(&text, e.span.start as usize),
            "{e:?}"
        );
        assert_eq!(
            g["range"]["end"],
            position_of(&text, e.span.end as usize),
            "{e:?}"
        );
    }
    eprintln!(
        "{EDITS} edits, {} final diagnostics, {} analysis runs",
        got.len(),
        c.server().analysis_runs()
    );
}
