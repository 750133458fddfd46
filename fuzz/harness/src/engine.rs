//! The Reversi players the protocol targets drive: the real engines, searching a fixed
//! number of iterations with a fixed seed instead of a clock, so that a crash reproduces.

use reversi::protocol::Player;
use reversi::{Engine, Limits, Position, Profile, SearchReport, Tuning};

/// Iterations (the alpha-beta engine: nodes) per move.
pub const ITERATIONS: u64 = 40;
/// The engines' seed.
const SEED: u64 = 38;
/// Tree memory: a small cap keeps every input's fresh engine cheap.
const MEMORY_BYTES: usize = 1 << 22;

/// An engine whose every search is [`Limits::iterations`]`(`[`ITERATIONS`]`)`, whatever
/// budget the protocol computed (that computation still runs). The engine is made at its
/// first search: making one fills its solver's table (megabytes), which would otherwise
/// cost most of an input that never asks for a move; a fresh engine made later plays as one
/// made at the start (nothing but the seed goes into it).
struct FixedBudget {
    profile: Profile,
    engine: Option<Box<dyn Engine>>,
}

impl Engine for FixedBudget {
    fn name(&self) -> &'static str {
        match self.profile {
            Profile::Classic => "classic",
            Profile::Strong => "strong",
            Profile::Alphabeta => "alphabeta",
            Profile::Learned => "learned",
        }
    }

    fn new_game(&mut self) {
        if let Some(engine) = &mut self.engine {
            engine.new_game();
        }
    }

    fn choose(&mut self, pos: &Position, _limits: Limits) -> SearchReport {
        let profile = self.profile;
        let engine = self
            .engine
            .get_or_insert_with(|| profile.engine(Some(SEED), MEMORY_BYTES, &Tuning::default()));
        engine.choose(pos, Limits::iterations(ITERATIONS))
    }
}

/// A player of the engine `selector` picks (mostly the default, `strong`), with a budget
/// of one millisecond that [`FixedBudget`] replaces by iterations.
pub fn player(selector: u8) -> Player {
    let profile = match selector % 4 {
        1 => Profile::Classic,
        2 => Profile::Alphabeta,
        _ => Profile::Strong,
    };
    Player {
        engine: Box::new(FixedBudget {
            profile,
            engine: None,
        }),
        move_ms: 1,
        log: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_the_engines_own() {
        for profile in [
            Profile::Classic,
            Profile::Strong,
            Profile::Alphabeta,
            Profile::Learned,
        ] {
            let lazy = FixedBudget {
                profile,
                engine: None,
            };
            let real = profile.engine(None, 1 << 16, &Tuning::default());
            assert_eq!(lazy.name(), real.name());
        }
    }
}
