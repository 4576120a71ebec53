//! The hero a session plays: from its options (v3 `options`, v4
//! `nethackrc`), or, when those leave it to the game's interactive
//! selection, from the game's own welcome on the session's screens.

use crate::games::{role_named, Role};
use serde_json::Value;

/// The character as the file or the game states it, in its own words
/// (`Valkyrie`, `human`, `female`, `neutral`); a field the source does not
/// state is `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Character {
    pub role: Option<String>,
    pub race: Option<String>,
    pub gender: Option<String>,
    pub align: Option<String>,
}

impl Character {
    /// Whether every choice is made, none left to the game: then
    /// `player_selection()` asks nothing and draws nothing (the v4 format's
    /// "Character Fields"; src/role.c).
    pub fn whole(&self) -> bool {
        [&self.role, &self.race, &self.gender, &self.align]
            .iter()
            .all(|f| f.as_deref().is_some_and(|v| !is_random(v)))
    }

    /// `neutral female human Valkyrie`: the fields stated, in the order
    /// of the game's welcome.
    pub fn describe(&self) -> String {
        let words: Vec<&str> = [&self.align, &self.gender, &self.race, &self.role]
            .into_iter()
            .filter_map(|f| f.as_deref())
            .collect();
        if words.is_empty() {
            "a character the file does not state".to_string()
        } else {
            words.join(" ")
        }
    }
}

/// A choice left to chance: `random`, a prefix of it, `*`, `@` (`str2role`
/// and its siblings, src/role.c:769-771), or an exclusion (`!Valkyrie`).
pub fn is_random(value: &str) -> bool {
    let v = value.trim();
    v.is_empty()
        || v == "*"
        || v == "@"
        || v.starts_with('!')
        || "random".starts_with(&v.to_ascii_lowercase())
}

/// `role` as NetHack's `str2role` reads it (src/role.c:747-775), among
/// `codes` (the game's `roles[]` in order): the first role whose male or
/// female name starts with it, or whose code it is, case aside. `None`:
/// no role of the game.
pub fn role_of(role: &str, codes: &[&str]) -> Option<&'static Role> {
    let s = role.trim();
    if s.is_empty() {
        return None;
    }
    let prefix = |name: &str| {
        name.len() >= s.len()
            && name.is_char_boundary(s.len())
            && name[..s.len()].eq_ignore_ascii_case(s)
    };
    codes
        .iter()
        .filter_map(|c| role_named(c))
        .find(|r| prefix(r.name) || r.female.is_some_and(prefix) || r.code.eq_ignore_ascii_case(s))
}

/// v3's `options` object.
pub fn from_v3_options(options: &Value) -> Character {
    let field = |k: &str| options.get(k).and_then(Value::as_str).map(str::to_string);
    Character {
        role: field("role"),
        race: field("race"),
        gender: field("gender"),
        align: field("align"),
    }
}

/// What a v4 `nethackrc` says: the character of its `OPTIONS=` lines and
/// whether a `WIZARD=` line asks for wizard mode (the format's "Wizard
/// Mode"; menace's harness starts such a game with `-D`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rc {
    pub character: Character,
    pub wizard: bool,
}

/// Reads a `nethackrc` as NetHack's option parser does for these fields:
/// `#` starts a comment, `OPTIONS=` takes comma-separated options, each
/// `name:value` or `name=value`, names case-insensitive; a later value
/// wins.
pub fn from_nethackrc(text: &str) -> Rc {
    let mut rc = Rc::default();
    for raw in text.lines() {
        let line = raw.split('#').next().unwrap_or("").trim();
        let Some((directive, rest)) = line.split_once('=') else {
            continue;
        };
        let directive = directive.trim();
        if directive.eq_ignore_ascii_case("WIZARD") {
            rc.wizard = true;
        } else if directive.eq_ignore_ascii_case("OPTIONS") {
            for option in rest.split(',') {
                let Some((name, value)) = option.split_once([':', '=']) else {
                    continue;
                };
                let value = Some(value.trim().to_string());
                match name.trim().to_ascii_lowercase().as_str() {
                    "role" | "character" => rc.character.role = value,
                    "race" => rc.character.race = value,
                    "gender" => rc.character.gender = value,
                    "align" => rc.character.align = value,
                    _ => {}
                }
            }
        }
    }
    rc
}

/// The character of a new game's welcome, "Hello Agent, welcome to
/// NetHack!  You are a neutral female human Valkyrie." (src/allmain.c:
/// 881-895: the alignment, the gender unless the role's name or its only
/// gender tells it, the race's adjective, the role's name for that
/// gender), on one screen of the session; `None` when the screen has none.
pub fn from_welcome(screen: &str) -> Option<Character> {
    let text = screen_text(screen);
    let start = text.find("welcome to NetHack!")?;
    let rest = &text[start..];
    let after = &rest[rest.find("You are a")? + "You are a".len()..];
    let words: Vec<&str> = after.split('.').next()?.split_whitespace().collect();
    let (role, words) = words.split_last()?;
    let (race_adj, words) = words.split_last()?;
    let race = RACE_ADJECTIVES
        .iter()
        .find(|(adj, _)| adj == race_adj)
        .map(|(_, noun)| noun.to_string())?;
    let (align, gender) = match words {
        [align] => (align, None),
        [align, gender] if matches!(*gender, "male" | "female" | "neuter") => {
            (align, Some(gender.to_string()))
        }
        _ => return None,
    };
    Some(Character {
        role: Some(role.to_string()),
        race: Some(race),
        gender,
        align: Some(align.to_string()),
    })
}

