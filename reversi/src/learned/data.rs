//! Training data: self-play games from random openings, each position labelled with a final
//! disc margin for the side to move.
//!
//! A game starts with a few uniformly random plies, then the `alphabeta` engine plays it at a
//! fixed depth on the hand-set evaluation, with a random move now and then (noise, so that
//! games from one opening diverge). From [`GenConfig::exact_empties`] empties on, the exact
//! solver plays and labels every position with its exact value; the earlier positions of the
//! game are labelled with the exact value of the game's first solved position (the outcome the
//! game was heading to under perfect play from there), as Buro labelled his positions with the
//! result of the game. Everything comes from the seed and the game's number, so a shard of
//! games is the same on any machine and under any split.

use std::io::{self, Read, Write};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::position::{Color, Move, Position, Rule};
use crate::search::alphabeta::AlphaBeta;
use crate::search::endgame::Solver;
use crate::search::heuristic::Weights;
use crate::selfplay::random_opening;

/// Bytes of one [`Record`] on disk: own, opp (u64 little-endian), label (i8), game (u32).
pub const RECORD_BYTES: usize = 21;

/// Random plies of an opening, at least and at most: 4 (the judge's openings) to 12, so the
/// early middle game is varied too.
pub const OPENING_PLIES: (u32, u32) = (4, 12);

/// The policy engine's table: small, the searches are shallow.
const POLICY_TABLE_BYTES: usize = 4 << 20;

/// How to make games.
#[derive(Clone, Copy, Debug)]
pub struct GenConfig {
    /// Rule set.
    pub rule: Rule,
    /// Seed of everything random.
    pub seed: u64,
    /// The first game's number.
    pub first_game: u64,
    /// Games to play.
    pub games: u64,
    /// Depth of the policy's search (plies).
    pub depth: u32,
    /// From this many empties on the exact solver plays and labels.
    pub exact_empties: u32,
    /// Chance of a random move in place of the policy's.
    pub noise: f64,
    /// Random plies of an opening, at least and at most.
    pub opening_plies: (u32, u32),
}

/// One labelled position: the side to move's discs, the other side's, and the final disc
/// margin for the side to move; `game` is the game's number (to split training from
/// validation by games, not positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The side to move's discs.
    pub own: u64,
    /// The other side's discs.
    pub opp: u64,
    /// Final disc margin for the side to move (exact, or the game's outcome; see the module).
    pub label: i8,
    /// The game's number.
    pub game: u32,
}

impl Record {
    /// Empty squares.
    pub fn empties(&self) -> u32 {
        (!(self.own | self.opp)).count_ones()
    }

    /// The position (side to move as black, standard rules).
    pub fn position(&self) -> Position {
        Position::from_parts(self.own, self.opp, Color::Black, None, Rule::Standard)
            .expect("a record's sides do not overlap")
    }

    /// The record's bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[..8].copy_from_slice(&self.own.to_le_bytes());
        b[8..16].copy_from_slice(&self.opp.to_le_bytes());
        b[16] = self.label as u8;
        b[17..].copy_from_slice(&self.game.to_le_bytes());
        b
    }

    /// The record in `b`.
    pub fn from_bytes(b: &[u8; RECORD_BYTES]) -> Record {
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        Record {
            own: u64_at(0),
            opp: u64_at(8),
            label: b[16] as i8,
            game: u32::from_le_bytes(b[17..].try_into().expect("4 bytes")),
        }
    }
}

