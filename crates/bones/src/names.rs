//! Bones file names (`set_bonesfile_name` in NetHack's files.c):
//! `bon` + dungeon marker + (`0`, or the role's code in the Quest) + `.` +
//! (the special level's marker, else the level number).

/// The dungeon whose bones files carry the role's code instead of `0`
/// (NetHack finds it by this exact name).
pub const QUEST_DUNGEON: &str = "The Quest";

/// Written where the role code goes when no role is given: the name then
/// stands for every role's file (as a shell pattern would).
pub const ANY_ROLE: &str = "*";

/// The file code for `--role`: a role name (any case, either sex) or
/// code of NetHack or a variant maps to its code ("valkyrie", "val" ->
/// "Val"; "Madwoman" -> "Mad"); anything else is used as written.
pub fn role_code(role: &str) -> String {
    crate::games::roles::role_named(role).map_or_else(|| role.to_string(), |r| r.code.to_string())
}

/// What follows a dungeon's marker: the role's code in the Quest, else `0`.
pub fn role_part(dungeon_name: &str, role: Option<&str>) -> String {
    if dungeon_name == QUEST_DUNGEON {
        role.map_or_else(|| ANY_ROLE.to_string(), role_code)
    } else {
        "0".to_string()
    }
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
    let middle = role_part(dungeon_name, role);
    let tail = match special_marker {
        Some(m) => m.chars().next()?.to_string(),
        None => level.to_string(),
    };
    Some(format!("bon{dm}{middle}.{tail}"))
}

/// A file name with a game's infix after `bon` ([`super::BonesRules::name_infix`],
/// GnollHack's `-` + difficulty).
pub fn with_infix(name: String, infix: &str) -> String {
    match name.strip_prefix("bon") {
        Some(rest) if !infix.is_empty() => format!("bon{infix}{rest}"),
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnollhack_infix_follows_bon() {
        // GnollHack `src/files.c:1203`: `bon` + `-N` + the 3.6 name.
        assert_eq!(with_infix("bonD0.12".into(), "-4"), "bon-4D0.12");
        assert_eq!(with_infix("bonD0.12".into(), ""), "bonD0.12");
    }

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