/// `races[].adj` to the name the options take (src/role.c:583-665).
const RACE_ADJECTIVES: [(&str, &str); 5] = [
    ("human", "human"),
    ("elven", "elf"),
    ("dwarven", "dwarf"),
    ("gnomish", "gnome"),
    ("orcish", "orc"),
];

/// A session's screen (the format's "Screen Format") as plain text: the
/// cursor-forward code `ESC[nC` is `n` spaces, other escape sequences and
/// the DEC graphics shifts (SO, SI) are dropped, lines are joined with
/// spaces (a long message wraps onto the next line).
pub fn screen_text(screen: &str) -> String {
    let mut out = String::with_capacity(screen.len());
    let mut chars = screen.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => {
                if chars.peek() != Some(&'[') {
                    chars.next();
                    continue;
                }
                chars.next();
                let mut param = String::new();
                let mut last = None;
                for d in chars.by_ref() {
                    if ('@'..='~').contains(&d) {
                        last = Some(d);
                        break;
                    }
                    param.push(d);
                }
                if last == Some('C') {
                    // A screen is 80 columns wide: a larger count is not
                    // the format's, and not worth a large string.
                    let n = param.bytes().try_fold(0usize, |n, b| {
                        b.is_ascii_digit()
                            .then(|| n.saturating_mul(10).saturating_add(usize::from(b - b'0')))
                    });
                    let n = match n {
                        Some(0) | None => 1,
                        Some(n) => n.min(80),
                    };
                    out.extend(std::iter::repeat_n(' ', n));
                }
            }
            '\n' | '\r' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_character_leaves_nothing_to_chance() {
        let rc = from_nethackrc(
            "OPTIONS=name:Agent,role:Valkyrie,race:human,gender:female,align:neutral,!tutorial\n\
             OPTIONS=!autopickup\n",
        );
        assert!(rc.character.whole());
        assert!(!rc.wizard);
        assert_eq!(rc.character.describe(), "neutral female human Valkyrie");
        let rc = from_nethackrc("# WIZARD=x\nOPTIONS=name:Wizard # role:Val\nWIZARD = Wizard\n");
        assert!(rc.wizard);
        assert_eq!(rc.character, Character::default());
        let rc = from_nethackrc("OPTIONS=role=Pri,race:human,gender:male,align:random\n");
        assert_eq!(rc.character.role.as_deref(), Some("Pri"));
        assert!(!rc.character.whole());
    }

    #[test]
    fn roles_are_read_as_str2role_reads_them() {
        let codes = ["Arc", "Bar", "Cav", "Pri", "Val", "Wiz"];
        let name = |s| role_of(s, &codes).map(|r| r.name);
        assert_eq!(name("Valkyrie"), Some("Valkyrie"));
        assert_eq!(name("val"), Some("Valkyrie"));
        assert_eq!(name("Priestess"), Some("Priest"));
        assert_eq!(name("Cavew"), Some("Caveman"));
        // The first role in `roles[]` order wins a short prefix.
        assert_eq!(name("A"), Some("Archeologist"));
        assert_eq!(name("Samurai"), None);
        assert_eq!(name(""), None);
        assert!(is_random("random") && is_random("rand") && is_random("*"));
        assert!(is_random("!Valkyrie") && !is_random("Valkyrie"));
    }

    #[test]
    fn the_welcome_names_the_character() {
        let screen = "Hello wizard, welcome to NetHack!  You are a chaotic male human Barbarian.\x1b[5C--More--\n\x0elqqk\x0f";
        let c = from_welcome(screen).unwrap();
        assert_eq!(c.describe(), "chaotic male human Barbarian");
        let c = from_welcome(
            "\x1b[1;37mHello Agent, welcome to NetHack!  You are a neutral\nhuman Valkyrie.",
        )
        .unwrap();
        assert_eq!(
            (c.race.as_deref(), c.gender, c.align.as_deref()),
            (Some("human"), None, Some("neutral"))
        );
        assert_eq!(
            from_welcome("welcome to NetHack!  You are a lawful dwarven Valkyrie.")
                .and_then(|c| c.race),
            Some("dwarf".to_string())
        );
        assert_eq!(from_welcome("Hello Agent, welcome back to NetHack!"), None);
        assert_eq!(
            from_welcome("welcome to NetHack!  You are a very odd sort."),
            None
        );
    }

    #[test]
    fn screens_lose_their_escapes_and_keep_their_spaces() {
        assert_eq!(screen_text("a\x1b[3Cb\x1b[0m\x0ec\x0f\nd"), "a   bc d");
        assert_eq!(screen_text("\x1b[999999999999999999999C"), " ".repeat(80));
        assert_eq!(screen_text("\x1b[12"), "");
        assert_eq!(screen_text("\x1b"), "");
    }
}
