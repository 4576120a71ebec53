//! Property tests: random valid scripts survive the native format (any
//! script) and NetHack's layouts (scripts that fit them) unchanged, and the
//! readers never panic on arbitrary bytes.

use dgnkit::binary::{self, nethack, BinaryFormat, WriteOptions};
use dgnkit::options::Target;
use dgnkit::script::{flags, Branch, BranchType, Dungeon, Level, Range, Script};
use proptest::prelude::*;

fn name(max: usize) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>().prop_filter("no NUL", |b| *b != 0), 0..=max)
}

fn range(lo: i32, hi: i32) -> impl Strategy<Value = Range> {
    (lo..=hi, lo..=hi).prop_map(|(base, rand)| Range { base, rand })
}

fn branch_type() -> impl Strategy<Value = BranchType> {
    prop_oneof![
        Just(BranchType::Stair),
        Just(BranchType::NoUp),
        Just(BranchType::NoDown),
        Just(BranchType::Portal)
    ]
}

/// Flags the script model allows (`ext` adds the variant descriptors).
fn flag_bits(ext: bool) -> impl Strategy<Value = u32> {
    let known = if ext {
        binary::KNOWN_FLAGS
    } else {
        binary::NETHACK_FLAGS
    };
    any::<u32>().prop_map(move |f| f & known)
}

/// One dungeon's shape before chains are fixed: levels and branches with a
/// chain *choice* (a fraction turned into a valid index later).
#[derive(Clone, Debug)]
struct Shape {
    dungeon: Dungeon,
    level_chains: Vec<Option<u16>>,
    branch_chains: Vec<Option<u16>>,
}

/// `nethack`: only what NetHack's layout holds (23-byte names, 16-bit
/// couples, vanilla flags, no variant extras).
fn script(nethack: bool) -> impl Strategy<Value = Script> {
    let max_name = if nethack { 23 } else { 40 };
    let (lo, hi) = if nethack {
        (i32::from(i16::MIN), i32::from(i16::MAX))
    } else {
        (i32::MIN, i32::MAX)
    };
    let level = (
        name(max_name),
        proptest::option::of(name(max_name)),
        any::<u8>(),
        range(lo, hi),
        any::<i32>(),
        any::<i32>(),
        flag_bits(!nethack),
        proptest::option::of(any::<u16>()),
    )
        .prop_map(
            move |(name, display, bones, range, chance, rndlevs, flags, chain)| {
                let level = Level {
                    name,
                    display: if nethack { None } else { display },
                    bones,
                    range,
                    chance,
                    rndlevs,
                    chain: -1,
                    flags,
                };
                (level, chain)
            },
        );
    let branch = (
        name(max_name),
        range(lo, hi),
        branch_type(),
        any::<bool>(),
        proptest::option::of(any::<i32>()),
        proptest::option::of(any::<u16>()),
    )
        .prop_map(move |(target, range, branch_type, up, entry, chain)| {
            let branch = Branch {
                target,
                range,
                chain: -1,
                branch_type,
                up,
                entry: if nethack { None } else { entry },
            };
            (branch, chain)
        });
    let dungeon = (
        name(max_name),
        name(max_name),
        any::<u8>(),
        range(lo, hi),
        flag_bits(!nethack),
        any::<i32>(),
        any::<i32>(),
        proptest::option::of(any::<i32>()),
        proptest::collection::vec(level, 0..6),
        proptest::collection::vec(branch, 0..4),
    )
        .prop_map(
            move |(name, proto, bones, size, flags, chance, entry, tileset, levels, branches)| {
                let (levels, level_chains): (Vec<_>, Vec<_>) = levels.into_iter().unzip();
                let (branches, branch_chains): (Vec<_>, Vec<_>) = branches.into_iter().unzip();
                Shape {
                    dungeon: Dungeon {
                        name,
                        proto,
                        bones,
                        size,
                        flags,
                        chance,
                        entry,
                        levels,
                        branches,
                        tileset: if nethack { None } else { tileset },
                        lua: Default::default(),
                    },
                    level_chains,
                    branch_chains,
                }
            },
        );
    let max_dungeons = if nethack { 8 } else { 12 };
    proptest::collection::vec(dungeon, 0..max_dungeons).prop_map(|shapes| {
        let mut first = 0i32;
        let mut dungeons = Vec::new();
        for mut s in shapes {
            for (i, choice) in s.level_chains.iter().enumerate() {
                if let (Some(c), true) = (choice, i > 0) {
                    s.dungeon.levels[i].chain = first + i32::from(*c) % i as i32;
                }
            }
            let n = s.dungeon.levels.len();
            for (i, choice) in s.branch_chains.iter().enumerate() {
                if let (Some(c), true) = (choice, n > 0) {
                    s.dungeon.branches[i].chain = first + i32::from(*c) % n as i32;
                }
            }
            first += n as i32;
            dungeons.push(s.dungeon);
        }
        Script {
            prelude: None,
            dungeons,
        }
    })
}

