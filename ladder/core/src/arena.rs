//! An in-process arena: strategies play each other directly, without libraries or processes.
//!
//! Used to tune the ladder quickly and by the tests. Boards are drawn the way the course's
//! judge draws them (rows and columns uniform in 9..=12, the blocked cell uniform over the
//! whole board) and every board is played twice with colours swapped, so neither side profits
//! from moving first. The official strength table comes from the real judge (see the README).

use gravity4::position::{Position, Side};
use gravity4::request::Request;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Anything that picks a column for a request: a ladder [`Strategy`](crate::Strategy) or a
/// closure over one with its parameters (for tuning).
pub type Player = dyn Fn(&Request) -> usize + Sync;

/// A board to play on: size and blocked cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Rows (`M`).
    pub rows: usize,
    /// Columns (`N`).
    pub cols: usize,
    /// The blocked cell's row.
    pub blocked_row: usize,
    /// The blocked cell's column.
    pub blocked_col: usize,
}

impl Board {
    /// A board as the course's judge draws one.
    pub fn random(rng: &mut impl Rng) -> Board {
        let rows = rng.random_range(9..=12);
        let cols = rng.random_range(9..=12);
        Board {
            rows,
            cols,
            blocked_row: rng.random_range(0..rows),
            blocked_col: rng.random_range(0..cols),
        }
    }

    /// The empty position on this board.
    pub fn position(&self) -> Position {
        Position::new(self.rows, self.cols, self.blocked_row, self.blocked_col)
            .expect("arena boards are within the supported sizes")
    }
}

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOutcome {
    /// The side that moved first won (four in a row, or the other side played illegally).
    FirstWins,
    /// The side that moved second won.
    SecondWins,
    /// The board filled up.
    Tie,
}

/// Plays one game on `board`, `first` moving first. A strategy that answers an illegal column
/// loses, as under the course judge.
pub fn play_game(first: &Player, second: &Player, board: Board) -> GameOutcome {
    let mut pos = board.position();
    let mut last_move = None;
    loop {
        let first_to_move = pos.to_move() == Side::Us;
        let strategy = if first_to_move { first } else { second };
        let request = Request {
            position: pos.clone(),
            last_move,
            entry: Instant::now(),
        };
        let col = strategy(&request);
        let mover_wins = if first_to_move {
            GameOutcome::FirstWins
        } else {
            GameOutcome::SecondWins
        };
        if !pos.can_play(col) {
            eprintln!("arena: illegal column {col} in\n{pos:?}");
            return if first_to_move {
                GameOutcome::SecondWins
            } else {
                GameOutcome::FirstWins
            };
        }
        last_move = Some((pos.landing_row(col), col));
        if pos.play(col) {
            return mover_wins;
        }
        if pos.empty_cells() == 0 {
            return GameOutcome::Tie;
        }
    }
}

/// The result of a match, from `a`'s point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    /// Games `a` won.
    pub wins: u32,
    /// Games `a` lost.
    pub losses: u32,
    /// Games tied.
    pub ties: u32,
}

impl MatchResult {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.ties
    }

    /// `a`'s score: wins plus half the ties, as a fraction of the games (0.5 if none).
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.ties)) / f64::from(self.games())
    }
}

/// Plays `pairs` random boards (drawn from `seed`), each twice with colours swapped, `a`
/// against `b`, on `threads` threads.
pub fn play_match(a: &Player, b: &Player, pairs: usize, seed: u64, threads: usize) -> MatchResult {
    let mut rng = SmallRng::seed_from_u64(seed);
    let boards: Vec<Board> = (0..pairs).map(|_| Board::random(&mut rng)).collect();
    let next = AtomicUsize::new(0);
    let total = Mutex::new(MatchResult::default());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&board) = boards.get(i) else { break };
                    let games = [
                        (play_game(a, b, board), GameOutcome::FirstWins),
                        (play_game(b, a, board), GameOutcome::SecondWins),
                    ];
                    let mut total = total.lock().unwrap_or_else(|p| p.into_inner());
                    for (outcome, a_won) in games {
                        match outcome {
                            GameOutcome::Tie => total.ties += 1,
                            o if o == a_won => total.wins += 1,
                            _ => total.losses += 1,
                        }
                    }
                }
            });
        }
    });
    total.into_inner().unwrap_or_else(|p| p.into_inner())
}
