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

pub mod endgame;
pub mod playout;
pub mod solver;
pub mod tree;
pub mod uct;

pub use uct::{SearchConfig, SearchLimits, SearchReport, search};
