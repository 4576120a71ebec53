//! `GET /lsp`: dgnkit's language server for the page's editor, over a
//! WebSocket. Each text message is one JSON-RPC message; the server is
//! `dgnkit_lsp::serve_with`, the same server editors run over standard
//! input/output, given the LSP framing (`Content-Length`) on the way in and
//! rid of it on the way out.
//!
//! Untrusted input: the server is sandboxed ([`Access::Sandboxed`]: a
//! document is its text alone, nothing reads a file or runs a process), at
//! most `lsp_sessions` sessions live at once (503 before the upgrade when
//! they are taken), a message is at most `body_bytes` long, a session
//! holds at most `lsp_documents` documents, and each session runs on a
//! thread of its own, so that a session's analysis never blocks the HTTP
//! API's runtime or another session. The sessions' statistics and layout
//! odds run one at a time on the process's one statistics thread
//! (`dgnkit_lsp::heavy`): together they hold at most one enumeration's
//! memory. A client that sends a binary frame or a message too large is
//! closed; a message that is not JSON-RPC is answered with its error, as
//! the stdio server answers it. A browser may connect only from this
//! server's own page.

use super::{error, Shared};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::Response;
use dgnkit_lsp::Access;
use futures::stream::{SplitSink, SplitStream};
use futures::{SinkExt, StreamExt};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt, DuplexStream};

/// Room in each direction between the WebSocket and the server.
const PIPE: usize = 1 << 16;
/// Largest header block the server writes before a message (it writes one
/// line).
const MAX_HEADER: usize = 1024;
/// Largest message the server may send: far above any answer for a
/// document of `body_bytes`; past it the output is taken to be broken.
const MAX_OUT: usize = 256 << 20;

/// Counts a session while it lives: from before the upgrade until its
/// server's thread has ended (or given up waiting for its statistics).
struct Session(Arc<Shared>);

impl Drop for Session {
    fn drop(&mut self) {
        self.0.lsp_sessions.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Why a session ended, and how the WebSocket is closed.
struct Ending {
    code: u16,
    reason: String,
}

fn client_closed() -> Ending {
    Ending {
        code: close_code::NORMAL,
        reason: String::new(),
    }
}

fn server_ended() -> Ending {
    Ending {
        code: close_code::NORMAL,
        reason: "the language server ended".into(),
    }
}

fn broken() -> Ending {
    Ending {
        code: close_code::ERROR,
        reason: "the language server wrote a message that is not LSP".into(),
    }
}

pub(super) async fn lsp(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let ws = match ws {
        Ok(ws) => ws,
        Err(r) => {
            return error(
                r.status(),
                &format!(
                    "/lsp is the language server over a WebSocket (one JSON-RPC message per text message): {}",
                    r.body_text()
                ),
                None,
            )
        }
    };
    if !same_origin(&headers) {
        return error(
            StatusCode::FORBIDDEN,
            "/lsp answers only the page this server serves (the Origin is another site)",
            None,
        );
    }
    let limits = &shared.limits;
    if shared.lsp_sessions.fetch_add(1, Ordering::Relaxed) >= limits.lsp_sessions {
        shared.lsp_sessions.fetch_sub(1, Ordering::Relaxed);
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            &format!(
                "the server is busy: {} language server sessions are open; try again shortly",
                limits.lsp_sessions
            ),
            None,
        );
    }
    let session = Session(shared.clone());
    ws.max_message_size(limits.body_bytes)
        .max_frame_size(limits.body_bytes)
        .on_upgrade(move |socket| run(socket, session))
}

/// A browser names the page that opens a WebSocket in `Origin`, and any
/// page may open one to any address: only this server's own page is
/// served. A client that is no browser sends no `Origin`.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let (Ok(origin), Some(Ok(host))) = (
        origin.to_str(),
        headers.get(header::HOST).map(|h| h.to_str()),
    ) else {
        return false;
    };
    origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .is_some_and(|o| o.eq_ignore_ascii_case(host))
}

async fn run(socket: WebSocket, session: Session) {
    let max = session.0.limits.body_bytes;
    let (mut to_server, server_in) = tokio::io::duplex(PIPE);
    let (server_out, from_server) = tokio::io::duplex(PIPE);
    let (mut sink, mut stream) = socket.split();
    let started = std::thread::Builder::new()
        .name("dgn-serve-lsp".into())
        .spawn(move || serve_on_own_thread(server_in, server_out, session));
    let ending = match started {
        Err(_) => Ending {
            code: close_code::AGAIN,
            reason: "the server cannot start a language server now".into(),
        },
        Ok(_) => {
            tokio::select! {
                e = inbound(&mut stream, &mut to_server, max) => e,
                e = outbound(&mut sink, from_server) => e,
            }
        }
    };
    // The server's input ends: it finishes, and its thread with it.
    drop(to_server);
    let _ = sink
        .send(Message::Close(Some(CloseFrame {
            code: ending.code,
            reason: Utf8Bytes::from(ending.reason),
        })))
        .await;
}

