//! The exact endgame solver: negamax alpha-beta to the end of the game, on the final score.
//!
//! Built the way the Othello endgame literature describes (Buro's papers, the Zebra and Edax
//! documentation), in three layers by the empties left ([`search`]): far from the end a
//! transposition table with bounds, fastest-first ordering (the move that leaves the opponent
//! the fewest replies, corners and odd quadrants preferred) and principal-variation search;
//! closer in, parity order without a table; in the last four empties no move generation, and
//! the last empty scored by counting flips. A stability cut-off ([`stability`]: the opponent's
//! discs that can never flip bound our score from above) prunes everywhere but the last four.
//!
//! The solver works for both rule sets: the house rule's forbidden squares travel with each
//! position (the last move's square), and passes follow [`crate::Rule::NoAdjacent`]'s rules.
//! Scores count the discs on the board ([`Scoring::DiscsOnBoard`], what the engines use) or
//! give the empties to the winner ([`Scoring::EmptiesToWinner`], how the FFO suite counts);
//! the two agree on win, draw or loss. [`ffo`] reads the FFO test suite.

use std::time::Instant;

mod bits;
pub mod ffo;
mod search;
mod stability;
mod table;

use crate::position::{Move, Position, Rule};
use bits::NO_LAST;
use table::Table;

/// Slots in the engines' table, as a power of two: 2^18 slots of 24 bytes, 6 MiB (each engine
/// keeps a solver; its root solves reach 20 empties, where this holds the deep nodes).
pub const DEFAULT_TABLE_BITS: u32 = 18;

/// From this many empties on, the deep search (table, fastest-first, PVS) runs; below it the
/// shallow one. 7 as in the Edax and Zebra docs' "the table does not pay in the last ~6 plies"
/// (measured: see reversi/README.md, Endgame).
pub const DEEP_MIN_EMPTIES: u32 = 7;

/// From this many empties on, the ordering looks one ply further (see [`Config`]).
pub const LOOKAHEAD_EMPTIES: u32 = 12;

/// How often (in nodes) the clock is read.
const CLOCK_EVERY: u64 = 4096;

/// How a finished game is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Scoring {
    /// Own discs minus the opponent's; empty squares count for nobody (the engines, GTP).
    #[default]
    DiscsOnBoard,
    /// The empty squares of a game that ended early go to the winner (World Othello Federation
    /// rules, the FFO suite's published scores).
    EmptiesToWinner,
}

/// The deep search's move ordering: a move's key (smaller first) is `mobility` times the
/// opponent's replies after it (corners counted twice) plus `potential` times the empty
/// squares next to our discs (where its later replies come from), less `corner` for a corner
/// and `parity` for a move into a quadrant with an odd number of empties. Fastest-first is
/// Zebra's and Edax's main endgame ordering; the other terms' defaults were set on FFO #40-#42
/// (reversi/README.md, Endgame).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per opponent reply.
    pub mobility: i32,
    /// Per empty square next to our discs.
    pub potential: i32,
    /// Bonus of a corner move.
    pub corner: i32,
    /// Bonus of a move into an odd quadrant.
    pub parity: i32,
    /// From [`Config::lookahead_empties`] on: per unit of the opponent's best mobility
    /// difference one ply further (its replies minus ours after its best reply).
    pub lookahead: i32,
}

impl Weights {
    /// The defaults (see [`Weights`]).
    pub const DEFAULT: Weights = Weights {
        mobility: 16,
        potential: 4,
        corner: 12,
        parity: 6,
        lookahead: 8,
    };
}

/// The solver's switches, for ablations; [`Config::default`] is what the engines use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The table has `2^table_bits` slots of 24 bytes.
    pub table_bits: u32,
    /// Empties from which the deep search (table, fastest-first, PVS) runs.
    pub deep_min_empties: u32,
    /// The stability cut-off.
    pub stability: bool,
    /// Parity in move ordering (odd quadrants first).
    pub parity: bool,
    /// Enhanced transposition cut-offs (a child's stored bound refutes the node before any
    /// search) in the deep search.
    pub etc: bool,
    /// The deep search's ordering weights.
    pub weights: Weights,
    /// From this many empties on the ordering looks one ply further ([`Weights::lookahead`]):
    /// few nodes have that many empties and each cuts a large subtree.
    pub lookahead_empties: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            table_bits: DEFAULT_TABLE_BITS,
            deep_min_empties: DEEP_MIN_EMPTIES,
            stability: true,
            parity: true,
            etc: true,
            weights: Weights::DEFAULT,
            lookahead_empties: LOOKAHEAD_EMPTIES,
        }
    }
}

