use super::*;

#[test]
fn the_fail_codes_are_the_strings_the_json_has_always_had() {
    let owner = || RangeOwner::Level { name: "x".into() };
    let s = String::new;
    let errors = [
        (
            LoadError::TooManyDungeons { count: 1, max: 1 },
            "too-many-dungeons",
        ),
        (
            LoadError::TooManyLevels { count: 1, max: 1 },
            "too-many-levels",
        ),
        (
            LoadError::TooManyBranches { count: 1, max: 1 },
            "too-many-branches",
        ),
        (
            LoadError::BranchNotFound { dungeon: s() },
            "branch-not-found",
        ),
        (
            LoadError::ParentNotResolved { dungeon: s() },
            "parent-not-resolved",
        ),
        (
            LoadError::BaseOutOfRange {
                owner: owner(),
                dungeon: s(),
                base: 0,
                num_levels: 1,
            },
            "base-out-of-range",
        ),
        (
            LoadError::BranchLevelHangs {
                dungeon: s(),
                rand: -2,
                level: 1,
                drawn: 1,
            },
            "branch-level-hangs",
        ),
        (
            LoadError::EmptyChain {
                owner: owner(),
                chain: 0,
            },
            "empty-chain",
        ),
        (
            LoadError::ChainShifted {
                owner: owner(),
                chain: 0,
            },
            "chain-shifted",
        ),
        (LoadError::CouldntPlace { dungeon: s() }, "couldnt-place"),
        (
            LoadError::PlacementTooCostly {
                dungeon: s(),
                draws: 1,
            },
            "placement-too-costly",
        ),
        (
            LoadError::KnoxNotReachable { level: s() },
            "knox-not-reachable",
        ),
        (LoadError::PlaneMissing { level: s() }, "plane-missing"),
        (LoadError::PlanesLoop, "planes-loop"),
        (LoadError::MissingDungeon { name: s() }, "missing-dungeon"),
        (
            LoadError::NotReproduced {
                game: "g",
                target: "t",
            },
            "not-reproduced",
        ),
        (LoadError::Inputs { message: s() }, "loader-inputs"),
        (
            LoadError::ChainNotFound {
                owner: owner(),
                level: s(),
            },
            "chain-not-found",
        ),
        (
            LoadError::Unsupported {
                dungeon: s(),
                feature: "f",
            },
            "unsupported",
        ),
        (
            LoadError::TooManyLedgerLevels { count: 1, max: 1 },
            "too-many-ledger-levels",
        ),
        (LoadError::NoValidLevel { name: s() }, "no-valid-level"),
    ];
    for (error, code) in errors {
        assert_eq!(error.code(), code, "{error:?}");
        assert_eq!(error.fail_code().code(), code, "{error:?}");
    }
}

#[test]
fn every_fail_code_is_read_back_from_its_code_and_no_two_share_one() {
    for c in FailCode::ALL {
        assert_eq!(FailCode::from_code(c.code()), Some(c));
    }
    let mut codes: Vec<&str> = FailCode::ALL.iter().map(|c| c.code()).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), FailCode::ALL.len());
    assert_eq!(FailCode::from_code("no-such-code"), None);
}