/// The session's server, on a runtime of its own: its analysis runs on
/// this thread; its statistics and layout odds wait, on one blocking
/// thread, for the process's statistics thread, which runs every
/// session's one at a time. When it ends, its statistics still running are
/// given the time budget of a command to finish before the session's place
/// is given up.
fn serve_on_own_thread(input: DuplexStream, output: DuplexStream, session: Session) {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .max_blocking_threads(1)
        .enable_all()
        .build()
    else {
        return;
    };
    let documents = session.0.limits.lsp_documents;
    runtime.block_on(dgnkit_lsp::serve_with(
        input,
        output,
        Access::Sandboxed { documents },
    ));
    runtime.shutdown_timeout(session.0.limits.time);
    drop(session);
}

/// The client's messages, framed, to the server.
async fn inbound(
    stream: &mut SplitStream<WebSocket>,
    to_server: &mut DuplexStream,
    max: usize,
) -> Ending {
    while let Some(message) = stream.next().await {
        let text = match message {
            Ok(Message::Text(text)) => text,
            Ok(Message::Binary(_)) => {
                return Ending {
                    code: close_code::UNSUPPORTED,
                    reason: "LSP messages are JSON text, one per text message".into(),
                }
            }
            Ok(Message::Ping(_) | Message::Pong(_)) => continue,
            Ok(Message::Close(_)) => return client_closed(),
            // A message over the limit, a frame that breaks the protocol,
            // a connection gone: the socket cannot be read on.
            Err(_) => {
                return Ending {
                    code: close_code::POLICY,
                    reason: format!(
                        "a message larger than {max} bytes, or a frame that is not WebSocket's"
                    ),
                }
            }
        };
        let body = text.as_str().as_bytes();
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        if to_server.write_all(header.as_bytes()).await.is_err()
            || to_server.write_all(body).await.is_err()
        {
            return server_ended();
        }
    }
    client_closed()
}

/// The server's messages, unframed, to the client.
async fn outbound(
    sink: &mut SplitSink<WebSocket, Message>,
    mut from_server: impl AsyncRead + Unpin,
) -> Ending {
    let mut buf = Vec::new();
    let mut chunk = vec![0u8; PIPE];
    loop {
        match next_message(&mut buf) {
            Ok(Some(body)) => match String::from_utf8(body) {
                Ok(text) => {
                    if sink.send(Message::Text(text.into())).await.is_err() {
                        return client_closed();
                    }
                    continue;
                }
                Err(_) => return broken(),
            },
            Ok(None) => {}
            Err(()) => return broken(),
        }
        match from_server.read(&mut chunk).await {
            Ok(0) | Err(_) => return server_ended(),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
}

/// Takes one message off the front of the server's output: its body, or
/// `None` when more is needed; an error when the output is not LSP's.
fn next_message(buf: &mut Vec<u8>) -> Result<Option<Vec<u8>>, ()> {
    let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
        return if buf.len() > MAX_HEADER {
            Err(())
        } else {
            Ok(None)
        };
    };
    let headers = std::str::from_utf8(&buf[..end]).map_err(|_| ())?;
    let length = headers
        .split("\r\n")
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.trim().parse::<usize>().ok())
        .ok_or(())?;
    if length > MAX_OUT {
        return Err(());
    }
    let start = end + 4;
    if buf.len() < start + length {
        return Ok(None);
    }
    let body = buf[start..start + length].to_vec();
    buf.drain(..start + length);
    Ok(Some(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_unframed_whole_and_in_order() {
        let mut buf = b"Content-Length: 2\r\n\r\n{}content-length:3\r\n\r\n[1]Cont".to_vec();
        assert_eq!(next_message(&mut buf), Ok(Some(b"{}".to_vec())));
        assert_eq!(next_message(&mut buf), Ok(Some(b"[1]".to_vec())));
        assert_eq!(next_message(&mut buf), Ok(None));
        assert_eq!(buf, b"Cont");
        let mut short = b"Content-Length: 5\r\n\r\n{}".to_vec();
        assert_eq!(next_message(&mut short), Ok(None));
        assert_eq!(
            next_message(&mut b"Content-Type: x\r\n\r\n{}".to_vec()),
            Err(())
        );
        assert_eq!(next_message(&mut vec![b'x'; MAX_HEADER + 1]), Err(()));
    }

    #[test]
    fn only_this_servers_page_may_connect() {
        let mut h = HeaderMap::new();
        assert!(same_origin(&h));
        h.insert(header::HOST, "127.0.0.1:8080".parse().unwrap());
        h.insert(header::ORIGIN, "http://127.0.0.1:8080".parse().unwrap());
        assert!(same_origin(&h));
        h.insert(header::ORIGIN, "https://evil.example".parse().unwrap());
        assert!(!same_origin(&h));
        h.insert(header::ORIGIN, "null".parse().unwrap());
        assert!(!same_origin(&h));
    }
}
