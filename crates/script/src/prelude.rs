//! A `dungeon.lua` that draws before it sets `dungeon` (xNetHack's swaps
//! its demon lairs with two `percent(50)`, `dat/dungeon.lua:11-19`) is not
//! one script but several, one per outcome of its draws. The front end runs
//! the file once per distinct outcome and records which draw, by value,
//! leads to which script: the loader follows that tree on the game's
//! generator for a seed, and the statistics weigh each script by its
//! chance, without running Lua again.

use crate::Script;

/// The outcomes of a file's draws and the script each one gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prelude {
    pub root: PreludeNode,
    /// Distinct scripts, indexed by [`PreludeNode::Outcome`]. None of them
    /// has a prelude of its own.
    pub outcomes: Vec<Script>,
}

/// One step of the file's run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PreludeNode {
    /// The run ends here and gives `outcomes[i]`.
    Outcome(u32),
    /// The file draws `rn2(bound)`; the value picks an arm.
    Draw {
        bound: u32,
        /// The line of the file that drew (1-based).
        line: u32,
        /// In value order: arm `i` takes the values from the previous arm's
        /// `below` (0 for the first) up to its own `below`, exclusive. The
        /// last arm's `below` is `bound`.
        arms: Vec<PreludeArm>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreludeArm {
    pub below: u32,
    pub next: PreludeNode,
}

impl PreludeNode {
    /// The arm a drawn value takes.
    pub fn arm(arms: &[PreludeArm], value: u32) -> Option<&PreludeArm> {
        arms.iter().find(|a| value < a.below)
    }
}

impl Prelude {
    /// Each outcome with its chance (the draws being uniform), in the
    /// order of `outcomes`; chances of one script reached by several paths
    /// add up.
    pub fn chances(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.outcomes.len()];
        fn walk(node: &PreludeNode, p: f64, out: &mut [f64]) {
            match node {
                PreludeNode::Outcome(i) => {
                    if let Some(slot) = out.get_mut(*i as usize) {
                        *slot += p;
                    }
                }
                PreludeNode::Draw { bound, arms, .. } => {
                    let mut lo = 0;
                    for a in arms {
                        let width = a.below.saturating_sub(lo);
                        lo = a.below;
                        walk(
                            &a.next,
                            p * f64::from(width) / f64::from((*bound).max(1)),
                            out,
                        );
                    }
                }
            }
        }
        walk(&self.root, 1.0, &mut out);
        out
    }

    /// How many draws the longest run makes.
    pub fn max_draws(&self) -> usize {
        fn depth(node: &PreludeNode) -> usize {
            match node {
                PreludeNode::Outcome(_) => 0,
                PreludeNode::Draw { arms, .. } => {
                    1 + arms.iter().map(|a| depth(&a.next)).max().unwrap_or(0)
                }
            }
        }
        depth(&self.root)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_percent_fifty() -> Prelude {
        let leaf = |i| PreludeNode::Outcome(i);
        let split = |a, b| PreludeNode::Draw {
            bound: 100,
            line: 17,
            arms: vec![
                PreludeArm {
                    below: 50,
                    next: leaf(a),
                },
                PreludeArm {
                    below: 100,
                    next: leaf(b),
                },
            ],
        };
        Prelude {
            root: PreludeNode::Draw {
                bound: 100,
                line: 11,
                arms: vec![
                    PreludeArm {
                        below: 50,
                        next: split(0, 1),
                    },
                    PreludeArm {
                        below: 100,
                        next: split(2, 3),
                    },
                ],
            },
            outcomes: vec![Script::default(); 4],
        }
    }

    #[test]
    fn chances_multiply_along_a_path_and_add_over_paths() {
        let p = two_percent_fifty();
        assert_eq!(p.chances(), vec![0.25; 4]);
        assert_eq!(p.max_draws(), 2);
        let mut merged = p.clone();
        if let PreludeNode::Draw { arms, .. } = &mut merged.root {
            arms[1].next = PreludeNode::Outcome(0);
        }
        let c = merged.chances();
        assert_eq!(c[0], 0.75);
        assert_eq!(c[3], 0.0);
    }

    #[test]
    fn a_value_takes_the_first_arm_below_it() {
        let p = two_percent_fifty();
        let PreludeNode::Draw { arms, .. } = &p.root else {
            unreachable!()
        };
        assert_eq!(PreludeNode::arm(arms, 49).unwrap().below, 50);
        assert_eq!(PreludeNode::arm(arms, 50).unwrap().below, 100);
        assert!(PreludeNode::arm(arms, 100).is_none());
    }
}
