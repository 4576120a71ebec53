//! `dgn_comp`: a drop-in for NetHack's dungeon compiler, with its command
//! line. No argument: read standard input, write standard output. Otherwise
//! every argument is a `NAME.pdf` file compiled to `NAME`; other names are
//! refused with the original's message. Exit status 1 when any file failed.
//!
//! Unlike the original, a file with errors produces no output at all, and
//! the checks are dgnkit's (stricter). Extensions: `--target T` (or the
//! environment variable `DGN_COMP_TARGET`; default `nethack-3.6`),
//! `--dialect D` (or `DGN_COMP_DIALECT`), `--header-from FILE`, `-D FLAG`,
//! `-U FLAG`.
//!
//! Start-up is most of a run (the compile itself is small next to it), so
//! on Unix the program starts at C's `main`, as NetHack's own `dgn_comp`
//! does, instead of going through std's runtime set-up: that set-up finds
//! the main thread's stack bounds for its overflow guard (glibc reads and
//! parses /proc/self/maps for it) and probes the standard descriptors,
//! work as large as a good part of an empty process's whole run. What the
//! set-up did that this program relies on is done in `main` below (SIGPIPE
//! ignored, so a closed output is a write error, not a silent death);
//! std's argument and I/O functions work without it. A stack overflow still
//! kills the process; there is no recursion on input.

#![cfg_attr(all(unix, not(test)), no_main)]

// The linker script `cli/build.rs` links this program with (its hot
// code first). Included only so that Cargo relinks `dgn_comp` when it
// changes, without rebuilding the library as a `rerun-if-changed` would.
const _: &[u8] = include_bytes!("../../dgn_comp-hot.ld");

use dgnkit::binary::{self, WriteOptions};
use dgnkit::dialect::Dialect;
use dgnkit::frontend::{analyze_errors, CheckOptions};
use dgnkit::grammar::Diagnostic;
use dgnkit::options::Target;
use dgnkit::render::LineIndex;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Allocation: a run makes about a thousand small allocations and frees
/// most of its larger ones early (token and statement vectors as they grow,
/// per-size memos of the checks), so blocks come from a bump arena in zeroed
/// static memory, freed blocks of 16 bytes or more go on free lists by size
/// class and are handed out again, the most recent block is freed, grown and
/// shrunk in place, and anything the arena cannot hold goes to the system
/// allocator. Allocation costs next to no instructions, and the arena grows
/// little past the program's peak use: each page of it a run touches is a
/// page fault, which costs as much as thousands of instructions, unless
/// mapped in advance in one system call (`Arena::prefault`). The free lists
/// let a run reuse the blocks it freed instead of touching fresh pages.
mod arena {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::UnsafeCell;
    use std::hint::spin_loop;
    use std::sync::atomic::{AtomicBool, Ordering::Acquire, Ordering::Release};

    const LEN: usize = 8 << 20;
    /// Page-aligned, so an offset's alignment is its address's (up to 4096).
    const ALIGN: usize = 4096;
    /// Every block starts at a multiple of this, so a freed block can hold
    /// the free list's link.
    const MIN_ALIGN: usize = std::mem::align_of::<*mut u8>();
    /// Freed blocks smaller than this are not worth a list (nor can they
    /// all hold a link).
    const MIN_FREE: usize = 16;
    const CLASSES: usize = 64;

    #[repr(C, align(4096))]
    struct Buf(UnsafeCell<[u8; LEN]>);
    // SAFETY: the bytes are handed out in disjoint blocks under `Arena`'s
    // lock; no two live blocks overlap.
    unsafe impl Sync for Buf {}

    static BUF: Buf = Buf(UnsafeCell::new([0; LEN]));

    struct State {
        /// Offset of the first byte never handed out.
        next: usize,
        /// Heads of the free lists: class `c` holds blocks of at least
        /// `1 << c` bytes, each starting with the address of the next.
        free: [*mut u8; CLASSES],
        /// Bit `c` set when list `c` is not empty.
        listed: u64,
    }

    pub struct Arena {
        lock: AtomicBool,
        state: UnsafeCell<State>,
    }

    // SAFETY: `state` is only touched while `lock` is held (`with`).
    unsafe impl Sync for Arena {}

