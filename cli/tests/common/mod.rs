//! What the `dgn serve` tests share: the repository's files and a server
//! on a free loopback port.

use dgnkit_cli::serve::{self, Limits};
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

pub fn repo(path: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A server on 127.0.0.1:0 on its own runtime; dropped, it stops.
pub struct Server {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    pub fn start(limits: Limits) -> Server {
        Server::start_logged(limits, None)
    }

    /// A server writing its access log to `log`.
    pub fn start_logged(
        limits: Limits,
        log: Option<std::sync::Arc<serve::access_log::AccessLog>>,
    ) -> Server {
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                addr_tx.send(listener.local_addr().unwrap()).unwrap();
                serve::serve_logged(listener, limits, log, async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
            });
            // Sessions still open do not hold up the test's end.
            rt.shutdown_timeout(Duration::from_secs(1));
        });
        Server {
            addr: addr_rx.recv().unwrap(),
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
