//! The NetHack-family binary reader (each game's `dgn_comp` output layout:
//! NetHack 3.4.3, 3.6 and every variant family of `binary::layouts`), by
//! detection and forced to each layout. The allocation-free `check` must
//! accept exactly what `read` accepts, errors must point inside the file,
//! and a file that reads (and fits the layout's tables) must write back to
//! bytes that read as the same script.
//!
//! Input: the file's bytes (seeds: ../shared/expected/compiled/*.bin).

#![no_main]

use dgnkit::binary::{self, layouts, nethack, BinaryFormat};
use dgnkit::decompile::decompile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = binary::detect(data);
    let forced = BinaryFormat::ALL
        .into_iter()
        .filter(|f| f.is_nethack())
        .map(Some);
    for forced in std::iter::once(None).chain(forced) {
        let read = binary::read(data, forced);
        let check = binary::check(data, forced);
        assert_eq!(
            read.as_ref().map(|r| r.format).map_err(Clone::clone),
            check,
            "read and check disagree ({forced:?})"
        );
        let read = match read {
            Ok(r) => r,
            Err(e) => {
                assert!(e.offset <= data.len(), "{e:?} past the end ({forced:?})");
                continue;
            }
        };
        if read.format == BinaryFormat::Native {
            continue;
        }
        let s = &read.script;
        assert_eq!(read.header.len(), nethack::header_len(read.format));
        let Some(layout) = layouts::of(read.format) else {
            continue;
        };
        if s.dungeons.len() <= layout.max_dungeons
            && s.level_count() <= layout.max_levels
            && s.branch_count() <= layout.max_branches
        {
            // A header can be copied only into its own layout; a file read
            // under a forced layout gets that layout's default header.
            let header_from = (binary::detect(data).ok() == Some(read.format)).then_some(data);
            let written = binary::write(s, dgnkit::options::Target::of_format(read.format), header_from)
                .expect("a file that reads writes");
            assert_eq!(written.len(), data.len(), "record sizes differ");
            let back = binary::read(&written, Some(read.format)).expect("written file reads");
            assert_eq!(&back.script, s, "written file reads as another script");
            if header_from.is_some() {
                assert_eq!(back.header, read.header);
            }
        }
        let _ = decompile(s);
    }
});
