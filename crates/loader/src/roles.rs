//! NetHack's roles and races, and those the variant families add, by name
//! and three-letter code (`urole.filecode`, `urace.filecode`). `--role` and
//! `--race` take either, without regard to case.

/// A role: its male name, its female name where it differs, its code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Role {
    pub name: &'static str,
    pub female: Option<&'static str>,
    /// `urole.filecode`: the quest's file prefix and bones-name code.
    pub code: &'static str,
}

/// A race and its code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Race {
    pub name: &'static str,
    pub code: &'static str,
}

const fn role(name: &'static str, code: &'static str) -> Role {
    Role {
        name,
        female: None,
        code,
    }
}

/// Every role of the games dgnkit knows (vanilla's thirteen first, then
/// the variants' in the order their `role.c` lists them).
pub const ROLES: &[Role] = &[
    role("Archeologist", "Arc"),
    role("Barbarian", "Bar"),
    Role {
        name: "Caveman",
        female: Some("Cavewoman"),
        code: "Cav",
    },
    role("Healer", "Hea"),
    role("Knight", "Kni"),
    role("Monk", "Mon"),
    Role {
        name: "Priest",
        female: Some("Priestess"),
        code: "Pri",
    },
    role("Rogue", "Rog"),
    role("Ranger", "Ran"),
    role("Samurai", "Sam"),
    role("Tourist", "Tou"),
    role("Valkyrie", "Val"),
    role("Wizard", "Wiz"),
    // SLASH'EM (`src/role.c`).
    role("Flame Mage", "Fla"),
    role("Ice Mage", "Ice"),
    role("Necromancer", "Nec"),
    role("Undead Slayer", "Und"),
    role("Yeoman", "Yeo"),
    // UnNetHack, EvilHack.
    role("Convict", "Con"),
    // EvilHack.
    role("Infidel", "Inf"),
    // dNetHack.
    role("Anachrononaut", "Ana"),
    role("Binder", "Bin"),
    Role {
        name: "Nobleman",
        female: Some("Noblewoman"),
        code: "Nob",
    },
    role("Pirate", "Pir"),
    role("Troubadour", "Tro"),
    // NetHack 3.7's forks': each fork's record in `dgnkit::games` cites the
    // `roles[]` (`src/role.c`) it takes its roles from.
    role("Cartomancer", "Car"),
    role("Dragon Rider", "Dra"),
    role("Grappler", "Grp"),
    // dNAO `src/role.c:263`.
    Role {
        name: "Madman",
        female: Some("Madwoman"),
        code: "Mad",
    },
];

/// Every race of the games dgnkit knows.
pub const RACES: &[Race] = &[
    Race {
        name: "Human",
        code: "Hum",
    },
    Race {
        name: "Elf",
        code: "Elf",
    },
    Race {
        name: "Dwarf",
        code: "Dwa",
    },
    Race {
        name: "Gnome",
        code: "Gno",
    },
    Race {
        name: "Orc",
        code: "Orc",
    },
    // SLASH'EM.
    Race {
        name: "Doppelganger",
        code: "Dop",
    },
    Race {
        name: "Drow",
        code: "Dro",
    },
    Race {
        name: "Hobbit",
        code: "Hob",
    },
    Race {
        name: "Lycanthrope",
        code: "Lyc",
    },
    Race {
        name: "Vampire",
        code: "Vam",
    },
    // EvilHack.
    Race {
        name: "Centaur",
        code: "Cen",
    },
    Race {
        name: "Giant",
        code: "Gia",
    },
    Race {
        name: "Illithid",
        code: "Ill",
    },
    // dNetHack.
    Race {
        name: "Incantifier",
        code: "Inc",
    },
    Race {
        name: "Clockwork Automaton",
        code: "Clk",
    },
    Race {
        name: "Chiropteran",
        code: "Bat",
    },
    Race {
        name: "Yuki-onna",
        code: "Swn",
    },
];

fn matches(given: &str, names: &[&str]) -> bool {
    names.iter().any(|n| n.eq_ignore_ascii_case(given))
}

/// A role by name (either sex) or code.
pub fn role_named(s: &str) -> Option<&'static Role> {
    let s = s.trim();
    ROLES.iter().find(|r| {
        matches(s, &[r.name, r.code]) || r.female.is_some_and(|f| f.eq_ignore_ascii_case(s))
    })
}

/// A race by name or code.
pub fn race_named(s: &str) -> Option<&'static Race> {
    let s = s.trim();
    RACES.iter().find(|r| matches(s, &[r.name, r.code]))
}

/// `Valkyrie (Val), ...` for messages.
/// The first role whose name (or female name) begins with `s`, in
/// `roles[]` order, as NetHack's options take a role (`val` for Valkyrie,
/// `r` for Rogue; src/role.c:829-834).
pub fn role_prefixed(s: &str) -> Option<&'static Role> {
    let s = s.to_ascii_lowercase();
    ROLES.iter().find(|r| {
        !s.is_empty()
            && std::iter::once(r.name)
                .chain(r.female)
                .any(|n| n.to_ascii_lowercase().starts_with(&s))
    })
}

pub fn role_list() -> String {
    ROLES
        .iter()
        .map(|r| format!("{} ({})", r.name, r.code))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The roles of `codes`, as [`role_list`] names them.
pub fn list_of(codes: &[&str]) -> String {
    ROLES
        .iter()
        .filter(|r| codes.contains(&r.code))
        .map(|r| format!("{} ({})", r.name, r.code))
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn race_list() -> String {
    RACES
        .iter()
        .map(|r| format!("{} ({})", r.name, r.code))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_codes_find_the_same_entry() {
        for r in ROLES {
            assert_eq!(role_named(r.name), Some(r));
            assert_eq!(role_named(&r.code.to_lowercase()), Some(r));
            if let Some(f) = r.female {
                assert_eq!(role_named(f), Some(r));
            }
        }
        for r in RACES {
            assert_eq!(race_named(r.name), Some(r));
            assert_eq!(race_named(&r.code.to_uppercase()), Some(r));
        }
        assert_eq!(role_named("Valk"), None);
        assert_eq!(race_named("Dro").map(|r| r.name), Some("Drow"));
    }

    #[test]
    fn codes_are_unique() {
        let mut codes: Vec<_> = ROLES.iter().map(|r| r.code.to_lowercase()).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), ROLES.len());
        let mut codes: Vec<_> = RACES.iter().map(|r| r.code.to_lowercase()).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), RACES.len());
    }
}
