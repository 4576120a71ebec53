//! Look-ups for editors: what is under the cursor, where it is defined,
//! where it is used, and the file's outline.

use super::*;

/// Something with a name that can be defined and referenced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    Dungeon(DungeonId),
    Level(LevelId),
}

/// One place a symbol's name is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occurrence {
    /// Between the quotes.
    pub span: Span,
    /// A definition (`DUNGEON:` or a level statement's name) rather than a
    /// reference (a branch target, a chain).
    pub definition: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocSymbolKind {
    Dungeon,
    Level,
    Branch,
}

/// One entry of the outline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocSymbol {
    /// The name, decoded for display.
    pub name: String,
    /// A short description ("(25, 5)", "@ (5, 5)", "-> The Gnomish Mines").
    pub detail: String,
    pub kind: DocSymbolKind,
    /// The whole construct (a dungeon's statements, a level's statement).
    pub span: Span,
    /// The name to select.
    pub selection: Span,
    pub children: Vec<DocSymbol>,
}

fn couple_text(c: &Couple) -> String {
    format!("({}, {})", c.base, c.rand)
}

impl Model {
    /// The dungeon or level whose name (definition or reference) contains
    /// `offset`, with the name's inner span. An offset just after the last
    /// character (the cursor at the end of a word) also counts.
    pub fn symbol_at(&self, offset: u32) -> Option<(Symbol, Span)> {
        let hit = |s: Span| s.start <= offset && offset <= s.end;
        for d in &self.dungeons {
            if hit(d.name.inner) {
                return Some((
                    Symbol::Dungeon(d.first_of_name.unwrap_or(d.id)),
                    d.name.inner,
                ));
            }
        }
        for b in &self.branches {
            if hit(b.target.inner) {
                return b
                    .target_dungeon
                    .map(|t| (Symbol::Dungeon(t), b.target.inner));
            }
            if let Some(c) = &b.chain {
                if hit(c.name.inner) {
                    return c
                        .target
                        .referent()
                        .map(|l| (Symbol::Level(l), c.name.inner));
                }
            }
        }
        for l in &self.levels {
            if hit(l.name.inner) {
                return Some((Symbol::Level(l.id), l.name.inner));
            }
            if let Some(c) = &l.chain {
                if hit(c.name.inner) {
                    return c
                        .target
                        .referent()
                        .map(|t| (Symbol::Level(t), c.name.inner));
                }
            }
        }
        None
    }

    /// The span of a symbol's definition (between the quotes).
    pub fn definition(&self, symbol: Symbol) -> Span {
        match symbol {
            Symbol::Dungeon(d) => self.dungeon(d).name.inner,
            Symbol::Level(l) => self.level(l).name.inner,
        }
    }

    /// The symbol's name as written.
    pub fn symbol_name(&self, symbol: Symbol) -> &[u8] {
        match symbol {
            Symbol::Dungeon(d) => &self.dungeon(d).name.bytes,
            Symbol::Level(l) => &self.level(l).name.bytes,
        }
    }

    /// Every place the symbol is written, in file order, definition included.
    /// For a dungeon that is every DUNGEON line with its name (dNAO
    /// alternates) and every branch to it; for a level its statement and
    /// every chain that names it.
    pub fn references(&self, symbol: Symbol) -> Vec<Occurrence> {
        let mut out = Vec::new();
        match symbol {
            Symbol::Dungeon(d) => {
                let name = &self.dungeon(d).name.bytes;
                for o in self.dungeons.iter().filter(|o| &o.name.bytes == name) {
                    out.push(Occurrence {
                        span: o.name.inner,
                        definition: true,
                    });
                }
                for b in self
                    .branches
                    .iter()
                    .filter(|b| b.target_dungeon.is_some() && &b.target.bytes == name)
                {
                    out.push(Occurrence {
                        span: b.target.inner,
                        definition: false,
                    });
                }
            }
            Symbol::Level(l) => {
                out.push(Occurrence {
                    span: self.level(l).name.inner,
                    definition: true,
                });
                let chains = self
                    .levels
                    .iter()
                    .filter_map(|o| o.chain.as_ref())
                    .chain(self.branches.iter().filter_map(|b| b.chain.as_ref()));
                for c in chains.filter(|c| c.target.referent() == Some(l)) {
                    out.push(Occurrence {
                        span: c.name.inner,
                        definition: false,
                    });
                }
            }
        }
        out.sort_by_key(|o| o.span);
        out
    }

