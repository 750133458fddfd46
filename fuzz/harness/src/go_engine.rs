//! The Go engine's settings for the targets that make it play: a fixed number of playouts
//! with a fixed seed instead of a clock, one thread, a small tree and few playouts for
//! scoring, so that a crash reproduces and an input stays cheap.

use go_engine::game::Game;
use go_engine::settings::Settings;

/// Playouts per generated move.
pub const PLAYOUTS: u64 = 16;
/// The search's seed.
const SEED: u64 = 38;
/// The tree's node cap.
const MAX_NODES: usize = 4096;
/// Playouts behind the dead stones and the score (the engine's default is 1,000: three
/// scoring commands on 19x19 took over the fuzzer's 10 s under AddressSanitizer).
const SCORE_PLAYOUTS: u32 = 64;

/// The settings every target's engine plays with.
pub fn settings() -> Settings {
    let mut settings = Settings::from_vars(|_| None).expect("the defaults are valid");
    settings.playouts = Some(PLAYOUTS);
    settings.config.seed = Some(SEED);
    settings.config.threads = 1;
    settings.config.max_nodes = MAX_NODES;
    settings.config.score_playouts = SCORE_PLAYOUTS;
    settings
}

/// Checks that `game`'s moves replay, one by one and each legal, on a fresh board of its
/// size with its setup stones: the engine's record holds no move its rules refuse.
pub fn assert_replays(game: &Game) {
    let Some(&(first, _)) = game.moves().first() else {
        return;
    };
    let mut fresh = Game::new(game.size(), game.komi()).expect("the game's own size");
    fresh
        .set_stones(game.setup(), first)
        .unwrap_or_else(|e| panic!("the setup does not replay: {e:?}"));
    for (i, &(color, mv)) in game.moves().iter().enumerate() {
        if let Err(e) = fresh.play(color, mv) {
            panic!(
                "move {i} {color:?} {mv:?} is illegal ({e:?}): {:?}",
                game.moves()
            );
        }
    }
}
