//! A command's messages in the API's words. `dgn serve` runs the command
//! itself, and its messages name what to change as the command line spells
//! it (`use --target native`, `--given has errors`, `dgn check new.def`):
//! words that neither the page nor a caller of the API types. The server
//! gives the message with each option named by the parameter that sets it
//! (`` `given` has errors``, `use the target `native``) and without the
//! advice to run another command. Only messages are reworded (an error's
//! text, the notes of `X-Dgn-Stderr`), never an answer; the command line's
//! own messages stay as they are.

/// Each option a message may name and the API's parameter that sets it.
/// `--target` has its own words ([`TARGET`]).
const OPTIONS: &[(&str, &str)] = &[
    ("--given-overview", "given_overview"),
    ("--given", "given"),
    ("--game-start", "game_start"),
    ("--game", "game"),
    ("--wizard", "wizard"),
    ("--role", "role"),
    ("--race", "race"),
    ("--gender", "gender"),
    ("--align", "align"),
    ("--option", "option"),
    ("--samples", "samples"),
    ("--sample", "sample"),
    ("--exact", "exact"),
    ("--first-seed", "first_seed"),
    ("--seeds", "seeds"),
    ("--seed", "seed"),
    ("--where", "where"),
    ("--dialect", "dialect"),
    ("--rng", "rng"),
    ("--portal-levels", "portal_levels"),
    ("--trace", "trace"),
    ("--limit", "limit"),
    ("--count", "count"),
    ("--old-target", "old_target"),
    ("--new-target", "new_target"),
    ("--all", "all"),
    ("--allow", "allow"),
    ("--warn", "warn"),
    ("--deny", "deny"),
    ("--to", "to"),
];

/// `--target`: "the target `X`" with a game's name after it, else the
/// parameter.
const TARGET: &str = "--target";

/// `text` with the command line's words as the API says them.
pub fn in_api_words(text: &str) -> String {
    let text = without_command_advice(text);
    let parts: Vec<&str> = text.split('`').collect();
    let mut out = String::with_capacity(text.len());
    for (i, part) in parts.iter().enumerate() {
        // Odd parts are code spans (a last one without its closing is not).
        let code = i % 2 == 1 && i + 1 < parts.len();
        if !code {
            if i % 2 == 1 {
                // A backtick never closed: kept, and what follows is text.
                out.push('`');
            }
            out.push_str(&plain(part));
            continue;
        }
        // A span that is an option (and its value) is said as the API's;
        // any other (a whole command line, a query) stays as written.
        let flag_end = part
            .get(2..)
            .and_then(|r| r.find(|c: char| !(c.is_ascii_lowercase() || c == '-')))
            .map_or(part.len(), |e| e + 2);
        let flag = &part[..flag_end];
        match param(flag) {
            Some(p) if part.starts_with("--") => {
                let value = part[flag_end..].trim_start_matches([' ', '=']);
                out.push_str(&named(flag, p, value));
            }
            _ => {
                out.push('`');
                out.push_str(part);
                out.push('`');
            }
        }
    }
    out
}

/// The parameter of `flag`, if the API has one (`--target`'s is its own).
fn param(flag: &str) -> Option<&'static str> {
    if flag == TARGET {
        return Some("target");
    }
    OPTIONS.iter().find(|(f, _)| *f == flag).map(|(_, p)| *p)
}

/// Text outside code spans: each option that starts a word is named by its
/// parameter; only a game's name after `--target` is taken as its value.
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("--") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let word_end = from[2..]
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .map_or(from.len(), |e| e + 2);
        let flag = &from[..word_end];
        let starts_word = out
            .chars()
            .next_back()
            .is_none_or(|c| c.is_whitespace() || matches!(c, '(' | ',' | '"'));
        let Some(p) = param(flag).filter(|_| starts_word) else {
            out.push_str("--");
            rest = &from[2..];
            continue;
        };
        let after = &from[word_end..];
        let game = match after.strip_prefix([' ', '=']) {
            Some(v) if flag == TARGET => {
                let end = v
                    .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-')))
                    .unwrap_or(v.len());
                dgnkit::options::Target::parse(&v[..end]).map(|_| (&v[..end], &v[end..]))
            }
            _ => None,
        };
        match game {
            Some((name, tail)) => {
                out.push_str(&named(flag, p, name));
                rest = tail;
            }
            None => {
                out.push_str(&named(flag, p, ""));
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// How the API names option `flag` (its parameter `param`) given `value`.
fn named(flag: &str, param: &str, value: &str) -> String {
    match (flag == TARGET, value.is_empty()) {
        (true, false) => format!("the target `{value}`"),
        (_, true) => format!("`{param}`"),
        (false, false) => format!("`{param}` `{value}`"),
    }
}

/// The advice to run another command (`` (`dgn check new.def`)`` after
/// "fix them first"): the diagnostics it would print are in the message.
fn without_command_advice(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(" (`dgn check ") {
        out.push_str(&rest[..at]);
        match rest[at..].find("`)") {
            Some(end) => rest = &rest[at + end + 2..],
            None => {
                out.push_str(&rest[at..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::in_api_words;

    #[test]
    fn options_are_named_by_their_parameters() {
        for (cli, api) in [
            (
                "NetHack needs a dungeon named \"The Quest\" and aborts without it (or use --target native)",
                "NetHack needs a dungeon named \"The Quest\" and aborts without it (or use the target `native`)",
            ),
            (
                "no layout for --target dynahack rather than another game's (compile and check work; `--target native` lays the file out)",
                "no layout for the target `dynahack` rather than another game's (compile and check work; the target `native` lays the file out)",
            ),
            (
                "for dNetHack's own, use `--target dnethack`",
                "for dNetHack's own, use the target `dnethack`",
            ),
            (
                "choose one with --target (nethack-3.4.3 or nethack-3.6)",
                "choose one with `target` (nethack-3.4.3 or nethack-3.6)",
            ),
            (
                "dgn stats: --given has errors (`dgn explain find` describes the language)",
                "dgn stats: `given` has errors (`dgn explain find` describes the language)",
            ),
            (
                "printed in wizard mode only: give --wizard for that game's loader",
                "printed in wizard mode only: give `wizard` for that game's loader",
            ),
            (
                "none of the 500 sampled layouts meets it (more --samples may find some)",
                "none of the 500 sampled layouts meets it (more `samples` may find some)",
            ),
            (
                "give --role, --race, --gender and --align",
                "give `role`, `race`, `gender` and `align`",
            ),
            (
                "`--option foo`: expected NAME=VALUE",
                "`option` `foo`: expected NAME=VALUE",
            ),
            (
                "dgn diff: `new.def` has errors; fix them first (`dgn check new.def`)",
                "dgn diff: `new.def` has errors; fix them first",
            ),
            ("3 left out by --where", "3 left out by `where`"),
            ("--seeds and --seed", "`seeds` and `seed`"),
        ] {
            assert_eq!(in_api_words(cli), api);
        }
    }

    #[test]
    fn other_dashes_are_left_alone() {
        for text in [
            "a -- b",
            "x--target y",
            "--unknown-option",
            "the range 1--3",
            "depth --",
            "`--format json` is the command line's",
            "`dgn convert --to lua` writes it",
        ] {
            assert_eq!(in_api_words(text), text);
        }
        // A command's advice without its closing is left as it is; a
        // backtick never closed is kept, and the text after it reworded.
        assert_eq!(
            in_api_words("fix them first (`dgn check x"),
            "fix them first (`dgn check x"
        );
        assert_eq!(in_api_words("an odd ` --given"), "an odd ` `given`");
    }
}
