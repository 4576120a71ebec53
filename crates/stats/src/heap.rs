//! Freed memory handed back to the system where a computation changes
//! phase.
//!
//! glibc's allocator keeps the chunks a program frees and hands them back
//! only from the top of a heap. The enumeration's memo tables (placement
//! searches, tails, interned lists) are freed before the backward pass,
//! whose values are then allocated anew, often in chunks or heaps those
//! tables did not use: without the pages handed back, the process holds
//! both at its peak (`../../bench/README.md`: notdnethack's peak 237 MiB
//! with them, 228 MiB without).

/// Hands the free pages of every heap back to the system. Cheap next to a
/// computation that needs it (a few milliseconds on the largest files);
/// nothing elsewhere than Linux with glibc, whose allocators differ.
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free chunks to the system; it is
    // safe to call at any time from any thread.
    #[allow(unsafe_code)]
    unsafe {
        libc::malloc_trim(0);
    }
}
