//! Go to definition, find references and rename, for dungeon names (DUNGEON
//! lines and branch targets) and level names (level statements and chains).

use crate::analysis::check_options;
use crate::state::DocView;
use dgnkit::model::{display_bytes, Symbol};
use dgnkit_grammar::Span;
use std::collections::HashMap;
use tower_lsp_server::ls_types::{
    Location, Position, PrepareRenameResponse, TextEdit, WorkspaceEdit,
};

/// The symbol under the cursor and the real span of the name there.
pub fn symbol_at(view: DocView<'_>, position: Position) -> Option<(Symbol, Span)> {
    let offset = view.canon_offset(position)?;
    let (symbol, span) = view.model().symbol_at(offset)?;
    Some((symbol, view.to_real(span)))
}

pub fn definition(view: DocView<'_>, position: Position) -> Option<Location> {
    let (symbol, _) = symbol_at(view, position)?;
    let span = view.to_real(view.model().definition(symbol));
    Some(Location {
        uri: view.uri.clone(),
        range: view.range(span),
    })
}

pub fn references(
    view: DocView<'_>,
    position: Position,
    include_declaration: bool,
) -> Option<Vec<Location>> {
    let (symbol, _) = symbol_at(view, position)?;
    let locations = view
        .model()
        .references(symbol)
        .into_iter()
        .filter(|o| include_declaration || !o.definition)
        .map(|o| Location {
            uri: view.uri.clone(),
            range: view.range(view.to_real(o.span)),
        })
        .collect();
    Some(locations)
}

pub fn prepare_rename(view: DocView<'_>, position: Position) -> Option<PrepareRenameResponse> {
    let (symbol, span) = symbol_at(view, position)?;
    Some(PrepareRenameResponse::RangeWithPlaceholder {
        range: view.range(span),
        placeholder: display_bytes(view.model().symbol_name(symbol)),
    })
}

/// The edits renaming the symbol under the cursor, or why it cannot be done.
/// `Ok(None)` when there is nothing to rename there.
pub fn rename(
    view: DocView<'_>,
    position: Position,
    new_name: &str,
) -> Result<Option<WorkspaceEdit>, String> {
    let Some((symbol, _)) = symbol_at(view, position) else {
        return Ok(None);
    };
    let model = view.model();
    validate(view, symbol, new_name)?;
    let edits: Vec<TextEdit> = model
        .references(symbol)
        .into_iter()
        .map(|o| TextEdit {
            range: view.range(view.to_real(o.span)),
            new_text: new_name.to_string(),
        })
        .collect();
    let mut changes = HashMap::new();
    changes.insert(view.uri.clone(), edits);
    Ok(Some(WorkspaceEdit {
        changes: Some(changes),
        document_changes: None,
        change_annotations: None,
    }))
}

fn validate(view: DocView<'_>, symbol: Symbol, new_name: &str) -> Result<(), String> {
    let what = match symbol {
        Symbol::Dungeon(_) => "dungeon",
        Symbol::Level(_) => "level",
    };
    if new_name.is_empty() {
        return Err(format!("a {what} name cannot be empty"));
    }
    if new_name.contains('"') {
        return Err(format!(
            "a {what} name cannot contain `\"`: strings in dungeon.def have no escapes"
        ));
    }
    // The new name replaces the text between the quotes (or long
    // brackets) of each string as written: what would need an escape or
    // end a long string is refused rather than escaped.
    if view.is_lua() && (new_name.contains(['\'', '\\']) || new_name.contains("]]")) {
        return Err(format!(
            "a {what} name in dungeon.lua cannot contain `'`, `\\` or `]]` (they would need escapes)"
        ));
    }
    if new_name.chars().any(char::is_control) {
        return Err(format!(
            "a {what} name cannot contain control characters or line breaks"
        ));
    }
    let model = view.model();
    let bytes = new_name.as_bytes();
    if bytes == model.symbol_name(symbol) {
        return Ok(());
    }
    let options = check_options(&view.config());
    let limits = options.dialect.limits(options.target.game().check_game());
    let limit = match symbol {
        Symbol::Dungeon(_) => limits.dungeon_name,
        Symbol::Level(_) => limits.level_name,
    };
    if let Some(max) = limit {
        if bytes.len() > max {
            return Err(format!(
                "\"{new_name}\" is {} bytes long; {} keeps at most {max} bytes of a {what} name",
                bytes.len(),
                options.target.name()
            ));
        }
    }
    match symbol {
        Symbol::Dungeon(_) => {
            if model.dungeon_by_name(bytes).is_some() {
                return Err(format!("a dungeon named \"{new_name}\" already exists"));
            }
        }
        Symbol::Level(_) => {
            if let Some(other) = model.level_by_name(bytes) {
                let dungeon = model.dungeon(model.level(other).dungeon).name.text();
                return Err(format!(
                    "a level named \"{new_name}\" already exists (in \"{dungeon}\"); NetHack finds levels by name, so two would clash"
                ));
            }
        }
    }
    Ok(())
}
