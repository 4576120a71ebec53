//! The outline of a document (dungeons holding their levels and branches) and
//! the symbols of every open document.

use crate::state::DocView;
use dgnkit::model::{DocSymbol, DocSymbolKind};
use tower_lsp_server::ls_types::{DocumentSymbol, Location, OneOf, SymbolKind, WorkspaceSymbol};

fn kind(k: DocSymbolKind) -> SymbolKind {
    match k {
        DocSymbolKind::Dungeon => SymbolKind::NAMESPACE,
        DocSymbolKind::Level => SymbolKind::CLASS,
        DocSymbolKind::Branch => SymbolKind::EVENT,
    }
}

fn convert(view: DocView<'_>, s: &DocSymbol) -> DocumentSymbol {
    let range = view.range(view.to_real(s.span));
    let mut selection_range = view.range(view.to_real(s.selection));
    // The selection must lie inside the range; an empty name at the edge of
    // a construct could otherwise fall outside after conversion.
    if selection_range.start < range.start || selection_range.end > range.end {
        selection_range = range;
    }
    #[allow(deprecated)]
    DocumentSymbol {
        name: if s.name.is_empty() {
            "\"\"".to_string()
        } else {
            s.name.clone()
        },
        detail: Some(s.detail.clone()),
        kind: kind(s.kind),
        tags: None,
        deprecated: None,
        range,
        selection_range,
        children: (!s.children.is_empty())
            .then(|| s.children.iter().map(|c| convert(view, c)).collect()),
    }
}

pub fn document_symbols(view: DocView<'_>) -> Vec<DocumentSymbol> {
    view.model()
        .document_symbols()
        .iter()
        .map(|s| convert(view, s))
        .collect()
}

/// Dungeons, levels and branch ends of every open document whose name
/// contains `query` (ignoring case).
pub fn workspace_symbols<'a>(
    views: impl Iterator<Item = DocView<'a>>,
    query: &str,
) -> Vec<WorkspaceSymbol> {
    let query = query.to_lowercase();
    let mut out = Vec::new();
    for view in views {
        for dungeon in view.model().document_symbols() {
            let container = dungeon.name.clone();
            let mut push = |s: &DocSymbol, container: Option<String>| {
                if s.kind == DocSymbolKind::Branch || !s.name.to_lowercase().contains(&query) {
                    return;
                }
                out.push(WorkspaceSymbol {
                    name: s.name.clone(),
                    kind: kind(s.kind),
                    tags: None,
                    container_name: container,
                    location: OneOf::Left(Location {
                        uri: view.uri.clone(),
                        range: view.range(view.to_real(s.selection)),
                    }),
                    data: None,
                });
            };
            push(&dungeon, None);
            for child in &dungeon.children {
                push(child, Some(container.clone()));
            }
        }
    }
    out
}