/// NetHack's layout has record limits for the whole file.
fn fits_nethack(s: &Script) -> bool {
    s.dungeons.len() <= nethack::MAX_DUNGEONS
        && s.level_count() <= nethack::MAX_LEVELS
        && s.branch_count() <= nethack::MAX_BRANCHES
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn native_round_trip(s in script(false), dialect in "[a-z0-9-]{0,12}") {
        let bytes = binary::write_with(&s, Target::Native, &WriteOptions { header_from: None, dialect: &dialect }).expect("native write");
        let back = binary::read(&bytes, None).expect("native read");
        prop_assert_eq!(back.format, BinaryFormat::Native);
        prop_assert_eq!(back.dialect.as_deref(), Some(dialect.as_str()));
        prop_assert_eq!(back.script, s);
    }

    #[test]
    fn nethack_round_trip(s in script(true)) {
        prop_assume!(fits_nethack(&s));
        for target in [Target::NetHack343, Target::NetHack36] {
            let bytes = binary::write(&s, target, None).expect("nethack write");
            let expected_len = nethack::header_len(target.game().binary.unwrap()) + 4
                + nethack::DUNGEON_LEN * s.dungeons.len()
                + nethack::LEVEL_LEN * s.level_count()
                + nethack::BRANCH_LEN * s.branch_count();
            prop_assert_eq!(bytes.len(), expected_len);
            let back = binary::read(&bytes, None).expect("nethack read");
            prop_assert_eq!(back.format, target.game().binary.unwrap());
            prop_assert_eq!(&back.script, &s);
            prop_assert_eq!(binary::write(&back.script, target, Some(&bytes)).expect("rewrite"), bytes);
        }
    }

    #[test]
    fn readers_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        for forced in [None, Some(BinaryFormat::NetHack343), Some(BinaryFormat::NetHack36), Some(BinaryFormat::Native)] {
            let read = binary::read(&bytes, forced);
            let check = binary::check(&bytes, forced);
            prop_assert_eq!(read.as_ref().map(|r| r.format).map_err(Clone::clone), check.clone());
            if let Err(e) = check {
                prop_assert!(e.offset <= bytes.len());
            }
        }
    }

    /// Valid NetHack headers in front of random records exercise the record
    /// checks rather than the header detection.
    #[test]
    fn records_after_a_valid_header_never_panic(
        v36 in any::<bool>(),
        n in 0i32..4,
        body in proptest::collection::vec(any::<u8>(), 0..700),
    ) {
        let format = if v36 { BinaryFormat::NetHack36 } else { BinaryFormat::NetHack343 };
        let mut bytes = nethack::default_header(format);
        bytes.extend_from_slice(&n.to_le_bytes());
        bytes.extend_from_slice(&body);
        let read = binary::read(&bytes, None);
        prop_assert_eq!(read.as_ref().map(|r| r.format).map_err(Clone::clone), binary::check(&bytes, None));
    }
}

