//! The programs' protocols: GTP v2 as Othello GTP engines speak it, and Botzone's Reversi JSON.
//!
//! Both take any `BufRead`/`Write` pair, so tests drive them with strings, and share one
//! [`Player`]: an engine, the per-move budget and the logging switch.

pub mod botzone;
pub mod gtp;

use crate::position::Position;
use crate::search::{Engine, Limits, SearchReport};

/// An engine with the budget and logging it plays under.
pub struct Player {
    /// The engine.
    pub engine: Box<dyn Engine>,
    /// Budget per move, ms.
    pub move_ms: u64,
    /// Print the per-move log line on stderr.
    pub log: bool,
}

impl Player {
    /// Searches `pos` for at most `budget_ms` (never more than the configured budget) and logs
    /// the report when asked.
    pub fn think(&mut self, pos: &Position, budget_ms: u64) -> SearchReport {
        let ms = budget_ms.clamp(1, self.move_ms);
        let report = self.engine.choose(pos, Limits::time(ms));
        if self.log {
            eprintln!("{}", report.log_line());
        }
        report
    }
}
