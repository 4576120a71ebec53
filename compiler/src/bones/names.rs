//! Bones file names (`set_bonesfile_name` in NetHack's files.c):
//! `bon` + dungeon marker + (`0`, or the role's code in the Quest) + `.` +
//! (the special level's marker, else the level number).

/// The dungeon whose bones files carry the role's code instead of `0`
/// (NetHack finds it by this exact name).
pub const QUEST_DUNGEON: &str = "The Quest";

/// Written where the role code goes when no role is given: the name then
/// stands for every role's file (as a shell pattern would).
pub const ANY_ROLE: &str = "*";

/// NetHack's roles and their file codes (`urole.filecode`).
const ROLE_CODES: [(&str, &str); 15] = [
    ("archeologist", "Arc"),
    ("barbarian", "Bar"),
    ("caveman", "Cav"),
    ("cavewoman", "Cav"),
    ("healer", "Hea"),
    ("knight", "Kni"),
    ("monk", "Mon"),
    ("priest", "Pri"),
    ("priestess", "Pri"),
    ("rogue", "Rog"),
    ("ranger", "Ran"),
    ("samurai", "Sam"),
    ("tourist", "Tou"),
    ("valkyrie", "Val"),
    ("wizard", "Wiz"),
];

/// The file code for `--role`: a vanilla role name (any case) or code maps
/// to its code ("valkyrie", "val" -> "Val"); anything else (a variant's
/// role) is used as written.
pub fn role_code(role: &str) -> String {
    let lower = role.to_ascii_lowercase();
    ROLE_CODES
        .iter()
        .find(|(name, code)| *name == lower || code.eq_ignore_ascii_case(role))
        .map_or_else(|| role.to_string(), |(_, code)| (*code).to_string())
}

/// The bones file name of a level. `dungeon_marker` and `special_marker`
/// are the markers as layouts hold them (one character, empty for "none");
/// `None` when the name does not exist (a "none" marker).
pub fn file_name(
    dungeon_name: &str,
    dungeon_marker: &str,
    special_marker: Option<&str>,
    level: i32,
    role: Option<&str>,
) -> Option<String> {
    let dm = dungeon_marker.chars().next()?;
    let middle = if dungeon_name == QUEST_DUNGEON {
        role.map_or_else(|| ANY_ROLE.to_string(), role_code)
    } else {
        "0".to_string()
    };
    let tail = match special_marker {
        Some(m) => m.chars().next()?.to_string(),
        None => level.to_string(),
    };
    Some(format!("bon{dm}{middle}.{tail}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_of_bones_md() {
        assert_eq!(
            file_name("The Dungeons of Doom", "D", None, 12, None).as_deref(),
            Some("bonD0.12")
        );
        assert_eq!(
            file_name("The Dungeons of Doom", "D", Some("O"), 7, None).as_deref(),
            Some("bonD0.O")
        );
        assert_eq!(
            file_name("The Quest", "Q", Some("L"), 3, Some("Valkyrie")).as_deref(),
            Some("bonQVal.L")
        );
        assert_eq!(
            file_name("The Quest", "Q", Some("L"), 3, None).as_deref(),
            Some("bonQ*.L")
        );
    }

    #[test]
    fn none_markers_have_no_file() {
        assert_eq!(file_name("Sokoban", "", None, 2, None), None);
        assert_eq!(
            file_name("The Dungeons of Doom", "D", Some(""), 25, None),
            None
        );
    }

    #[test]
    fn role_codes() {
        assert_eq!(role_code("val"), "Val");
        assert_eq!(role_code("PRIESTESS"), "Pri");
        assert_eq!(role_code("Drd"), "Drd");
    }
}