#[test]
fn writers_refuse_what_the_layout_cannot_hold() {
    let base = Script {
        prelude: None,
        dungeons: vec![Dungeon {
            name: b"The Dungeons of Doom".to_vec(),
            bones: b'D',
            size: Range { base: 25, rand: 5 },
            levels: vec![Level {
                name: b"oracle".to_vec(),
                chance: 100,
                chain: -1,
                ..Level::default()
            }],
            ..Dungeon::default()
        }],
    };
    binary::write(&base, Target::NetHack36, None).expect("fits");
    let refuse = |s: &Script, what: &str| {
        let e = binary::write(s, Target::NetHack36, None).expect_err(what);
        assert!(!e.message.is_empty());
        e.message
    };
    let mut s = base.clone();
    s.dungeons[0].name = vec![b'x'; 24];
    assert!(refuse(&s, "24-byte name").contains("24 bytes"));
    let mut s = base.clone();
    s.dungeons[0].levels[0].range.base = 40000;
    assert!(refuse(&s, "short overflow").contains("16-bit"));
    let mut s = base.clone();
    s.dungeons[0].flags = flags::EXT_ICEQ;
    refuse(&s, "variant flag");
    let mut s = base.clone();
    s.dungeons[0].levels[0].display = Some(b"Oracle".to_vec());
    refuse(&s, "display name");
    let mut s = base.clone();
    s.dungeons[0].levels[0].chain = 0;
    refuse(&s, "self chain");
    let mut s = base.clone();
    s.dungeons = vec![base.dungeons[0].clone(); 17];
    assert!(refuse(&s, "17 dungeons").contains("at most 16"));
    let mut s = base.clone();
    s.dungeons[0].name = b"a\0b".to_vec();
    refuse(&s, "NUL in a name");
    // A header from the other version is refused.
    let other = nethack::default_header(BinaryFormat::NetHack343);
    assert!(binary::write(&base, Target::NetHack36, Some(&other)).is_err());
    assert!(binary::write(&base, Target::Native, Some(&other)).is_err());
    // The native format has no such limits.
    let mut s = base.clone();
    s.dungeons[0].name = vec![b'x'; 300];
    s.dungeons[0].levels[0].range.base = i32::MAX;
    let bytes = binary::write(&s, Target::Native, None).expect("native has no limits");
    assert_eq!(binary::read(&bytes, None).expect("reads").script, s);
}

#[test]
fn native_reader_refusals_say_what_they_found() {
    let s = Script {
        prelude: None,
        dungeons: vec![Dungeon {
            name: b"x".to_vec(),
            ..Dungeon::default()
        }],
    };
    let good = binary::write(&s, Target::Native, None).expect("write");

    let mut newer = good.clone();
    newer[8..10].copy_from_slice(&3u16.to_le_bytes());
    let e = binary::read(&newer, None).expect_err("newer major");
    assert!(
        e.message
            .contains("written by a newer dgnkit: format 3.0, this reader knows up to 1.x"),
        "{e}"
    );

    let mut minor = good.clone();
    minor[10..12].copy_from_slice(&7u16.to_le_bytes());
    assert_eq!(
        binary::read(&minor, None)
            .expect("newer minor reads")
            .script,
        s
    );

    let mut bad_sum = good.clone();
    let last = bad_sum.len() - 1;
    bad_sum[last] ^= 0x40;
    assert!(binary::read(&bad_sum, None)
        .expect_err("checksum")
        .message
        .contains("checksum"));

    let mut long = good.clone();
    long.push(0);
    assert!(binary::read(&long, None)
        .expect_err("trailing")
        .message
        .contains("trailing"));

    let e = binary::read(b"DGNKIX\0\x1a0000000000000000", Some(BinaryFormat::Native))
        .expect_err("magic");
    assert!(e.message.contains("magic"), "{e}");

    // A chain out of range, with a valid checksum.
    let bad = Script {
        prelude: None,
        dungeons: vec![Dungeon {
            name: b"x".to_vec(),
            levels: vec![Level {
                name: b"a".to_vec(),
                chain: 5,
                ..Level::default()
            }],
            ..Dungeon::default()
        }],
    };
    let payload = postcard_payload(&bad);
    let mut file = good[..8].to_vec();
    file.extend_from_slice(&1u16.to_le_bytes());
    file.extend_from_slice(&0u16.to_le_bytes());
    file.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    file.extend_from_slice(&binary::crc32(&payload).to_le_bytes());
    file.extend_from_slice(&payload);
    let e = binary::read(&file, None).expect_err("chain");
    assert!(e.message.contains("chain 5"), "{e}");
}

