//! `gravity4-judge`: isolated, statistically honest tournaments of Connect-4, Reversi and
//! Go players (course-ABI libraries and stdin/stdout programs), and views to play and
//! replay their games in the terminal or the browser.
//!
//! Data flows one way: CLI -> [`schedule`] -> [`referee`] (a [`games::Game`]) ->
//! [`players`] -> [`record`] (the game log) -> [`stats`] / [`results`] -> [`report`] and
//! [`view`]. No module reaches back up that chain: the [`tournament`] hands finished
//! games to [`record::Observer`]s it does not know by name, and the reporters and views
//! read plain records and the [`run_dir`], never the CLI's structures.
//!
//! Two seams keep the tournament general:
//! - [`games::Game`]: the rules (setups drawn from a seed, legality, moves, endings, the
//!   grid the views draw). Three games implement it: [`games::connect4::Connect4`], the
//!   course's gravity Connect-4 with a blocked cell, [`games::reversi::Reversi`], the
//!   course's second game under either rule set, and [`games::go::Go`] (any size, komi,
//!   handicap; Tromp-Taylor scoring, positional superko).
//! - [`players::Player`]: start a game, answer moves under a time limit, stop, and faults
//!   that become verdicts. A course-ABI library in its own child process
//!   ([`players::course_abi`]) and programs over stdin/stdout ([`players::saiblo`],
//!   [`players::gtp`] for Reversi and Go, [`players::botzone`]) implement it; the
//!   process layer (pipes, signals, rlimits, scratch directories) is private to
//!   [`players`].
//!
//! The [`referee`] also keeps each side's game [`clock`] when a run has one (Go's main
//! time and byo-yomi).
//!
//! A run can be split into shards ([`schedule::Shard`], `--shard I/N`) that batch engines
//! run anywhere; [`shards`] reads their run directories back as one run for `judge merge`
//! and `judge status`.
//!
//! [`check`] is `judge check`: the pre-submission checklist for one course library
//! (loading, the contract on hostile positions, time, many games in one process, memory,
//! stdout, strength), from calls and games in isolated processes.
//!
//! [`commands`] wires the pieces for each command; the `judge` binary only parses
//! arguments and calls it.

#![warn(missing_docs)]

pub mod check;
pub mod clock;
pub mod commands;
pub mod games;
pub mod players;
pub mod record;
pub mod referee;
pub mod report;
pub mod results;
pub mod run_dir;
pub mod schedule;
pub mod shards;
pub mod stats;
pub mod tournament;
pub mod view;
