//! Diagnostics in LSP form, and their fixes as quick fixes.

use crate::state::DocView;
use dgnkit_grammar::{Diagnostic, Severity};
use std::collections::HashMap;
use tower_lsp_server::ls_types::{
    self as lsp, CodeAction, CodeActionKind, CodeActionOrCommand, DiagnosticRelatedInformation,
    DiagnosticSeverity, Location, NumberOrString, Range, TextEdit, WorkspaceEdit,
};

pub const SOURCE: &str = "dgnkit";

/// The document's diagnostics as the editor shows them.
pub fn publish(view: DocView<'_>) -> Vec<lsp::Diagnostic> {
    view.all_diagnostics()
        .iter()
        .map(|d| to_lsp(view, d))
        .collect()
}

pub fn to_lsp(view: DocView<'_>, d: &Diagnostic) -> lsp::Diagnostic {
    let mut message = d.message.clone();
    for note in &d.notes {
        message.push_str("\nnote: ");
        message.push_str(note);
    }
    if let Some(lint) = d.lint {
        message.push_str(&format!("\n(lint `{lint}`)"));
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .map(|l| DiagnosticRelatedInformation {
            location: Location {
                uri: view.uri.clone(),
                range: view.range(l.span),
            },
            message: l.message.clone(),
        })
        .collect();
    lsp::Diagnostic {
        range: view.range(d.span),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Note => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.code.to_string())),
        code_description: None,
        source: Some(SOURCE.to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

fn overlaps(a: Range, b: Range) -> bool {
    let key = |p: lsp::Position| (p.line, p.character);
    key(a.start) <= key(b.end) && key(b.start) <= key(a.end)
}

/// A quick fix for every diagnostic with a fix that touches `range`.
pub fn code_actions(view: DocView<'_>, range: Range) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    for d in view.all_diagnostics().iter() {
        let Some(fix) = &d.fix else { continue };
        let lsp_diag = to_lsp(view, d);
        if !overlaps(lsp_diag.range, range) {
            continue;
        }
        let edits: Vec<TextEdit> = fix
            .edits
            .iter()
            .map(|e| TextEdit {
                range: view.range(e.span),
                new_text: e.replacement.clone(),
            })
            .collect();
        let mut changes = HashMap::new();
        changes.insert(view.uri.clone(), edits);
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: fix.message.clone(),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![lsp_diag]),
            edit: Some(WorkspaceEdit {
                changes: Some(changes),
                document_changes: None,
                change_annotations: None,
            }),
            command: None,
            is_preferred: Some(true),
            disabled: None,
            data: None,
        }));
    }
    out
}