/// Reads every record from `input` (a whole number of them, else an error).
pub fn read_records(mut input: impl Read) -> io::Result<Vec<Record>> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    if bytes.len() % RECORD_BYTES != 0 {
        return Err(io::Error::other(format!(
            "{} bytes is not a whole number of {RECORD_BYTES}-byte records",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(RECORD_BYTES)
        .map(|c| Record::from_bytes(c.try_into().expect("chunk size")))
        .collect())
}

/// A game's own generator: from the seed and the game's number only.
fn game_rng(seed: u64, game: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed ^ game.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// Plays `config.games` games and writes their records to `out`; returns how many.
pub fn generate(config: &GenConfig, out: &mut impl Write) -> io::Result<u64> {
    let mut engine = AlphaBeta::new(POLICY_TABLE_BYTES, Weights::DEFAULT);
    let mut written = 0;
    for game in config.first_game..config.first_game + config.games {
        // A fresh solver per game: its table's contents could pick another of two equal
        // best moves, and a game must not depend on the games before it.
        let records = play_one(config, game, &mut engine, &mut Solver::new());
        for r in &records {
            out.write_all(&r.to_bytes())?;
        }
        written += records.len() as u64;
    }
    out.flush()?;
    Ok(written)
}

/// One game's labelled positions.
fn play_one(
    config: &GenConfig,
    game: u64,
    engine: &mut AlphaBeta,
    solver: &mut Solver,
) -> Vec<Record> {
    use crate::search::Engine;
    let mut rng = game_rng(config.seed, game);
    let (lo, hi) = config.opening_plies;
    let plies = rng.random_range(lo..=hi.max(lo));
    let mut pos = random_opening(config.rule, plies, &mut rng);
    engine.new_game();
    let mut early: Vec<(u64, u64, Color)> = Vec::new();
    let mut records = Vec::new();
    // The exact value of the first solved position, and whose it is.
    let mut outcome: Option<(i32, Color)> = None;
    let record = |own, opp, label: i32| Record {
        own,
        opp,
        label: label as i8,
        game: game as u32,
    };
    while !pos.is_game_over() {
        if pos.must_pass() {
            pos = pos.play_unchecked(Move::Pass);
            continue;
        }
        let mut mv = if pos.empties() <= config.exact_empties {
            let (v, best) = solver.solve(&pos, -64, 64, None).expect("no deadline");
            records.push(record(pos.own(), pos.opp(), v));
            outcome.get_or_insert((v, pos.to_move()));
            best
        } else {
            early.push((pos.own(), pos.opp(), pos.to_move()));
            engine.best_at_depth(&pos, config.depth).0
        };
        if rng.random_bool(config.noise) {
            let moves = pos.legal_moves();
            mv = moves[rng.random_range(0..moves.len())];
        }
        pos = pos.play_unchecked(mv);
    }
    // A game over before the solver's turn (a wipe-out) has its exact result already.
    let (value, whose) = outcome.unwrap_or((pos.disc_margin(), pos.to_move()));
    for (own, opp, color) in early {
        let label = if color == whose { value } else { -value };
        records.push(record(own, opp, label));
    }
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> GenConfig {
        GenConfig {
            rule: Rule::Standard,
            seed: 3,
            first_game: 0,
            games: 2,
            depth: 1,
            exact_empties: 8,
            noise: 0.1,
            opening_plies: (4, 8),
        }
    }

    #[test]
    fn records_round_trip_and_labels_are_exact_near_the_end() {
        let mut bytes = Vec::new();
        let n = generate(&config(), &mut bytes).unwrap();
        let records = read_records(&bytes[..]).unwrap();
        assert_eq!(records.len() as u64, n);
        assert!(n > 60, "{n}");
        let mut solver = Solver::new();
        for r in records.iter().filter(|r| r.empties() <= 8).take(10) {
            let pos =
                Position::from_parts(r.own, r.opp, Color::Black, None, Rule::Standard).unwrap();
            assert_eq!(solver.value(&pos, None), Some(i32::from(r.label)));
        }
        // The same seed and game numbers give the same games, however they are split.
        let mut second = Vec::new();
        generate(
            &GenConfig {
                first_game: 1,
                games: 1,
                ..config()
            },
            &mut second,
        )
        .unwrap();
        assert!(bytes.ends_with(&second) || bytes.windows(second.len()).any(|w| w == second));
        assert!(read_records(&bytes[..5]).is_err());
    }
}
