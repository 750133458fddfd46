//! A quick strength hint: one profile against another from varied openings, colours swapped.
//!
//! Each opening is a few uniformly random plies from the start (seeded, so a run can be
//! repeated), played twice with the engines swapping colours: the pair cancels most of the
//! opening's own bias. This is a hint, not a measurement; the judge makes the real one.

use std::io::{self, Write};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::position::{Color, GameResult, Move, Position, Rule};
use crate::search::{Engine, Limits, Profile, Tuning};

/// What to play.
#[derive(Clone, Copy, Debug)]
pub struct MatchConfig {
    /// Games in all (rounded up to whole pairs).
    pub games: u32,
    /// Budget per move, ms.
    pub move_ms: u64,
    /// Rule set.
    pub rule: Rule,
    /// Random plies that make each opening.
    pub random_plies: u32,
    /// Seed of the openings and of the engines' generators.
    pub seed: u64,
    /// The engine being measured.
    pub first: Profile,
    /// Its opponent.
    pub second: Profile,
    /// Tree memory cap per engine, bytes.
    pub memory_bytes: usize,
    /// The engines' experiment knobs.
    pub tuning: Tuning,
}

/// Wins, draws and losses of the first profile, and its summed disc margin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first profile won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first profile lost.
    pub losses: u32,
    /// Sum over games of the first profile's disc margin.
    pub discs: i64,
}

/// A random opening of `plies` plies under `rule` (shorter if the game ends, which at these
/// depths it does not).
pub fn random_opening(rule: Rule, plies: u32, rng: &mut SmallRng) -> Position {
    let mut pos = Position::start(rule);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos
            .play(moves[rng.random_range(0..moves.len())])
            .expect("listed moves are legal");
    }
    pos
}

/// Plays `pos` to the end between two engines, checking every move; the result.
pub fn play_game(
    black: &mut dyn Engine,
    white: &mut dyn Engine,
    mut pos: Position,
    limits: Limits,
) -> Result<GameResult, String> {
    black.new_game();
    white.new_game();
    while !pos.is_game_over() {
        let engine: &mut dyn Engine = match pos.to_move() {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        let mv = if pos.must_pass() {
            Move::Pass
        } else {
            engine.choose(&pos, limits).mv
        };
        pos = pos
            .play(mv)
            .map_err(|e| format!("{} played {mv}: {e}\n{pos}", engine.name()))?;
    }
    Ok(pos.score())
}

/// Plays the match, one line per game on `out`, and returns the first profile's tally.
pub fn run_match<W: Write>(config: &MatchConfig, out: &mut W) -> io::Result<Tally> {
    let mut tally = Tally::default();
    let pairs = config.games.div_ceil(2);
    let limits = Limits::time(config.move_ms);
    for pair in 0..pairs {
        let mut rng = SmallRng::seed_from_u64(config.seed.wrapping_add(u64::from(pair)));
        let opening = random_opening(config.rule, config.random_plies, &mut rng);
        for first_is_black in [true, false] {
            let seed = config
                .seed
                .wrapping_mul(31)
                .wrapping_add(u64::from(pair) * 2);
            let mut first = config
                .first
                .engine(Some(seed), config.memory_bytes, &config.tuning);
            let mut second =
                config
                    .second
                    .engine(Some(seed + 1), config.memory_bytes, &config.tuning);
            let result = if first_is_black {
                play_game(first.as_mut(), second.as_mut(), opening, limits)
            } else {
                play_game(second.as_mut(), first.as_mut(), opening, limits)
            }
            .map_err(io::Error::other)?;
            let margin = if first_is_black {
                result.disc_difference()
            } else {
                -result.disc_difference()
            };
            match margin.cmp(&0) {
                std::cmp::Ordering::Greater => tally.wins += 1,
                std::cmp::Ordering::Equal => tally.draws += 1,
                std::cmp::Ordering::Less => tally.losses += 1,
            }
            tally.discs += i64::from(margin);
            writeln!(
                out,
                "game {:3}  {} as {:5}  {:+3}  running {}-{}-{}",
                pair * 2 + u32::from(!first_is_black) + 1,
                config.first,
                if first_is_black { "black" } else { "white" },
                margin,
                tally.wins,
                tally.draws,
                tally.losses
            )?;
            out.flush()?;
        }
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tiny_match_counts_every_game() {
        let config = MatchConfig {
            games: 2,
            move_ms: 2,
            rule: Rule::NoAdjacent,
            random_plies: 4,
            seed: 1,
            first: Profile::Strong,
            second: Profile::Classic,
            memory_bytes: 1 << 22,
            tuning: Tuning::default(),
        };
        let mut out = Vec::new();
        let t = run_match(&config, &mut out).unwrap();
        assert_eq!(t.wins + t.draws + t.losses, 2);
        assert_eq!(String::from_utf8(out).unwrap().lines().count(), 2);
    }
}