    /// The outline: every dungeon with its levels and branches.
    pub fn document_symbols(&self) -> Vec<DocSymbol> {
        self.dungeons
            .iter()
            .map(|d| {
                let mut children: Vec<DocSymbol> = self
                    .levels_of(d.id)
                    .map(|l| DocSymbol {
                        name: l.name.text(),
                        detail: match &l.chain {
                            Some(c) => format!("{} + {}", c.name.text(), couple_text(&l.placement)),
                            None => format!("@ {}", couple_text(&l.placement)),
                        },
                        kind: DocSymbolKind::Level,
                        span: l.span,
                        selection: l.name.inner,
                        children: Vec::new(),
                    })
                    .chain(self.branches_of(d.id).map(|b| DocSymbol {
                        name: b.target.text(),
                        detail: format!("branch {}", couple_text(&b.placement)),
                        kind: DocSymbolKind::Branch,
                        span: b.span,
                        selection: b.target.inner,
                        children: Vec::new(),
                    }))
                    .collect();
                children.sort_by_key(|c| c.span);
                DocSymbol {
                    name: d.name.text(),
                    detail: couple_text(&d.size),
                    kind: DocSymbolKind::Dungeon,
                    span: d.extent,
                    selection: d.name.inner,
                    children,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Dialect;
    use dgnkit_grammar::{parse, ParseOptions};

    const SRC: &str = "DUNGEON: \"Main\" \"D\" (25, 5)\n\
                       BRANCH: \"Mines\" @ (2, 3)\n\
                       LEVEL: \"oracle\" \"O\" @ (5, 5)\n\
                       CHAINLEVEL: \"below\" \"B\" \"oracle\" + (1, 0)\n\
                       CHAINBRANCH: \"Tower\" \"oracle\" + (2, 0)\n\
                       DUNGEON: \"Mines\" \"M\" (8, 2)\n\
                       DUNGEON: \"Tower\" \"T\" (3, 0)\n";

    fn model() -> Model {
        build(
            &parse(SRC.as_bytes(), &ParseOptions::default()).file,
            Dialect::Vanilla,
        )
    }

    fn offset(needle: &str, nth: usize) -> u32 {
        SRC.match_indices(needle)
            .nth(nth)
            .map(|(i, _)| i as u32 + 1)
            .unwrap()
    }

    #[test]
    fn symbols_resolve_from_definitions_and_references() {
        let m = model();
        let oracle = m.level_by_name(b"oracle").unwrap();
        // The chain names (second and third "oracle") refer to the level.
        for nth in 0..3 {
            let (sym, span) = m.symbol_at(offset("\"oracle\"", nth)).unwrap();
            assert_eq!(sym, Symbol::Level(oracle));
            assert_eq!(&SRC[span.range()], "oracle");
        }
        let mines = m.dungeon_by_name(b"Mines").unwrap();
        assert_eq!(
            m.symbol_at(offset("\"Mines\"", 0)).map(|s| s.0),
            Some(Symbol::Dungeon(mines))
        );
        assert_eq!(m.symbol_at(0), None);
    }

    #[test]
    fn references_list_definition_and_uses() {
        let m = model();
        let oracle = m.level_by_name(b"oracle").unwrap();
        let refs = m.references(Symbol::Level(oracle));
        assert_eq!(refs.len(), 3);
        assert_eq!(refs.iter().filter(|r| r.definition).count(), 1);
        assert!(refs.iter().all(|r| &SRC[r.span.range()] == "oracle"));
        let tower = m.dungeon_by_name(b"Tower").unwrap();
        let refs = m.references(Symbol::Dungeon(tower));
        assert_eq!(refs.len(), 2);
        assert_eq!(&SRC[m.definition(Symbol::Dungeon(tower)).range()], "Tower");
    }

    #[test]
    fn document_symbols_nest_levels_and_branches() {
        let m = model();
        let outline = m.document_symbols();
        assert_eq!(outline.len(), 3);
        let main = &outline[0];
        assert_eq!(main.name, "Main");
        let kinds: Vec<DocSymbolKind> = main.children.iter().map(|c| c.kind).collect();
        assert_eq!(
            kinds,
            [
                DocSymbolKind::Branch,
                DocSymbolKind::Level,
                DocSymbolKind::Level,
                DocSymbolKind::Branch
            ]
        );
        // A dungeon's extent covers its statements, not the next dungeon.
        assert!(main.span.end <= offset("DUNGEON: \"Mines\"", 0));
        assert!(main
            .children
            .iter()
            .all(|c| main.span.start <= c.span.start && c.span.end <= main.span.end));
    }
}