/// An exact solver with its transposition table; reuse one across searches.
pub struct Solver {
    table: Table,
    config: Config,
    nodes: u64,
    next_clock: u64,
    deadline: Option<Instant>,
    /// A caller's own stop condition, asked with the clock (the benchmark's CPU-time limit).
    stop: Option<Box<dyn FnMut() -> bool + Send>>,
    aborted: bool,
    /// The rule of the current solve: under the house rule each move forbids squares.
    no_adjacent: bool,
    /// The scoring of the current solve.
    empties_to_winner: bool,
    scoring: Scoring,
    /// The rule and scoring the table's entries were computed under.
    table_for: Option<(Rule, Scoring)>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

/// For the engines' tests: `report`, an engine's answer in `pos`, proves what the exact
/// `solver` finds, and its move keeps that outcome (any move keeps a loss).
#[cfg(test)]
pub(crate) fn assert_proven_and_kept(
    solver: &mut Solver,
    pos: &Position,
    report: &super::SearchReport,
) {
    use super::Proof;
    let truth = solver.outcome(pos, None).expect("no deadline");
    let expected = match truth {
        1 => Proof::Win,
        0 => Proof::Draw,
        _ => Proof::Loss,
    };
    assert_eq!(report.proof, expected, "{pos}");
    let after = pos.play(report.mv).expect("engines answer legal moves");
    assert!(-solver.outcome(&after, None).expect("no deadline") == truth || truth < 0);
}

/// For the engines' tests: the position after random legal moves from the start of `rule`
/// down to `empties` empty squares, or `None` if the game ended on the way (or is over).
#[cfg(test)]
pub(crate) fn random_position(
    rule: crate::position::Rule,
    empties: u32,
    rng: &mut rand::rngs::SmallRng,
) -> Option<Position> {
    use rand::Rng;
    let mut p = Position::start(rule);
    while p.empties() > empties {
        let moves = p.legal_moves();
        if moves.is_empty() {
            return None;
        }
        p = p.play(moves[rng.random_range(0..moves.len())]).unwrap();
    }
    (!p.is_game_over()).then_some(p)
}

/// Sorts `moves` by ascending `keys` (the two slices are parallel), stable: an insertion
/// sort, since a position has a handful of moves.
pub(crate) fn sort_by_keys(moves: &mut [u8], keys: &mut [i32]) {
    for a in 1..moves.len() {
        let (k, v) = (keys[a], moves[a]);
        let mut b = a;
        while b > 0 && keys[b - 1] > k {
            keys[b] = keys[b - 1];
            moves[b] = moves[b - 1];
            b -= 1;
        }
        keys[b] = k;
        moves[b] = v;
    }
}

/// The square the house rule keys on, or 64: two positions with the same discs but different
/// forbidden squares have different values.
#[inline]
pub(crate) fn last_code(pos: &Position) -> u8 {
    if pos.forbidden() == 0 {
        64
    } else {
        match pos.last_move() {
            Some(Move::Play(sq)) => sq.index(),
            _ => 64,
        }
    }
}

/// The slot of a position (`own`, `opp`, [`last_code`]) in a table of `2^bits` entries; the
/// solver's table and the alpha-beta engine's share it.
#[inline]
pub(crate) fn slot(own: u64, opp: u64, last: u8, bits: u32) -> usize {
    let h = own.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
        ^ opp.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
        ^ u64::from(last).wrapping_mul(0x1656_67b1_9e37_79f9);
    (h >> (64 - bits)) as usize
}

impl Solver {
    /// A solver with an empty table and the default [`Config`].
    pub fn new() -> Solver {
        Solver::with_config(Config::default())
    }

