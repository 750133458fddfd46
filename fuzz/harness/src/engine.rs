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
/// budget the protocol computed (that computation still runs).
struct FixedBudget(Box<dyn Engine>);

impl Engine for FixedBudget {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn new_game(&mut self) {
        self.0.new_game();
    }

    fn choose(&mut self, pos: &Position, _limits: Limits) -> SearchReport {
        self.0.choose(pos, Limits::iterations(ITERATIONS))
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
        engine: Box::new(FixedBudget(profile.engine(
            Some(SEED),
            MEMORY_BYTES,
            &Tuning::default(),
        ))),
        move_ms: 1,
        log: false,
    }
}