/// The payload the native writer would produce, bypassing its validation.
fn postcard_payload(s: &Script) -> Vec<u8> {
    #[derive(serde::Serialize)]
    struct Body<'a> {
        dialect: &'a str,
        script: &'a Script,
    }
    postcard::to_stdvec(&Body {
        dialect: "vanilla",
        script: s,
    })
    .expect("encode")
}

#[test]
fn nethack_reader_refusals_name_the_offset() {
    let s = Script {
        prelude: None,
        dungeons: vec![Dungeon {
            name: b"Main".to_vec(),
            levels: vec![Level {
                name: b"a".to_vec(),
                chance: 100,
                chain: -1,
                ..Level::default()
            }],
            branches: vec![Branch {
                target: b"Other".to_vec(),
                chain: 0,
                ..Branch::default()
            }],
            ..Dungeon::default()
        }],
    };
    let good = binary::write(&s, Target::NetHack343, None).expect("write");
    let level_at = 32 + 4 + 76;
    let branch_at = level_at + 48;

    let mut b = good.clone();
    b[branch_at + 32] = 9;
    let e = binary::read(&b, None).expect_err("branch type");
    assert_eq!(e.offset, branch_at + 32);
    assert!(e.message.contains("type 9"), "{e}");

    let mut b = good.clone();
    b[level_at + 36..level_at + 40].copy_from_slice(&(-2i32).to_le_bytes());
    let e = binary::read(&b, None).expect_err("unresolved chain");
    assert_eq!(e.offset, level_at + 36);
    assert!(e.message.contains("-2"), "{e}");

    let mut b = good.clone();
    b[level_at..level_at + 24].fill(b'z');
    let e = binary::read(&b, None).expect_err("no NUL");
    assert_eq!(e.offset, level_at);
    assert!(e.message.contains("NUL"), "{e}");

    let mut b = good.clone();
    b[32 + 4 + 60] = 200;
    let e = binary::read(&b, None).expect_err("count");
    assert!(e.message.contains("200 levels"), "{e}");

    let mut b = good.clone();
    b[32..36].copy_from_slice(&i32::MAX.to_le_bytes());
    assert!(binary::read(&b, None)
        .expect_err("huge count")
        .message
        .contains("at most"));

    let mut b = good.clone();
    b[level_at + 40] = 0x80;
    assert!(binary::read(&b, None)
        .expect_err("flags")
        .message
        .contains("unknown"));

    let mut b = good.clone();
    b[branch_at + 36] = 2;
    assert!(binary::read(&b, None)
        .expect_err("direction")
        .message
        .contains("direction 2"));

    // The dungeon's counts are checked against the bytes left before any
    // record is read.
    let e = binary::read(&good[..good.len() - 1], None).expect_err("truncated");
    assert_eq!(e.offset, 32 + 4 + 60);
    assert!(
        e.message.contains("1 levels and 1 branches") && e.message.contains("remain"),
        "{e}"
    );
    let e = binary::read(&good[..30], None).expect_err("truncated header");
    assert_eq!(e.offset, 30);
    assert!(e.message.contains("truncated"), "{e}");

    let e = binary::read(b"\x00\x07\x06\x02\0\0\0\0", None).expect_err("unknown version");
    assert_eq!(e.offset, 0);
    assert!(e.message.contains("version"), "{e}");
}