    /// A solver with an empty table and these switches.
    pub fn with_config(config: Config) -> Solver {
        Solver {
            table: Table::new(config.table_bits.max(1)),
            config,
            nodes: 0,
            next_clock: 0,
            deadline: None,
            stop: None,
            aborted: false,
            no_adjacent: false,
            empties_to_winner: false,
            scoring: Scoring::default(),
            table_for: None,
        }
    }

    /// Scores finished games this way from the next solve on (default
    /// [`Scoring::DiscsOnBoard`]).
    pub fn set_scoring(&mut self, scoring: Scoring) {
        self.scoring = scoring;
    }

    /// Adds a stop condition, asked every few thousand nodes beside the deadline, for the
    /// solves that follow (`None` removes it): a solve it stops returns `None` as one past its
    /// deadline does. The FFO benchmark limits CPU time this way.
    pub fn set_stop(&mut self, stop: Option<Box<dyn FnMut() -> bool + Send>>) {
        self.stop = stop;
    }

    /// Nodes visited by the last solve.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The best move of `pos` and its exact value clipped to the window: the final score for
    /// the side to move when it lies strictly inside (`alpha`, `beta`), else a bound on the
    /// far side of the window. A window of (-1, 1) asks only win, draw or loss. `None` when
    /// `deadline` passed first, or the game is over.
    pub fn solve(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        deadline: Option<Instant>,
    ) -> Option<(i32, Move)> {
        self.start(pos, deadline);
        if pos.is_game_over() {
            return None;
        }
        let (own, opp, last) = (pos.own(), pos.opp(), last_code(pos));
        let moves = pos.move_mask();
        if moves == 0 {
            let v = -self.search(opp, own, NO_LAST, -beta, -alpha);
            return (!self.aborted).then_some((v, Move::Pass));
        }
        let hint = self.table.probe(own, opp, last).map_or(NO_LAST, |e| e.best);
        let mut list = self.ordered(own, opp, moves, hint, pos.empties());
        let (v, sq) = self.pvs(own, opp, &mut list, alpha, beta);
        let sq = crate::bitboard::Square::new(sq).expect("moves are squares");
        (!self.aborted).then_some((v, Move::Play(sq)))
    }

    /// The exact value (final score for the side to move) of `pos`, or `None` past the
    /// deadline.
    pub fn value(&mut self, pos: &Position, deadline: Option<Instant>) -> Option<i32> {
        self.start(pos, deadline);
        let v = self.search(pos.own(), pos.opp(), last_code(pos), -64, 64);
        (!self.aborted).then_some(v)
    }

    /// Win/draw/loss of `pos` for the side to move (1, 0, -1), or `None` past the deadline.
    pub fn outcome(&mut self, pos: &Position, deadline: Option<Instant>) -> Option<i32> {
        self.start(pos, deadline);
        let v = self.search(pos.own(), pos.opp(), last_code(pos), -1, 1);
        (!self.aborted).then_some(v.signum())
    }

    /// Resets the counters for a solve of `pos`; forgets the table if the rule or the
    /// scoring changed since it was filled.
    fn start(&mut self, pos: &Position, deadline: Option<Instant>) {
        self.nodes = 0;
        self.next_clock = CLOCK_EVERY;
        self.deadline = deadline;
        self.aborted = false;
        self.no_adjacent = pos.rule() == Rule::NoAdjacent;
        self.empties_to_winner = self.scoring == Scoring::EmptiesToWinner;
        let now = Some((pos.rule(), self.scoring));
        if self.table_for != now {
            self.table.clear();
            self.table_for = now;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{Color, Rule};
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    /// Plain minimax to the end through the rules' own moves: the reference the solver must
    /// match, under either scoring.
    fn minimax_scored(pos: &Position, scoring: Scoring) -> i32 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            let r = if scoring == Scoring::EmptiesToWinner {
                pos.score().empties_to_winner()
            } else {
                pos.score()
            };
            let black = r.disc_difference();
            return if pos.to_move() == Color::Black {
                black
            } else {
                -black
            };
        }
        moves
            .iter()
            .map(|&m| -minimax_scored(&pos.play(m).unwrap(), scoring))
            .max()
            .unwrap()
    }

