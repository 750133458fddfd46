//! Monte-Carlo tree search with UCB1 (UCT) over [`Position`](crate::position::Position).
//!
//! The search keeps ONE original position (the root) and ONE scratch position. Every
//! iteration copies the root into the scratch board, walks the tree playing each chosen move
//! on the scratch board, adds at most one new leaf, finishes the game with a random playout
//! and backs the result up the path. Nodes store statistics and a column, never boards.
//!
//! - [`tree`]: the node arena (indices, no per-node allocation).
//! - [`playout`]: the random game to the end.
//! - [`uct`]: selection, expansion, backup, the time loop and the final choice.
//! - [`solver`]: the strong profile's search, with proofs and tactics.
//! - [`threat_sequence`]: wins forced by a chain of threats, proven at expansion.
//! - [`transpositions`]: statistics per position, shared by the move orders reaching it.
//! - [`endgame`]: the exact solver for the last few empty cells.

pub mod endgame;
pub mod playout;
pub mod solver;
pub mod threat_sequence;
pub mod transpositions;
pub mod tree;
pub mod uct;

pub use uct::{SearchConfig, SearchLimits, SearchReport, search};

/// Helpers shared by the searches' unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::tree::Tree;
    use super::{SearchConfig, SearchLimits, SearchReport};
    use crate::position::Position;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use std::time::{Duration, Instant};

    /// The signature both searches share.
    pub type SearchFn = fn(
        &Position,
        &mut Tree,
        &SearchConfig,
        &SearchLimits,
        &mut SmallRng,
    ) -> Option<SearchReport>;

    /// Runs `search` for exactly `iterations` iterations with a seeded generator.
    pub fn run_fixed(search: SearchFn, pos: &Position, iterations: u64, seed: u64) -> SearchReport {
        let limits = SearchLimits {
            deadline: Instant::now() + Duration::from_secs(60),
            max_iterations: Some(iterations),
            memory_bytes: 64 << 20,
        };
        let mut rng = SmallRng::seed_from_u64(seed);
        search(
            pos,
            &mut Tree::default(),
            &SearchConfig::default(),
            &limits,
            &mut rng,
        )
        .unwrap()
    }

    /// The 6x7 board (blocked cell top right) after `moves`, none of which may win.
    pub fn after(moves: &[usize]) -> Position {
        let mut pos = Position::new(6, 7, 0, 6).unwrap();
        for &c in moves {
            assert!(!pos.play(c));
        }
        pos
    }
}
