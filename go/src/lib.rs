//! A Monte-Carlo Go engine: the rules, a UCT search with RAVE and patterns, and the GTP, GMP
//! and SGF protocols, for the `go-engine` program and the judge.

#![warn(missing_docs)]

pub mod bench;
pub mod board;
pub mod cli;
pub mod clock;
pub mod engine;
pub mod game;
pub mod gmp;
pub mod gtp;
pub mod model;
pub mod player;
pub mod point;
pub mod reference;
pub mod search;
pub mod settings;
pub mod sgf;
pub mod status;