    impl Arena {
        pub const fn new() -> Self {
            Arena {
                lock: AtomicBool::new(false),
                state: UnsafeCell::new(State {
                    next: 0,
                    free: [std::ptr::null_mut(); CLASSES],
                    listed: 0,
                }),
            }
        }

        fn with<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
            while self.lock.swap(true, Acquire) {
                spin_loop();
            }
            // SAFETY: the lock is held, so this is the only reference.
            let r = f(unsafe { &mut *self.state.get() });
            self.lock.store(false, Release);
            r
        }
    }

    fn base() -> *mut u8 {
        BUF.0.get().cast()
    }

    impl Arena {
        /// Maps the arena's next `bytes` (past what is handed out) in one
        /// system call, where touching them would fault each page in on
        /// its own: the batched mapping costs a small part of a fault per
        /// page. Nothing happens on a kernel without `MADV_POPULATE_WRITE`
        /// (Linux 5.14), and a run that needs fewer pages only paid for
        /// zeroing the rest.
        pub fn prefault(&self, bytes: usize) {
            extern "C" {
                fn madvise(addr: *mut u8, len: usize, advice: std::ffi::c_int) -> std::ffi::c_int;
            }
            const MADV_POPULATE_WRITE: std::ffi::c_int = 23;
            let next = self.with(|s| s.next);
            // The page `next` is on was touched when anything was handed
            // out of it; madvise wants a page-aligned start anyway.
            let from = next & !(ALIGN - 1);
            let to = next.saturating_add(bytes).min(LEN);
            if to > from {
                // SAFETY: [from, to) lies inside BUF; populating only maps
                // zeroed pages that are already part of the program's
                // memory, without changing any byte of it.
                unsafe { madvise(base().add(from), to - from, MADV_POPULATE_WRITE) };
            }
        }
    }

    /// The offset of `ptr` when it is in the arena.
    fn offset(ptr: *mut u8) -> Option<usize> {
        let off = (ptr as usize).wrapping_sub(base() as usize);
        (off < LEN).then_some(off)
    }

    /// The smallest class whose every block holds `size` bytes.
    fn class_holding(size: usize) -> usize {
        size.next_power_of_two().trailing_zeros() as usize
    }

    /// The class a freed block of `size` bytes belongs to.
    fn class_of(size: usize) -> usize {
        size.ilog2() as usize
    }

    impl State {
        fn take(&mut self, layout: Layout) -> Option<*mut u8> {
            if layout.size() >= MIN_FREE && layout.align() <= MIN_ALIGN {
                // The first listed block that holds it; what it does not
                // need goes back on a list.
                let fits =
                    self.listed >> class_holding(layout.size()) << class_holding(layout.size());
                if fits != 0 {
                    let class = fits.trailing_zeros() as usize;
                    let head = self.free[class];
                    // SAFETY: a listed block is free, inside BUF, aligned
                    // for a pointer, at least `1 << class` bytes long and
                    // starts with the next one's address.
                    let next = unsafe { head.cast::<*mut u8>().read() };
                    self.free[class] = next;
                    if next.is_null() {
                        self.listed &= !(1 << class);
                    }
                    let used = layout.size().next_multiple_of(MIN_ALIGN);
                    let rest = (1usize << class) - used;
                    if rest >= MIN_FREE {
                        // SAFETY: used < 1 << class: inside the block.
                        let tail = unsafe { head.add(used) };
                        self.push(tail, rest);
                    }
                    return Some(head);
                }
            }
            let align = layout.align().max(MIN_ALIGN);
            let start = self.next.checked_add(align - 1)? & !(align - 1);
            let end = start.checked_add(layout.size()).filter(|&e| e <= LEN)?;
            self.next = end;
            // SAFETY: start + size <= LEN: inside BUF.
            Some(unsafe { base().add(start) })
        }

        fn give_back(&mut self, ptr: *mut u8, off: usize, size: usize) {
            if off + size == self.next {
                self.next = off;
            } else if size >= MIN_FREE {
                self.push(ptr, size);
            }
        }

        /// Lists a free block of `size` (at least MIN_FREE) bytes.
        fn push(&mut self, ptr: *mut u8, size: usize) {
            let class = class_of(size);
            // SAFETY: the block is free, inside BUF, at least MIN_FREE bytes
            // and MIN_ALIGN-aligned (every block and every split starts so),
            // so its first bytes can hold the link.
            unsafe { ptr.cast::<*mut u8>().write(self.free[class]) };
            self.free[class] = ptr;
            self.listed |= 1 << class;
        }
    }

    // SAFETY: every block returned lies inside BUF (or comes from System),
    // is aligned as asked, and is never handed out twice while live: fresh
    // blocks are carved past `next`, listed blocks were freed by their
    // owner, and only the block that ends at `next` is resized in place;
    // all of it under the lock.
    unsafe impl GlobalAlloc for Arena {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            if layout.align() <= ALIGN {
                if let Some(p) = self.with(|s| s.take(layout)) {
                    return p;
                }
            }
            // SAFETY: the caller's layout contract, passed on.
            unsafe { System.alloc(layout) }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            match offset(ptr) {
                Some(off) => self.with(|s| s.give_back(ptr, off, layout.size())),
                // SAFETY: System allocated it (it is not in the arena).
                None => unsafe { System.dealloc(ptr, layout) },
            }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let Some(off) = offset(ptr) else {
                // SAFETY: System allocated it; the caller's contract holds.
                return unsafe { System.realloc(ptr, layout, new_size) };
            };
            let in_place = self.with(|s| {
                if off + layout.size() == s.next && off + new_size <= LEN {
                    s.next = off + new_size;
                    return true;
                }
                new_size <= layout.size()
            });
            if in_place {
                return ptr;
            }
            // SAFETY: the caller guarantees a valid layout for new_size with
            // the same alignment.
            let grown = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
            // SAFETY: new_size > layout.size() > 0.
            let new = unsafe { self.alloc(grown) };
            if !new.is_null() {
                // SAFETY: both blocks are live, distinct and at least
                // layout.size() bytes long.
                unsafe {
                    std::ptr::copy_nonoverlapping(ptr, new, layout.size());
                    self.dealloc(ptr, layout);
                }
            }
            new
        }
    }
}

