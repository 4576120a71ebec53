//! Gamelogs: one resolution of `init_dungeons()` as the SIG-GAME
//! framework's gamelog (`../shared/spec/gamelog-format.md`), written
//! ([`record`]: `dgn layout --format gamelog`) and read back ([`read`]:
//! `dgn replay`).
//!
//! The state a gamelog's deltas fold to is the layout as `--format json`
//! writes it (without `rng_calls`), plus `gameObjects`: the description's
//! dungeons (`d<record>`), levels (`l<record>`) and branch records
//! (`r<record>`), the branches the loader makes (`b<id>`, NetHack's branch
//! id) and each placement try that holds (`p<level record>.<try>`, removed
//! with `"&RM"` when `place_level` takes it back). The `start` delta holds
//! every record with nothing decided; one `ran` delta per draw of the
//! layout's draw log says, in `data`, the draw (`run.functionName`,
//! `run.args.x`, `returned`), its C caller as `--trace=session` writes it
//! (`run.caller`), dgnkit's words for it as `--trace` writes them
//! (`what`) and the game object it is about (`object`), and in `game`
//! what it changed; `over` holds what changed after the last draw. The
//! game start's draws before the loader are `start`'s `data.game_start`.

pub mod delta;
mod objects;
pub mod read;
pub mod record;
pub mod state;

pub use read::{Gamelog, ReadError};
pub use record::{Recorder, Settings};

use crate::games::Game;
use crate::loader::{LoadError, Resolved, Resolver};
use crate::rng::RngKind;

/// Resolves one seed with `resolver` as `game`'s loader does, and returns
/// its gamelog as JSON text and the layout (or the loader's error, which
/// the log's `over` delta also states).
pub fn record(
    resolver: &Resolver,
    game: &Game,
    seed: u64,
    rng: RngKind,
    wizard: bool,
    settings: &Settings,
) -> (Vec<u8>, Result<Resolved, LoadError>) {
    let mut out = Resolved::default();
    let mut recorder = Recorder::new(resolver, game.rng_log);
    let result = resolver.resolve_traced(seed, rng, wizard, &mut out, &mut recorder);
    let log = recorder.finish(&out, &result, settings);
    (log, result.map(|()| out))
}

/// A gamelog as the framework stores one: gzipped JSON. The fastest
/// level: the text repeats itself so much that it still shrinks ten times,
/// and the log costs little more than the resolution.
pub fn gzip(text: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    // Writing into a Vec cannot fail.
    let _ = gz.write_all(text);
    gz.finish().unwrap_or_default()
}
