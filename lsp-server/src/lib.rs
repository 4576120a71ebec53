//! The dungeon.def and dungeon.lua (NetHack 3.7) language server: a thin
//! shell over dgnkit's library.
//!
//! The document store ([`state`]) keeps each open file's bytes in a salsa
//! database ([`db`]); features read its queries and convert byte spans to
//! LSP positions ([`position`], the only place that knows about UTF-16).

#![deny(clippy::unwrap_used)]

pub mod analysis;
pub mod canon;
pub mod compare;
pub mod config;
pub mod db;
pub mod facts;
pub mod features;
pub mod heavy;
pub mod jobs;
pub mod odds;
pub mod position;
pub mod server;
pub mod state;
pub mod statistics;
pub mod transport;
pub mod vocabulary;

pub use server::{service, Backend};
pub use state::Access;

/// Serves LSP over standard input and output until the client exits or the
/// input ends. Malformed messages are answered with errors (see
/// [`transport`]) and serving goes on.
/// Returns whether the client asked to shut down before it went away.
pub async fn serve_stdio() -> bool {
    serve(tokio::io::stdin(), tokio::io::stdout()).await
}

/// Serves LSP over any byte streams for an editor on this machine (see
/// [`Access::Local`]); returns whether the client asked to shut down.
pub async fn serve<I, O>(input: I, output: O) -> bool
where
    I: tokio::io::AsyncRead + Unpin,
    O: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    serve_with(input, output, Access::Local).await
}

/// As [`serve`], for a server with `access`: [`Access::Sandboxed`] for a
/// client that is not trusted.
pub async fn serve_with<I, O>(input: I, output: O, access: Access) -> bool
where
    I: tokio::io::AsyncRead + Unpin,
    O: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    // Before any thread of the server's allocates.
    heavy::one_heap();
    let shut_down = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (service, socket) = server::service_with(shut_down.clone(), access);
    let (to_server, from_guard) = tokio::io::duplex(1 << 16);
    let server = tower_lsp_server::Server::new(from_guard, output, socket).serve(service);
    tokio::select! {
        () = server => {}
        () = async {
            transport::sanitize(input, to_server).await;
            // The input ended: let the server finish what it has read.
            std::future::pending::<()>().await
        } => {}
    }
    shut_down.load(std::sync::atomic::Ordering::SeqCst)
}