#[global_allocator]
static ALLOCATOR: arena::Arena = arena::Arena::new();

const USAGE: &str = "usage: dgn_comp [--target T] [--dialect D] [--header-from FILE] [-D FLAG] [-U FLAG] [FILE.pdf...]
With no file, reads standard input and writes standard output; FILE.pdf is compiled to FILE.
T is nethack-3.6 (default), nethack-3.4.3, a variant family (evilhack, gnollhack, ...) or native;
D defaults to the target's dialect.
Environment: DGN_COMP_TARGET, DGN_COMP_DIALECT set the defaults of --target and --dialect.";

struct Config {
    opts: CheckOptions,
    header: Option<Vec<u8>>,
    files: Vec<OsString>,
}

fn parse_target(s: &str, source: &str) -> Result<Target, String> {
    Target::parse(s).ok_or_else(|| {
        format!(
            "dgn_comp: {source} `{s}` is not a target ({})",
            Target::names()
        )
    })
}

fn parse_dialect(s: &str, source: &str) -> Result<Dialect, String> {
    Dialect::parse(s).ok_or_else(|| {
        let names: Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
        format!(
            "dgn_comp: {source} `{s}` is not a dialect (one of: {})",
            names.join(", ")
        )
    })
}

/// Ok(None) when the command line asked for help or the version.
fn parse_args(args: Vec<OsString>) -> Result<Option<Config>, String> {
    let target = match std::env::var("DGN_COMP_TARGET") {
        Ok(v) if !v.is_empty() => parse_target(&v, "DGN_COMP_TARGET")?,
        _ => Target::NetHack36,
    };
    let mut opts = CheckOptions {
        target,
        ..CheckOptions::default()
    };
    // None: the target's dialect, whichever way the target was given.
    let mut dialect = None;
    if let Ok(v) = std::env::var("DGN_COMP_DIALECT") {
        if !v.is_empty() {
            dialect = Some(parse_dialect(&v, "DGN_COMP_DIALECT")?);
        }
    }
    let mut header_from: Option<PathBuf> = None;
    let mut files = Vec::new();
    let mut iter = args.into_iter();
    let mut options_done = false;
    while let Some(arg) = iter.next() {
        let text = arg.to_str().map(str::to_string);
        let Some(text) = text.filter(|t| !options_done && t.starts_with('-') && t.len() > 1) else {
            files.push(arg);
            continue;
        };
        let (flag, inline) = match text.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (text.clone(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            match inline.clone() {
                Some(v) => Ok(v),
                None => iter
                    .next()
                    .and_then(|v| v.into_string().ok())
                    .ok_or_else(|| format!("dgn_comp: {name} needs a value\n{USAGE}")),
            }
        };
        match flag.as_str() {
            "--" => options_done = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(None);
            }
            "-V" | "--version" => {
                println!("dgn_comp (dgnkit) {}", env!("CARGO_PKG_VERSION"));
                return Ok(None);
            }
            "--target" => opts.target = parse_target(&value("--target")?, "--target")?,
            "--dialect" => dialect = Some(parse_dialect(&value("--dialect")?, "--dialect")?),
            "--header-from" => header_from = Some(PathBuf::from(value("--header-from")?)),
            "-D" => opts.defines.push(value("-D")?),
            "-U" => opts.undefines.push(value("-U")?),
            f if f.starts_with("-D") => opts.defines.push(f.trim_start_matches("-D").to_string()),
            f if f.starts_with("-U") => opts.undefines.push(f.trim_start_matches("-U").to_string()),
            // Anything else is a file name, as in the original.
            _ => files.push(arg),
        }
    }
    opts.dialect = dialect.unwrap_or(opts.target.game().dialect);
    let header = match header_from {
        None => None,
        Some(p) => {
            let h = std::fs::read(&p)
                .map_err(|e| format!("dgn_comp: cannot read `{}`: {e}", p.display()))?;
            dgnkit_cli::compile::header_fits(&h, opts.target)
                .map_err(|m| format!("dgn_comp: --header-from `{}`: {m}", p.display()))?;
            Some(h)
        }
    };
    Ok(Some(Config {
        opts,
        header,
        files,
    }))
}

