//! The LSP shell: capabilities, and each request handed to a feature under
//! the state lock. A panic in a feature (none is expected: the library never
//! panics on input) is caught, answered with an internal error, and the
//! database is rebuilt from the documents' texts.

use crate::compare;
use crate::config::Config;
use crate::features::{
    completion, diagnostics, formatting, hover, inlay, navigation, semantic_tokens, symbols,
};
use crate::heavy;
use crate::odds;
use crate::state::{Access, DocView, State};
use crate::statistics;
use crate::transport;
use serde_json::Value;
use std::borrow::Cow;
use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService};

/// LSP's `RequestFailed`: the request was valid but could not be done.
const REQUEST_FAILED: i64 = -32803;

pub struct Backend {
    client: Client,
    state: Arc<Mutex<State>>,
    /// The client can be asked to refresh inlay hints (when statistics arrive).
    inlay_refresh: Arc<AtomicBool>,
    /// Set by `shutdown`: an `exit` after it is a clean exit.
    shut_down: Arc<AtomicBool>,
    access: Access,
}

/// The service and the socket that carries the server's own messages.
pub fn service() -> (LspService<Backend>, tower_lsp_server::ClientSocket) {
    service_with_flag(Arc::default())
}

/// As [`service`]; `shut_down` is set when the client asks to shut down.
pub fn service_with_flag(
    shut_down: Arc<AtomicBool>,
) -> (LspService<Backend>, tower_lsp_server::ClientSocket) {
    service_with(shut_down, Access::Local)
}

/// As [`service_with_flag`], for a server with `access`.
pub fn service_with(
    shut_down: Arc<AtomicBool>,
    access: Access,
) -> (LspService<Backend>, tower_lsp_server::ClientSocket) {
    LspService::build(|client| Backend {
        shut_down,
        state: Arc::new(Mutex::new(State::with_access(Config::default(), access))),
        access,
        ..Backend::new(client)
    })
    .custom_method(transport::MALFORMED_METHOD, Backend::malformed)
    .finish()
}

/// Runs `f` on the state; a panic becomes an internal error and the state
/// is rebuilt from the documents' texts.
fn with_state_in<T>(state: &Mutex<State>, f: impl FnOnce(&mut State) -> T) -> Result<T> {
    let mut guard = match state.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    };
    match catch_unwind(AssertUnwindSafe(|| f(&mut guard))) {
        Ok(v) => Ok(v),
        Err(_) => {
            let rebuilt = catch_unwind(AssertUnwindSafe(|| {
                let config = guard.config();
                State::restore(config, guard.access(), guard.snapshot())
            }));
            *guard = rebuilt.unwrap_or_default();
            Err(Error::internal_error())
        }
    }
}

/// Publishes the documents' diagnostics: at once what is known, and again,
/// complete, when their layout-odds checks finish in the background (see
/// [`odds`]). Boxed: the background task publishes through it again.
fn publish_in(
    state: Arc<Mutex<State>>,
    client: Client,
    uris: Vec<Uri>,
) -> Pin<Box<dyn Future<Output = ()> + Send>> {
    Box::pin(async move {
        let (batches, jobs) = with_state_in(&state, |state| {
            let jobs: Vec<odds::Job> = uris.iter().filter_map(|u| state.prepare_odds(u)).collect();
            let batches: Vec<_> = uris
                .iter()
                .filter_map(|uri| {
                    state
                        .doc(uri)
                        .map(|view| (uri.clone(), diagnostics::publish(view), view.version))
                })
                .collect();
            (batches, jobs)
        })
        .unwrap_or_default();
        for (uri, diags, version) in batches {
            client.publish_diagnostics(uri, diags, Some(version)).await;
        }
        for job in jobs {
            spawn_odds(state.clone(), client.clone(), job);
        }
    })
}

fn spawn_odds(state: Arc<Mutex<State>>, client: Client, job: odds::Job) {
    tokio::spawn(async move {
        let uri = job.uri.clone();
        // On the statistics thread too: on a large file these checks hold
        // tens of megabytes while they run, beside a computation otherwise.
        let done = tokio::task::spawn_blocking(move || heavy::run(move || job.run())).await;
        let next = with_state_in(&state, |s| match done {
            Ok(Ok((uri, key, odds))) => {
                s.odds.finish(uri.clone(), key, odds);
                if s.odds_current(&uri) {
                    Next::Publish
                } else {
                    // The document moved on while this ran (and its own
                    // job waited for this one): start that job.
                    s.prepare_odds(&uri)
                        .map_or(Next::Nothing, |j| Next::Run(Box::new(j)))
                }
            }
            // A job that panicked is not retried until the next edit.
            _ => {
                s.odds.abandon(&uri);
                Next::Nothing
            }
        })
        .unwrap_or(Next::Nothing);
        match next {
            Next::Publish => publish_in(state, client, vec![uri]).await,
            Next::Run(job) => spawn_odds(state, client, *job),
            Next::Nothing => {}
        }
    });
}