    fn minimax(pos: &Position) -> i32 {
        minimax_scored(pos, Scoring::DiscsOnBoard)
    }

    #[test]
    fn solver_matches_minimax_on_small_endgames() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut solver = Solver::new();
        let mut checked = 0;
        for rule in [Rule::Standard, Rule::NoAdjacent] {
            for _ in 0..30 {
                let Some(p) = random_position(rule, 7, &mut rng) else {
                    continue;
                };
                let exact = minimax(&p);
                assert_eq!(solver.value(&p, None), Some(exact), "{p}");
                assert_eq!(solver.outcome(&p, None), Some(exact.signum()), "{p}");
                let (v, mv) = solver.solve(&p, -64, 64, None).unwrap();
                assert_eq!(v, exact);
                assert!(p.is_legal(mv));
                assert_eq!(-minimax(&p.play(mv).unwrap()), exact);
                checked += 1;
            }
        }
        assert!(checked > 40);
    }

    #[test]
    fn empties_to_the_winner_match_minimax_too() {
        // Games that end with empty squares are rare in random play: keep drawing positions
        // until a few whose perfect play ends early (the scorings differ) have been checked.
        let mut rng = SmallRng::seed_from_u64(12);
        let mut solver = Solver::new();
        solver.set_scoring(Scoring::EmptiesToWinner);
        let (mut early_ends, mut tries) = (0, 0);
        while early_ends < 4 && tries < 5000 {
            tries += 1;
            let rule = [Rule::Standard, Rule::NoAdjacent][tries % 2];
            let Some(p) = random_position(rule, 7, &mut rng) else {
                continue;
            };
            let exact = minimax_scored(&p, Scoring::EmptiesToWinner);
            if exact == minimax(&p) && tries > 60 {
                continue;
            }
            early_ends += u32::from(exact != minimax(&p));
            assert_eq!(solver.value(&p, None), Some(exact), "{p}");
            let (v, mv) = solver.solve(&p, -64, 64, None).unwrap();
            assert_eq!(v, exact, "{p}");
            assert_eq!(
                -minimax_scored(&p.play(mv).unwrap(), Scoring::EmptiesToWinner),
                v
            );
        }
        assert_eq!(
            early_ends, 4,
            "too few games ended early in {tries} positions"
        );
    }

    #[test]
    fn every_layer_and_switch_gives_the_same_values_at_12_empties() {
        // The deep search from 5 empties, from 7 (default), never; stability and parity off:
        // all must agree, and each move found must keep the value.
        let configs = [
            Config::default(),
            Config {
                deep_min_empties: 5,
                ..Config::default()
            },
            Config {
                deep_min_empties: 64,
                ..Config::default()
            },
            Config {
                stability: false,
                parity: false,
                table_bits: 4,
                ..Config::default()
            },
        ];
        let mut solvers: Vec<Solver> = configs.iter().map(|&c| Solver::with_config(c)).collect();
        let mut rng = SmallRng::seed_from_u64(13);
        let mut checked = 0;
        for rule in [Rule::Standard, Rule::NoAdjacent] {
            for _ in 0..6 {
                let Some(p) = random_position(rule, 12, &mut rng) else {
                    continue;
                };
                let exact = solvers[0].value(&p, None).unwrap();
                for s in &mut solvers {
                    assert_eq!(s.value(&p, None), Some(exact), "{p}");
                    let (v, mv) = s.solve(&p, -64, 64, None).unwrap();
                    assert_eq!(v, exact, "{p}");
                    assert_eq!(s.value(&p.play(mv).unwrap(), None), Some(-exact), "{p}");
                    // A null window just below the value proves it is at least that much.
                    let (lower, _) = s.solve(&p, exact - 1, exact, None).unwrap();
                    assert!(lower >= exact, "{p}");
                    let (upper, _) = s.solve(&p, exact, exact + 1, None).unwrap();
                    assert!(upper <= exact, "{p}");
                }
                checked += 1;
            }
        }
        assert!(checked >= 8);
    }
}
