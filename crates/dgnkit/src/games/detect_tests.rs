//! Which game a file looks written for: its path, its dialect.

use super::detect::*;
use crate::dialect::Dialect;
use crate::options::Target;
use std::path::Path;

#[test]
fn a_checkout_name_shows_its_family_and_forks_win_over_parents() {
    let cases = [
        (
            "/src/UnNetHack/dat/dungeon.def",
            "UnNetHack",
            Some(Target::UnNetHack),
        ),
        (
            "corpus/SLASHEM-Extended__SLASHEM-Extended/dungeon.def",
            "SLASH'EM Extended",
            None,
        ),
        (
            "corpus/dirkz__slashem-iphone/dungeon.def",
            "SLASH'EM",
            Some(Target::SlashEm),
        ),
        (
            "x/demogorgon22__notdnethack/dungeon.def",
            "dNetHack",
            Some(Target::DNetHack),
        ),
        (
            "x/Chris__dNAO/dungeon.def",
            "dNetHack",
            Some(Target::DNetHack),
        ),
        (
            "/home/me/gnollhack/dat/dungeon.def",
            "GnollHack",
            Some(Target::GnollHack),
        ),
    ];
    for (path, title, target) in cases {
        let d = from_path(Path::new(path)).unwrap_or_else(|| panic!("{path}"));
        assert_eq!((d.title, d.target), (title, target), "{path}");
    }
    assert_eq!(from_path(Path::new("/src/nethack/dat/dungeon.def")), None);
}

#[test]
fn the_note_names_the_target_or_says_approximation() {
    let unn = from_path(Path::new("/src/unnethack/dungeon.def")).unwrap();
    let note = mismatch_note(&unn, Target::NetHack36, "laid out").unwrap();
    assert!(note.contains("--target unnethack"), "{note}");
    assert!(note.contains("NetHack 3.6's rules"), "{note}");
    assert_eq!(mismatch_note(&unn, Target::UnNetHack, "laid out"), None);
    let ext = from_path(Path::new("/src/SLASHEM-Extended/dungeon.def")).unwrap();
    let note = mismatch_note(&ext, Target::NetHack36, "laid out").unwrap();
    assert!(note.contains("approximation"), "{note}");
}

#[test]
fn the_note_speaks_the_language_of_where_it_is_read() {
    let unn = from_path(Path::new("/src/unnethack/dungeon.def")).unwrap();
    let cli = family_note(&unn, Target::NetHack36, Ask::Option).unwrap();
    assert_eq!(
        Some(cli.clone()),
        path_note(Path::new("/src/unnethack/dungeon.def"), Target::NetHack36)
    );
    assert!(
        cli.message.ends_with("try `--target unnethack`"),
        "{}",
        cli.message
    );
    let lsp = family_note(&unn, Target::NetHack343, Ask::Setting("dgnkit.target")).unwrap();
    assert!(
        lsp.message
            .ends_with("set `dgnkit.target` to \"unnethack\""),
        "{}",
        lsp.message
    );
    assert!(
        lsp.notes[0].contains("NetHack 3.4.3's language"),
        "{:?}",
        lsp.notes
    );
    assert!(!lsp.message.contains("--target"), "{}", lsp.message);
    assert_eq!(
        family_note(&unn, Target::UnNetHack, Ask::Setting("dgnkit.target")),
        None
    );
    // xNetHack's dungeon.lua is its 3.7 game's; a dungeon.def of an
    // older xNetHack (on 3.6) has no target.
    let x = from_path(Path::new("/src/xNetHack/dat/dungeon.lua")).unwrap();
    let lsp = family_note(&x, Target::NetHack37, Ask::Setting("dgnkit.luaTarget")).unwrap();
    assert!(
        lsp.message
            .ends_with("set `dgnkit.luaTarget` to \"xnethack\""),
        "{}",
        lsp.message
    );
    assert_eq!(
        family_note(&x, Target::XNetHack, Ask::Setting("dgnkit.luaTarget")),
        None
    );
    let old = from_path(Path::new("/src/xNetHack/dat/dungeon.def")).unwrap();
    assert_eq!(old.target, None);
    let lsp = family_note(&old, Target::NetHack36, Ask::Setting("dgnkit.target")).unwrap();
    assert!(
        lsp.notes[0].contains("no target for xNetHack"),
        "{:?}",
        lsp.notes
    );
}

#[test]
fn a_variant_dialect_points_at_its_game() {
    let d = detect(None, None, Some(Dialect::Dnao)).unwrap();
    assert_eq!(d.target, Some(Target::DNetHack));
    let d = detect(None, None, Some(Dialect::HackEm)).unwrap();
    assert_eq!(d.target, None);
    assert_eq!(detect(None, None, Some(Dialect::Vanilla)), None);
}
