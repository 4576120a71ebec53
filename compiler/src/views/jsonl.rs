//! The canonical JSON line of a layout, written straight from the loader's
//! [`Resolved`] buffer: for `dgn layout --seeds`, where building a named
//! [`Layout`](crate::layout::Layout) and serialising it cost several times
//! the resolution itself.
//!
//! The text is byte for byte [`json_line`](super::json_line) of
//! [`Resolved::to_layout`]. Everything a layout takes from its script
//! (names, flags, alignments) is turned into JSON once, when the writer is
//! built, with each string escaped by serde_json itself; a line is then
//! those pieces and the layout's integers.

use crate::loader::{Resolved, Resolver};
use crate::script::flags;

/// JSON pieces of one script, for writing many of its layouts.
#[derive(Clone, Debug)]
pub struct JsonLines {
    /// Per dungeon record: the object up to `"num_levels":`, and from
    /// `,"hellish":` to its end.
    dungeons: Vec<(String, String)>,
    /// Per level record: the object up to `"dungeon":`, and from
    /// `,"town":` to its end.
    levels: Vec<(String, String)>,
}

fn string(s: &str) -> String {
    // Serialising a string cannot fail.
    serde_json::to_string(s).unwrap_or_default()
}

fn flag(f: u32, bit: u32) -> bool {
    f & bit != 0
}

impl JsonLines {
    pub fn new(res: &Resolver) -> JsonLines {
        let dungeons = res
            .dungeons
            .iter()
            .map(|d| {
                let head = format!(
                    r#"{{"name":{},"proto":{},"bones":{},"num_levels":"#,
                    string(&d.name),
                    string(&d.proto),
                    string(&d.bones)
                );
                let tail = format!(
                    r#","hellish":{},"mazelike":{},"roguelike":{},"align":{}}}"#,
                    flag(d.flags, flags::HELLISH),
                    flag(d.flags, flags::MAZELIKE),
                    flag(d.flags, flags::ROGUELIKE),
                    (d.flags & flags::ALIGN_MASK) >> flags::ALIGN_SHIFT
                );
                (head, tail)
            })
            .collect();
        let levels = res
            .levels
            .iter()
            .map(|l| {
                let head = format!(
                    r#"{{"name":{},"bones":{},"dungeon":"#,
                    string(&l.name),
                    string(&l.bones)
                );
                let tail = format!(
                    r#","town":{},"hellish":{},"mazelike":{},"roguelike":{},"align":{},"rndlevs":{}}}"#,
                    flag(l.flags, flags::TOWN),
                    flag(l.flags, flags::HELLISH),
                    flag(l.flags, flags::MAZELIKE),
                    flag(l.flags, flags::ROGUELIKE),
                    res.level_align(l),
                    l.rndlevs
                );
                (head, tail)
            })
            .collect();
        JsonLines { dungeons, levels }
    }

