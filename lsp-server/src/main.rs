//! `dgn-lsp`: the dungeon.def language server, over standard input/output.
//! Exits 0 after a `shutdown` request and `exit` (or the end of the input),
//! 1 when the input ended without a `shutdown`, as LSP asks.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    if args.any(|a| a == "--version" || a == "-V") {
        println!("dgn-lsp {}", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("dgn-lsp: cannot start: {e}");
            return ExitCode::from(2);
        }
    };
    let clean = runtime.block_on(dgnkit_lsp::serve_stdio());
    // A read of standard input may still be pending on a blocking thread;
    // do not wait for it.
    runtime.shutdown_background();
    if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