/// About how many bytes of arena a compile takes per byte of source: 22
/// for NetHack 3.6's file (113 KB for 5 KB), 16-52 over the real files
/// (`../shared/corpus`), most near 25. [`compile`] maps that much in one go
/// (`arena::Arena::prefault`) instead of faulting its pages in one by one.
const ARENA_PER_SOURCE_BYTE: usize = 24;

/// `file : line N : message`, as dgn_comp's yyerror prints.
fn report(fname: &str, src: &[u8], diagnostics: &[Diagnostic]) {
    if !diagnostics.iter().any(Diagnostic::is_error) {
        return;
    }
    let index = LineIndex::new(src);
    let mut err = std::io::stderr().lock();
    for d in diagnostics.iter().filter(|d| d.is_error()) {
        let line = index.line_col(d.span.start).line;
        let _ = writeln!(err, "{fname} : line {line} : {}", d.message);
    }
}

/// Compiles one source; `None` after printing its errors. Only errors are
/// printed, so only the checks that can report one run
/// ([`analyze_errors`]): the same errors and output as every check.
fn compile(fname: &str, src: &[u8], config: &Config) -> Option<Vec<u8>> {
    ALLOCATOR.prefault(src.len().saturating_mul(ARENA_PER_SOURCE_BYTE));
    let mut analysis = analyze_errors(src, &config.opts);
    report(fname, src, &analysis.diagnostics);
    let script = analysis.script.take();
    // The tree, model and diagnostics are freed by the process's exit, not
    // one allocation at a time, which would be instructions spent for
    // nothing just before the exit.
    std::mem::forget(analysis);
    let script = script?;
    let wopts = WriteOptions {
        header_from: config.header.as_deref(),
        dialect: config.opts.dialect.name(),
    };
    let written = binary::write_with(&script, config.opts.target, &wopts);
    std::mem::forget(script);
    match written {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            eprintln!("{fname} : {e}");
            None
        }
    }
}

/// `perror`'s second line.
fn perror(name: &str, e: &std::io::Error) {
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text);
    eprintln!("{name}: {text}");
}