    /// Appends the layout in `r` (resolved from this writer's script) as
    /// one JSON line, without the newline and without a draw log.
    pub fn write(&self, r: &Resolved, buf: &mut Vec<u8>) {
        let mut ints = itoa::Buffer::new();
        let mut int = |buf: &mut Vec<u8>, v: i64| buf.extend_from_slice(ints.format(v).as_bytes());
        buf.extend_from_slice(br#"{"seed":"#);
        buf.extend_from_slice(itoa::Buffer::new().format(r.seed).as_bytes());
        buf.extend_from_slice(br#","rng":""#);
        buf.extend_from_slice(r.rng.name().as_bytes());
        buf.extend_from_slice(if r.wizard {
            br#"","wizard":true,"dungeons":["#
        } else {
            br#"","wizard":false,"dungeons":["#
        });
        for (i, d) in r.dungeons.iter().enumerate() {
            if i > 0 {
                buf.push(b',');
            }
            let (head, tail) = &self.dungeons[d.record as usize];
            buf.extend_from_slice(head.as_bytes());
            int(buf, d.num_levels.into());
            buf.extend_from_slice(br#","ledger_start":"#);
            int(buf, d.ledger_start.into());
            buf.extend_from_slice(br#","depth_start":"#);
            int(buf, d.depth_start.into());
            buf.extend_from_slice(br#","entry_level":"#);
            int(buf, d.entry_level.into());
            buf.extend_from_slice(tail.as_bytes());
        }
        buf.extend_from_slice(br#"],"levels":["#);
        for (i, l) in r.levels.iter().enumerate() {
            if i > 0 {
                buf.push(b',');
            }
            let (head, tail) = &self.levels[l.record as usize];
            buf.extend_from_slice(head.as_bytes());
            int(buf, l.dungeon.into());
            buf.extend_from_slice(br#","level":"#);
            int(buf, l.level.into());
            buf.extend_from_slice(tail.as_bytes());
        }
        buf.extend_from_slice(br#"],"branches":["#);
        for (i, b) in r.branches.iter().enumerate() {
            if i > 0 {
                buf.push(b',');
            }
            buf.extend_from_slice(br#"{"id":"#);
            int(buf, b.id.into());
            buf.extend_from_slice(br#","type":""#);
            buf.extend_from_slice(b.kind.name().as_bytes());
            buf.extend_from_slice(br#"","end1":{"dungeon":"#);
            int(buf, b.end1.0.into());
            buf.extend_from_slice(br#","level":"#);
            int(buf, b.end1.1.into());
            buf.extend_from_slice(br#"},"end2":{"dungeon":"#);
            int(buf, b.end2.0.into());
            buf.extend_from_slice(br#","level":"#);
            int(buf, b.end2.1.into());
            buf.extend_from_slice(if b.end1_up {
                br#"},"end1_up":true}"#
            } else {
                br#"},"end1_up":false}"#
            });
        }
        buf.extend_from_slice(br#"],"tune":""#);
        // Notes are the letters A to G.
        buf.extend_from_slice(&r.tune);
        buf.extend_from_slice(br#""}"#);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::Rules;
    use crate::rng::RngKind;
    use crate::script::{Branch, BranchType, Dungeon, Level, Range, Script};
    use crate::views::json_line;

    fn same_as_serde(script: &Script, rules: Rules, seeds: std::ops::Range<u64>) -> usize {
        let res = Resolver::with_rules(script, rules).unwrap();
        let lines = JsonLines::new(&res);
        let mut out = Resolved::default();
        let mut checked = 0;
        for rng in RngKind::ALL {
            for wizard in [false, true] {
                for seed in seeds.clone() {
                    if res.resolve_into(seed, rng, wizard, &mut out).is_err() {
                        continue;
                    }
                    let mut buf = Vec::new();
                    lines.write(&out, &mut buf);
                    let expected = json_line(&out.to_layout(&res, None));
                    assert_eq!(String::from_utf8_lossy(&buf), expected, "seed {seed} {rng}");
                    checked += 1;
                }
            }
        }
        checked
    }

    #[test]
    fn the_built_in_file_writes_as_serde_does() {
        let script = crate::frontend::analyze_fast(
            include_bytes!("../../../corpus/nethack-3.6.def"),
            &crate::frontend::CheckOptions::default(),
        )
        .script
        .unwrap();
        for rules in [Rules::nethack_36(), Rules::nethack_343(), Rules::native()] {
            assert_eq!(same_as_serde(&script, rules, 0..300), 1200);
        }
    }

    /// Names that need escaping, bytes that are not UTF-8, every flag, an
    /// alignment of the level's own and one of its dungeon's, negative
    /// numbers, and every branch type.
    #[test]
    fn awkward_names_and_every_field_write_as_serde_does() {
        let name = |s: &[u8]| s.to_vec();
        let mut top = Dungeon {
            name: name(b"Top \"quoted\" \\ back\tslash\x01\x7f"),
            proto: name(b"pr\xffoto\n"),
            bones: b'"',
            size: Range { base: 12, rand: 4 },
            flags: flags::HELLISH | flags::MAZELIKE | flags::ROGUELIKE | (4 << flags::ALIGN_SHIFT),
            ..Dungeon::default()
        };
        for (i, t) in [
            BranchType::Stair,
            BranchType::NoUp,
            BranchType::NoDown,
            BranchType::Portal,
        ]
        .into_iter()
        .enumerate()
        {
            top.branches.push(Branch {
                target: format!("Side{i}").into_bytes(),
                range: Range {
                    base: 2 + i as i32,
                    rand: 2,
                },
                chain: -1,
                branch_type: t,
                up: i % 2 == 1,
                ..Branch::default()
            });
        }
        top.levels.push(Level {
            name: name("caf\u{e9} \u{1f409}".as_bytes()),
            bones: b'\\',
            range: Range { base: 1, rand: 3 },
            chance: 100,
            chain: -1,
            flags: flags::TOWN | (1 << flags::ALIGN_SHIFT),
            rndlevs: 3,
            ..Level::default()
        });
        top.levels.push(Level {
            name: name(b"plain"),
            range: Range { base: -1, rand: 0 },
            chance: 60,
            chain: -1,
            ..Level::default()
        });
        let mut script = Script {
            dungeons: vec![top],
        };
        for i in 0..4 {
            script.dungeons.push(Dungeon {
                name: format!("Side{i}").into_bytes(),
                size: Range { base: 3, rand: 0 },
                entry: -1,
                chance: if i == 2 { 50 } else { 0 },
                ..Dungeon::default()
            });
        }
        assert!(same_as_serde(&script, Rules::native(), 0..200) > 600);
    }
}