/// What follows a finished layout-odds job.
enum Next {
    Publish,
    Run(Box<odds::Job>),
    Nothing,
}

fn failed(message: impl Into<Cow<'static, str>>) -> Error {
    Error {
        code: ErrorCode::ServerError(REQUEST_FAILED),
        message: message.into(),
        data: None,
    }
}

impl Backend {
    pub fn new(client: Client) -> Self {
        Backend {
            client,
            state: Arc::default(),
            inlay_refresh: Arc::default(),
            shut_down: Arc::default(),
            access: Access::Local,
        }
    }

    /// Runs `f` on the state; a panic becomes an internal error and the
    /// state is rebuilt.
    fn with_state<T>(&self, f: impl FnOnce(&mut State) -> T) -> Result<T> {
        with_state_in(&self.state, f)
    }

    /// Runs `f` on an open document after making sure its statistics are
    /// ready or on their way (computed in the background).
    fn with_doc_stats<T>(&self, uri: &Uri, f: impl FnOnce(DocView<'_>) -> T) -> Result<Option<T>> {
        let (result, job) = self.with_state(|state| {
            let job = state.prepare_stats(uri);
            (state.doc(uri).map(f), job)
        })?;
        if let Some(job) = job {
            self.spawn_stats(job);
        }
        Ok(result)
    }

    fn spawn_stats(&self, job: statistics::Job) {
        let state = self.state.clone();
        let client = self.client.clone();
        let refresh = self.inlay_refresh.load(Ordering::SeqCst);
        tokio::spawn(async move {
            let uri = job.uri.clone();
            let done = tokio::task::spawn_blocking(move || heavy::run(move || job.run())).await;
            {
                let mut guard = match state.lock() {
                    Ok(g) => g,
                    Err(poisoned) => poisoned.into_inner(),
                };
                match done {
                    Ok(Ok((uri, key, stats))) => guard.stats.finish(uri, key, stats),
                    _ => guard.stats.abandon(&uri),
                }
            }
            if refresh {
                let _ = client.inlay_hint_refresh().await;
            }
        });
    }

    /// Runs `f` on an open document; `None` when the document is not open.
    fn with_doc<T>(&self, uri: &Uri, f: impl FnOnce(DocView<'_>) -> T) -> Result<Option<T>> {
        self.with_state(|state| state.doc(uri).map(f))
    }

    /// Answers a malformed message (see [`transport`]) with its error.
    async fn malformed(&self, params: transport::Malformed) -> Result<()> {
        Err(Error {
            code: ErrorCode::from(params.code),
            message: params.message.into(),
            data: None,
        })
    }

    /// The bytes the server holds for a document (for tests and tools).
    pub fn document_text(&self, uri: &Uri) -> Option<Vec<u8>> {
        self.with_doc(uri, |view| view.text().to_vec())
            .ok()
            .flatten()
    }

    /// How many times the analysis has run (what incremental edits save).
    pub fn analysis_runs(&self) -> usize {
        self.with_state(|state| state.db.analysis_runs())
            .unwrap_or(0)
    }

    async fn publish(&self, uris: Vec<Uri>) {
        publish_in(self.state.clone(), self.client.clone(), uris).await;
    }

    async fn report(&self, problems: Vec<String>) {
        for p in problems {
            self.client.show_message(MessageType::WARNING, p).await;
        }
    }

    async fn apply_settings(&self, value: &Value) {
        let problems = self
            .with_state(|state| {
                let (config, problems) = Config::from_json(&state.config(), value);
                state.set_config(config);
                problems
            })
            .unwrap_or_default();
        self.report(problems).await;
    }

    fn open_uris(&self) -> Vec<Uri> {
        self.with_state(|state| state.docs.keys().cloned().collect())
            .unwrap_or_default()
    }
}

/// The capabilities of an editor's own server.
pub fn capabilities() -> ServerCapabilities {
    capabilities_for(Access::Local)
}

/// The capabilities of a server with `access`: a sandboxed one offers no
/// command (its only command reads a file and runs git).
pub fn capabilities_for(access: Access) -> ServerCapabilities {
    let commands = if access.is_sandboxed() {
        None
    } else {
        Some(ExecuteCommandOptions {
            commands: vec![compare::COMMAND.to_string()],
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })
    };
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                will_save: None,
                will_save_wait_until: None,
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["\"".into(), ":".into(), " ".into(), "\t".into()]),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, CodeActionKind::SOURCE]),
            work_done_progress_options: WorkDoneProgressOptions::default(),
            resolve_provider: Some(false),
        })),
        document_formatting_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                work_done_progress_options: WorkDoneProgressOptions::default(),
                legend: semantic_tokens::legend(),
                range: Some(false),
                full: Some(SemanticTokensFullOptions::Bool(true)),
            },
        )),
        inlay_hint_provider: Some(OneOf::Left(true)),
        execute_command_provider: commands,
        ..ServerCapabilities::default()
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let refresh = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.inlay_hint.as_ref())
            .and_then(|i| i.refresh_support);
        self.inlay_refresh
            .store(refresh == Some(true), Ordering::SeqCst);
        if let Some(options) = &params.initialization_options {
            self.apply_settings(options).await;
        }
        Ok(InitializeResult {
            capabilities: capabilities_for(self.access),
            server_info: Some(ServerInfo {
                name: "dgn-lsp".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
            offset_encoding: None,
        })
    }

    async fn shutdown(&self) -> Result<()> {
        self.shut_down.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        let uri = doc.uri.clone();
        let refused = self
            .with_state(|state| match state.refuse_open(&doc.uri) {
                Some(why) => Some(why),
                None => {
                    state.open(doc.uri, doc.version, doc.text);
                    None
                }
            })
            .unwrap_or(None);
        if let Some(why) = refused {
            self.client.show_message(MessageType::WARNING, why).await;
            return;
        }
        self.publish(vec![uri]).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let version = params.text_document.version;
        let known = self
            .with_state(|state| state.change(&uri, version, params.content_changes))
            .unwrap_or(false);
        if known {
            self.publish(vec![uri]).await;
        }
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        self.publish(vec![params.text_document.uri]).await;
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        let _ = self.with_state(|state| state.close(&uri));
        self.client.publish_diagnostics(uri, Vec::new(), None).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        self.apply_settings(&params.settings).await;
        self.publish(self.open_uris()).await;
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let p = params.text_document_position_params;
        Ok(self
            .with_doc_stats(&p.text_document.uri, |view| hover::hover(view, p.position))?
            .flatten())
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let p = params.text_document_position_params;
        let location = self
            .with_doc(&p.text_document.uri, |view| {
                navigation::definition(view, p.position)
            })?
            .flatten();
        Ok(location.map(GotoDefinitionResponse::Scalar))
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let p = params.text_document_position;
        let include = params.context.include_declaration;
        Ok(self
            .with_doc(&p.text_document.uri, |view| {
                navigation::references(view, p.position, include)
            })?
            .flatten())
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        Ok(self
            .with_doc(&params.text_document.uri, |view| {
                navigation::prepare_rename(view, params.position)
            })?
            .flatten())
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let p = params.text_document_position;
        let result = self.with_doc(&p.text_document.uri, |view| {
            navigation::rename(view, p.position, &params.new_name)
        })?;
        match result {
            None => Ok(None),
            Some(Ok(edit)) => Ok(edit),
            Some(Err(message)) => Err(Error::invalid_params(message)),
        }
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let symbols = self.with_doc(&params.text_document.uri, symbols::document_symbols)?;
        Ok(symbols.map(DocumentSymbolResponse::Nested))
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        let found =
            self.with_state(|state| symbols::workspace_symbols(state.views(), &params.query))?;
        Ok(Some(WorkspaceSymbolResponse::Nested(found)))
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = &params.text_document.uri;
        // The comparison is a source action: offered unless the client
        // asks only for other kinds.
        let source = params.context.only.as_ref().is_none_or(|only| {
            only.iter()
                .any(|k| CodeActionKind::SOURCE.as_str().starts_with(k.as_str()))
        });
        let actions = self.with_doc(uri, |view| {
            let mut actions = diagnostics::code_actions(view, params.range);
            if source {
                actions.extend(compare::code_action(self.access, uri));
            }
            actions
        })?;
        Ok(actions)
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        if self.access.is_sandboxed() {
            return Err(if params.command == compare::COMMAND {
                failed(compare::SANDBOXED)
            } else {
                Error::invalid_params(format!(
                    "unknown command `{}` (this server runs no commands)",
                    params.command
                ))
            });
        }
        if params.command != compare::COMMAND {
            return Err(Error::invalid_params(format!(
                "unknown command `{}` (dgn-lsp runs {})",
                params.command,
                compare::COMMAND
            )));
        }
        let uri = compare::uri_argument(&params.arguments).map_err(Error::invalid_params)?;
        let request = self
            .with_state(|state| compare::Request::of(state, &uri))?
            .map_err(failed)?;
        // git and two statistics: off the async threads, on the statistics
        // thread.
        match tokio::task::spawn_blocking(move || heavy::run(move || request.run())).await {
            Ok(Ok(Ok(answer))) => Ok(Some(answer)),
            Ok(Ok(Err(message))) => Err(failed(message)),
            _ => Err(Error::internal_error()),
        }
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let p = params.text_document_position;
        let items = self.with_doc(&p.text_document.uri, |view| {
            completion::complete(view, p.position)
        })?;
        Ok(items.map(CompletionResponse::Array))
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let data = self.with_doc(&params.text_document.uri, semantic_tokens::full)?;
        Ok(data.map(|data| {
            SemanticTokensResult::Tokens(SemanticTokens {
                result_id: None,
                data,
            })
        }))
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        self.with_doc_stats(&params.text_document.uri, |view| {
            inlay::hints(view, params.range)
        })
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        match self.with_doc(&params.text_document.uri, formatting::format)? {
            None => Ok(None),
            Some(Ok(edits)) => Ok(Some(edits)),
            Some(Err(message)) => Err(failed(message)),
        }
    }
}
