//! Reversi (Othello): bitboard rules, two Monte-Carlo tree search engines (`strong` is the
//! default), an alpha-beta engine, and the GTP and Botzone protocols that drive them.
//!
//! Data flows one way: [`bitboard`] (masks and shifts) -> [`position`] (the rules, both rule
//! sets) -> [`search`] (the `classic` and `strong` MCTS engines, the `alphabeta` engine, the
//! exact endgame solver) -> [`protocol`] (GTP, Botzone JSON), [`selfplay`] and [`settings`]
//! (the `REVERSI_*` environment variables, read once) -> the `reversi` program. [`learned`]
//! makes the `learned` engine's pattern tables offline (`reversi train`); play only reads them.
//!
//! A referee needs only [`Position`]: [`Position::start`], [`Position::legal_moves`],
//! [`Position::play`], [`Position::is_game_over`], [`Position::result`] and its `Display`.
//! A player needs an [`Engine`] from [`Profile::engine`].

#![warn(missing_docs)]

pub mod bitboard;
pub mod learned;
pub mod position;
pub mod protocol;
pub mod search;
pub mod selfplay;
pub mod settings;

pub use bitboard::Square;
pub use position::{Color, GameResult, Move, Position, Rule, RulesError, perft};
pub use search::{Engine, Limits, Profile, Proof, SearchReport, Tuning};
pub use settings::Settings;
