//! Stable codes of the diagnostics the frontend produces: `E01xx` for syntax
//! errors (and the formatter's one refusal), `W01xx` for preprocessing warnings. [`CODES`] describes each one
//! with an example that triggers it, for `dgn explain` and the docs.

use crate::diagnostic::Severity;

pub const UNEXPECTED_CHAR: &str = "E0101";
pub const BAD_NUMBER: &str = "E0102";
pub const NUMBER_TOO_LARGE: &str = "E0103";
pub const UNTERMINATED_STRING: &str = "E0104";
pub const BAD_WORD: &str = "E0105";
pub const MISSING_COLON: &str = "E0106";
pub const EXPECTED_STRING: &str = "E0107";
pub const EXPECTED_RANGE: &str = "E0108";
pub const MALFORMED_RANGE: &str = "E0109";
pub const WRONG_PLACEMENT: &str = "E0110";
pub const EXPECTED_WORD: &str = "E0111";
pub const EXPECTED_NUMBER: &str = "E0112";
pub const STRING_COUNT: &str = "E0113";
pub const BRANCH_WORDS: &str = "E0114";
pub const NUMBER_COUNT: &str = "E0115";
pub const UNEXPECTED_TOKEN: &str = "E0116";
pub const FILE_TOO_LARGE: &str = "E0117";
pub const FORMAT_FLAG_CONTINUATION: &str = "E0118";
pub const UNKNOWN_FLAG: &str = "W0101";
/// The lint name of [`UNKNOWN_FLAG`] for `--allow/--warn/--deny`.
pub const UNKNOWN_FLAG_LINT: &str = "unknown-flag";

/// One documented code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeInfo {
    pub code: &'static str,
    pub severity: Severity,
    /// Lint name, for warnings.
    pub lint: Option<&'static str>,
    /// What the code means, in one line.
    pub summary: &'static str,
    /// A line of dungeon.def that produces it.
    pub example: &'static str,
}

const fn e(code: &'static str, summary: &'static str, example: &'static str) -> CodeInfo {
    CodeInfo {
        code,
        severity: Severity::Error,
        lint: None,
        summary,
        example,
    }
}

/// Every code the frontend emits, in code order.
pub const CODES: &[CodeInfo] = &[
    e(UNEXPECTED_CHAR, "a character that starts no token of the language (`;`, a lone carriage return, a non-ASCII byte outside a string)", "LEVEL: \"oracle\" \"O\" @ (5, 5);"),
    e(BAD_NUMBER, "a run of `-` and digits that is not one number (NetHack's dgn_comp silently reads `5-3` as 5)", "LEVEL: \"oracle\" \"O\" @ (5-3, 5)"),
    e(NUMBER_TOO_LARGE, "an integer that does not fit in 64 bits", "ENTRY: 99999999999999999999"),
    e(UNTERMINATED_STRING, "a string with no closing `\"` on its line", "LEVEL: \"oracle \"O\" @ (5, 5)"),
    e(BAD_WORD, "a word that is neither an upper-case keyword nor a lower-case value word (wrong case, misspelt keyword)", "DESCRIPTION: Mazelike"),
    e(MISSING_COLON, "a keyword not followed by `:`", "LEVEL \"oracle\" \"O\" @ (5, 5)"),
    e(EXPECTED_STRING, "a name, bones marker or file name missing its double quotes, or missing", "PROTOFILE: tower"),
    e(EXPECTED_RANGE, "a missing `(base, rand)` level range after `@`, `+` or a dungeon's bones marker", "LEVEL: \"oracle\" \"O\" @ 5"),
    e(MALFORMED_RANGE, "a level range without its two numbers, comma or closing parenthesis", "LEVEL: \"oracle\" \"O\" @ (5 5)"),
    e(WRONG_PLACEMENT, "`@` and `+` mixed up between plain and chained statements, or the placement missing", "LEVEL: \"wizard2\" \"X\" \"wizard1\" + (1, 0)"),
    e(EXPECTED_WORD, "a missing descriptor, alignment or tileset word", "DESCRIPTION: \"mazelike\""),
    e(EXPECTED_NUMBER, "a missing number (after `ENTRY:`)", "ENTRY: bottom"),
    e(STRING_COUNT, "too many or too few strings before a statement's placement", "BRANCH: \"Sokoban\" \"oracle\" @ (6, 2)"),
    e(BRANCH_WORDS, "two branch types or two directions, or the direction written before the type", "BRANCH: \"Vlad's Tower\" @ (9, 5) up portal"),
    e(NUMBER_COUNT, "too many numbers after a level's range, or a RNDLEVEL without its number of variants", "RNDLEVEL: \"bigrm\" \"B\" @ (10, 3)"),
    e(UNEXPECTED_TOKEN, "a token where a statement should start, or after a complete statement", "LEVEL: \"oracle\" \"O\" @ (5, 5) 50 portal"),
    e(FILE_TOO_LARGE, "a file of 4 GiB or more (byte offsets are 32-bit)", ""),
    e(FORMAT_FLAG_CONTINUATION, "(`dgn fmt` only) a statement written over several lines touches a `%NAME` line, so joining it would change what the option controls", "LEVEL: \"rogue\" \"R\"\n%REINCARNATION @ (15, 4)"),
    CodeInfo {
        code: UNKNOWN_FLAG,
        severity: Severity::Warning,
        lint: Some(UNKNOWN_FLAG_LINT),
        summary: "a `%NAME` line whose option is neither known to makedefs (REINCARNATION, MULDGN) nor defined with `-D`: the line is dropped",
        example: "%CONWAY LEVEL: \"conway\" \"none\" @ (7, 3)",
    },
];

/// The description of `code`, if the frontend emits it.
pub fn lookup(code: &str) -> Option<&'static CodeInfo> {
    CODES.iter().find(|c| c.code == code)
}