fn write_file(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".dgnkit-tmp");
    let tmp = PathBuf::from(tmp);
    let result = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn run(config: &Config) -> bool {
    let mut ok = true;
    if config.files.is_empty() {
        let mut src = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut src) {
            perror("(stdin)", &e);
            return false;
        }
        match compile("(stdin)", &src, config) {
            Some(bytes) => {
                let mut out = std::io::stdout().lock();
                if out.write_all(&bytes).and_then(|()| out.flush()).is_err() {
                    eprint!("Can't finish output file.");
                    eprintln!("(stdout): write error");
                    ok = false;
                }
            }
            None => ok = false,
        }
        return ok;
    }
    for file in &config.files {
        let fname = file.to_string_lossy();
        let bytes = file.as_encoded_bytes();
        if !bytes.ends_with(b".pdf") {
            eprintln!("Error - file name \"{fname}\" in wrong format.");
            ok = false;
            continue;
        }
        // Strip exactly the ".pdf" suffix, as the original does.
        let stem = bytes.len().saturating_sub(4);
        let out_name = String::from_utf8_lossy(bytes.get(..stem).unwrap_or_default()).into_owned();
        let out_path = match file.to_str() {
            Some(s) => PathBuf::from(s.get(..stem).unwrap_or_default()),
            None => PathBuf::from(&out_name),
        };
        let src = match std::fs::read(file) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("Can't open {fname} for input.");
                perror(&fname, &e);
                ok = false;
                continue;
            }
        };
        let Some(compiled) = compile(&fname, &src, config) else {
            ok = false;
            continue;
        };
        if let Err(e) = write_file(&out_path, &compiled) {
            eprintln!("Can't open {out_name} for output.");
            perror(&out_name, &e);
            ok = false;
        }
    }
    ok
}

fn dgn_comp() -> ExitCode {
    let config = match parse_args(std::env::args_os().skip(1).collect()) {
        Ok(Some(c)) => c,
        Ok(None) => return ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("{msg}");
            return ExitCode::FAILURE;
        }
    };
    if run(&config) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

// Also the test build's: its harness supplies the entry point.
#[cfg(any(not(unix), test))]
fn main() -> ExitCode {
    dgn_comp()
}

/// C's entry point (see the top of the file). std reads the arguments by
/// itself (glibc hands them to its initialiser), so argc/argv go unused.
#[cfg(all(unix, not(test)))]
#[no_mangle]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    extern "C" {
        fn signal(signum: std::ffi::c_int, handler: usize) -> usize;
    }
    // SIGPIPE is 13 and SIG_IGN is 1 on every Unix Rust supports; std's
    // runtime ignores it in the same way.
    // SAFETY: `signal` is async-signal-safe libc, called before any thread
    // exists, with a valid signal number and the SIG_IGN disposition.
    unsafe {
        signal(13, 1);
    }
    // As std's runtime does: a panic unwinds to here and is reported, and
    // the process exits with status 101 instead of unwinding into C.
    match std::panic::catch_unwind(dgn_comp) {
        Ok(code) if code == ExitCode::SUCCESS => 0,
        Ok(_) => 1,
        Err(_) => 101,
    }
}

// glibc's start-up of a static program (`_dl_non_dynamic_init`,
// elf/dl-support.c) asks `_dl_get_origin` for the program's directory, kept
// for `$ORIGIN` in the paths of libraries loaded with dlopen, which this
// program never does. glibc's own reads the link /proc/self/exe (a system
// call, costlier still in a new process) and copies it into malloc'd memory.
// This weak definition answers "unknown", `(char *) -1`, what glibc's own
// answers when the link cannot be read; being defined, it keeps the linker
// from taking glibc's (its archive member dl-origin.o defines nothing else).
// Where glibc's is linked anyway (another glibc, a dynamic build), the
// strong definition wins and nothing changes.
#[cfg(all(
    target_os = "linux",
    target_env = "gnu",
    target_arch = "x86_64",
    not(test)
))]
std::arch::global_asm!(
    ".pushsection .text._dl_get_origin,\"ax\",@progbits",
    ".weak _dl_get_origin",
    ".type _dl_get_origin, @function",
    "_dl_get_origin:",
    "mov rax, -1",
    "ret",
    ".size _dl_get_origin, . - _dl_get_origin",
    ".popsection",
);
