//! `dgn explain xlog`: `explain.txt`, with the games and their releases
//! filled in from the games' records, so that the text names no game a
//! record does not.

use super::identify::Family;

const TEXT: &str = include_str!("explain.txt");

/// The width the text is wrapped to.
const WIDTH: usize = 72;

/// The text of `dgn explain xlog`.
pub fn explain() -> String {
    let (mut games, mut releases) = (String::new(), String::new());
    for f in Family::all() {
        games.push_str(&format!("  {:<12} {}\n", f.title, f.tells));
        let each: Vec<String> = f
            .releases
            .iter()
            .map(|r| match r.note {
                "" => r.version_list(),
                note => format!("{} ({note})", r.version_list()),
            })
            .collect();
        wrap(&mut releases, f.title, &each.join(", "));
    }
    TEXT.replacen("{games}\n", &games, 1)
        .replacen("{releases}\n", &releases, 1)
}

/// `words` after `title` in a column, wrapped under themselves.
fn wrap(out: &mut String, title: &str, words: &str) {
    let indent = " ".repeat(15);
    let mut line = format!("  {title:<12}");
    let mut empty = true;
    for word in words.split(' ') {
        if !empty && line.len() + 1 + word.len() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clone_from(&indent);
            line.push_str(word);
        } else {
            line.push(' ');
            line.push_str(word);
        }
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_and_release_is_filled_in() {
        let text = explain();
        assert!(!text.contains("{games}") && !text.contains("{releases}"));
        for f in Family::all() {
            assert!(
                text.contains(&format!("  {:<12} {}", f.title, f.tells)),
                "{}",
                f.name
            );
            for r in f.releases {
                assert!(text.contains(&r.version_list()), "{}", r.name);
            }
        }
        assert!(text.lines().all(|l| l.chars().count() <= 120), "{text}");
    }
}
