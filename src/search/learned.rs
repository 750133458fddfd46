//! What the playouts learn during one search, and the policy it gives them: last good
//! replies with forgetting, move averages and playout policy adaptation. They record every
//! move of an iteration (tree and playout) and learn from its outcome; a playout with a
//! free choice (nothing to win, block or avoid) asks them before choosing at random.
//!
//! Last good replies with forgetting (LGRF-1, Baier and Drake, "The Power of Forgetting",
//! 2010) learn which answer to each move won.
//!
//! For each side and each cell the opponent may have just played on, the table holds the
//! column that side last answered it with in an iteration it went on to win. A playout with
//! a free choice (nothing to win, block or avoid) plays that reply when it is among its
//! candidates, else a random candidate. After each iteration the winner's replies along the
//! whole path (tree and playout) are stored, and the loser's are deleted where the table
//! still holds them (the forgetting). Ties change nothing.
//!
//! With `two_moves` (LGRF-2) a second table answers the last TWO moves, and is asked first;
//! the one-move table answers when it has nothing.
//!
//! With `exact`, a reply is a cell rather than a column: it is played only when its column's
//! next stone lands on that very cell (a column answered at another height is another move
//! in Connect-4: other lines, other threats).
//!
//! Move averages (MAST, Finnsson and Bjoernsson, 2008) keep each side's mean result over the
//! iterations in which it played each cell. When no reply applies, a playout plays the
//! candidate whose landing cell has the best mean, with probability 1 - [`MAST_EPSILON`],
//! and a random candidate otherwise.
//!
//! Playout policy adaptation (PPA, Cazenave, "Playout Policy Adaptation", 2015) keeps a
//! weight per side and cell. A free choice with no reply draws a candidate with probability
//! proportional to the weight of its landing cell. After an iteration won by one side,
//! each free choice that side made in the playout moves its policy towards the move it
//! chose: the chosen cell's log-weight gains [`ADAPTATION_RATE`] and every candidate's
//! loses the rate times its probability, so a choice's total log-weight is kept. The
//! weights are kept as `exp(log-weight)` and updated by products (no `exp` per update).
//! With pairs (`ppa-pairs`), a move's weight is its cell's weight times a second one for the
//! pair (the previous move's cell, its cell), and both take the same steps: a soft table of
//! replies, asked after the last good reply. With `ppa-follow-ups`, a third weight for the
//! pair (the mover's own previous cell, its cell) joins the product, and takes the same
//! steps: what to build on one's own last stone. With `ppa-loser`, the loser of an iteration
//! moves its policy away from each free choice it made (the same step, signs reversed).
//!
//! The tables are per search: their knowledge is about the positions around one root
//! (with `GRAVITY4_ENABLE=keep-learned` the tree search keeps them for our next move of the
//! same game, whose positions are two plies further on). The
//! one-move replies and policy adaptation with pairs are on by default (`GRAVITY4_DISABLE=
//! last-good-reply,policy-adaptation,ppa-pairs` switches them off), the rest off
//! (`GRAVITY4_ENABLE=last-good-reply-2`, `exact-replies`, `mast`, `ppa-loser`,
//! `keep-learned`, `ppa-follow-ups`); STRENGTH.md steps 22-29 have what they measured.

use super::config::Techniques;
use super::playout::Outcome;
use crate::position::{MAX_SIZE, Position, Side};
use rand::RngCore;

/// The share of free playout choices that move averages leave to chance: 0.5, not tuned
/// (STRENGTH.md step 22).
pub const MAST_EPSILON: f64 = 0.5;

/// The step of policy adaptation on a log-weight: 0.32, the value of Cazenave's paper
/// (`GRAVITY4_PPA_RATE` overrides it, for tuning).
pub const ADAPTATION_RATE: f32 = 0.32;

/// The range policy adaptation keeps its weights in (`exp` of about -7 and +7), so that
/// no weight overflows or reaches 0 however long the search.
const WEIGHT_RANGE: (f32, f32) = (1e-3, 1e3);

/// A cell as one byte: `row * MAX_SIZE + col`.
pub type Cell = u8;

/// No previous move (before the first move of the path).
pub const NO_CELL: Cell = (MAX_SIZE * MAX_SIZE) as Cell;

/// Cells of the largest board and [`NO_CELL`].
const CELLS: usize = MAX_SIZE * MAX_SIZE + 1;

/// The longest path an iteration can record: every cell of the largest board.
const MAX_MOVES: usize = MAX_SIZE * MAX_SIZE;

/// The reply tables, the move averages and the moves of the iteration under way.
#[derive(Clone)]
pub struct Learned {
    /// `table[side][cell]`: `side`'s last good reply to a stone on `cell` plus one, or 0: its
    /// column, or with `exact` its cell.
    table: [[u8; CELLS]; 2],
    /// With LGRF-2, `pairs[side][before * CELLS + cell]`: the same for a stone on `cell`
    /// after one on `before`; empty without.
    pairs: [Vec<u8>; 2],
    /// The cells played so far in this iteration, from the root on, after two [`NO_CELL`]s
    /// (so the last two moves can always be read).
    moves: [Cell; MAX_MOVES + 2],
    len: usize,
    /// The side that makes the first move recorded in this iteration.
    first_mover: Side,
    /// Replies are cells, not columns.
    exact: bool,
    /// Replies are learned (and so can be found).
    replies: bool,
    /// Move averages, when on: `(half_points, visits, mean)` per side and cell.
    averages: Option<Box<MoveAverages>>,
    /// Policy adaptation, when on: the weights, and this iteration's free choices.
    adaptation: Option<Box<PolicyAdaptation>>,
    /// Iterations learned from since the tables were made (across searches when they are
    /// kept between moves).
    iterations: u64,
}

/// The policy of policy adaptation and what it learns from.
#[derive(Clone)]
struct PolicyAdaptation {
    /// The step on a log-weight ([`ADAPTATION_RATE`] by default), and `exp` of it.
    rate: f32,
    gain: f32,
    /// The loser's choices move its policy away from the moves it chose
    /// ([`Techniques::ppa_loser`]).
    loser_too: bool,
    /// `weight[side][cell]`: `exp` of `side`'s log-weight for a stone on `cell`, within
    /// [`WEIGHT_RANGE`]; 1 until learned.
    weight: [[f32; CELLS]; 2],
    /// With pairs ([`Techniques::ppa_pairs`]), `pairs[(side * CELLS + prev) * CELLS +
    /// cell]`: the same for a stone on `cell` right after one on `prev`, a factor of the
    /// policy's weight; empty without.
    pairs: Vec<f32>,
    /// With follow-ups ([`Techniques::ppa_follow_ups`]), the same layout for a stone on
    /// `cell` by the side whose previous stone (two moves before) is on `prev`; empty
    /// without.
    follow_ups: Vec<f32>,
    /// The free choices of the iteration under way, in order.
    choices: Vec<Choice>,
}

/// One free choice of a playout: the candidate columns and the board's column heights
/// then (so the candidates' landing cells can be found later), and where the move chosen
/// among them is recorded. Copying the heights whole is cheaper than finding the cells of
/// every choice, many of which are never drawn from (a reply decided) nor learned from (the
/// chooser lost).
#[derive(Clone, Copy)]
struct Choice {
    /// Index in [`Learned::moves`] of the move chosen.
    at: u8,
    /// The candidate columns (two or more).
    candidates: u16,
    /// [`Position::tops`] when the choice was made.
    tops: [u8; MAX_SIZE],
}

impl Choice {
    /// Each candidate's landing cell, by column.
    #[inline(always)]
    fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        columns(self.candidates).map(|col| Learned::cell(usize::from(self.tops[col]) - 1, col))
    }
}

/// Each side's results per cell it played: half points, visits, and the mean with one tie
/// added (so a cell not yet played rates 0.5).
#[derive(Clone)]
struct MoveAverages {
    half_points: [[u32; CELLS]; 2],
    visits: [[u32; CELLS]; 2],
    mean: [[f32; CELLS]; 2],
}

impl Learned {
    /// Empty tables for the learned policies `techniques` switch on: one-move replies
    /// (`last_good_reply`), two-move ones too (`two_move_replies`), as cells
    /// (`exact_replies`), move averages (`mast`), policy adaptation (`policy_adaptation`,
    /// with steps of `adaptation_rate` on a log-weight).
    pub fn new(techniques: &Techniques, adaptation_rate: f32) -> Learned {
        let two_moves = techniques.two_move_replies;
        let pairs = || vec![0; if two_moves { CELLS * CELLS } else { 0 }];
        Learned {
            table: [[0; CELLS]; 2],
            pairs: [pairs(), pairs()],
            moves: [NO_CELL; MAX_MOVES + 2],
            len: 2,
            first_mover: Side::Us,
            exact: techniques.exact_replies,
            replies: techniques.last_good_reply || two_moves,
            averages: techniques.mast.then(|| {
                Box::new(MoveAverages {
                    half_points: [[0; CELLS]; 2],
                    visits: [[0; CELLS]; 2],
                    mean: [[0.5; CELLS]; 2],
                })
            }),
            adaptation: techniques.policy_adaptation.then(|| {
                Box::new(PolicyAdaptation {
                    rate: adaptation_rate,
                    gain: adaptation_rate.exp(),
                    loser_too: techniques.ppa_loser,
                    pairs: vec![1.0; usize::from(techniques.ppa_pairs) * 2 * CELLS * CELLS],
                    follow_ups: vec![
                        1.0;
                        usize::from(techniques.ppa_follow_ups) * 2 * CELLS * CELLS
                    ],
                    weight: [[1.0; CELLS]; 2],
                    choices: Vec::with_capacity(MAX_MOVES),
                })
            }),
            iterations: 0,
        }
    }

    /// How many iterations these tables have learned from since [`Self::new`].
    pub fn iterations_learned(&self) -> u64 {
        self.iterations
    }

    /// The cell `(row, col)` as a [`Cell`].
    #[inline(always)]
    pub fn cell(row: usize, col: usize) -> Cell {
        (row * MAX_SIZE + col) as Cell
    }

    /// Starts recording a new iteration, whose first move `first_mover` makes.
    #[inline(always)]
    pub fn begin(&mut self, first_mover: Side) {
        self.len = 2;
        self.first_mover = first_mover;
        if let Some(adaptation) = self.adaptation.as_deref_mut() {
            adaptation.choices.clear();
        }
    }

    /// With policy adaptation, notes a choice among `candidates` (a column mask) in `pos`
    /// whose move is recorded next, to learn from like a playout's free choices: the tree's
    /// moves, with [`Techniques::ppa_tree`]. Nothing without policy adaptation, or for a
    /// lone candidate.
    #[inline(always)]
    pub fn note_choice(&mut self, candidates: u16, pos: &Position) {
        if let Some(adaptation) = self.adaptation.as_deref_mut() {
            adaptation.note(self.len, candidates, pos);
        }
    }

    /// Records the stone the side to move in `pos` is about to drop in `col`.
    #[inline(always)]
    pub fn record_move(&mut self, pos: &Position, col: usize) {
        self.record(Learned::cell(pos.landing_row(col), col));
    }

    /// Records a stone played on `cell` in this iteration.
    #[inline(always)]
    pub fn record(&mut self, cell: Cell) {
        // A path never holds more moves than the board has cells.
        if self.len < self.moves.len() {
            self.moves[self.len] = cell;
            self.len += 1;
        }
    }

    /// The cell of the last move recorded, or [`NO_CELL`].
    #[inline(always)]
    pub fn last(&self) -> Cell {
        self.moves[self.len - 1]
    }

    /// `side`'s good reply in `pos` to the last move recorded (to the last two first, with
    /// LGRF-2), as a column mask (0 if none, or with `exact` if the column's next stone
    /// would not land on the reply's cell).
    #[inline(always)]
    fn reply_mask(&self, side: Side, pos: &Position) -> u16 {
        let (before, last) = (self.moves[self.len - 2], self.moves[self.len - 1]);
        let mut reply = self.table[side as usize][usize::from(last)];
        if let Some(&pair) = self.pairs[side as usize].get(pair_index(before, last)) {
            reply = if pair != 0 { pair } else { reply };
        }
        if self.exact {
            let Some(cell) = reply.checked_sub(1) else {
                return 0;
            };
            let (row, col) = (usize::from(cell) / MAX_SIZE, usize::from(cell) % MAX_SIZE);
            // `top` is the landing row plus one (0 when full).
            return u16::from(pos.top(col) == row + 1) << col;
        }
        // reply 0 (none) shifts to 0; reply c + 1 to bit c.
        ((1u32 << reply) >> 1) as u16
    }

    /// The column a playout with a free choice among `candidates` (a non-empty column
    /// mask) should play for `side` in `pos`, which is recorded next: the good reply to the
    /// last move(s) if it is a candidate, else (with move averages, most of the time) the
    /// candidate whose landing cell has the best mean, else (with policy adaptation) a draw
    /// by the adapted policy; `None` leaves the choice to chance. With policy adaptation the
    /// choice is noted whoever makes it, for [`Self::learn`].
    #[inline(always)]
    pub fn pick<R: RngCore>(
        &mut self,
        side: Side,
        candidates: u16,
        pos: &Position,
        rng: &mut R,
    ) -> Option<usize> {
        if let Some(adaptation) = self.adaptation.as_deref_mut() {
            adaptation.note(self.len, candidates, pos);
        }
        let reply = self.reply_mask(side, pos) & candidates;
        if reply != 0 {
            return Some(reply.trailing_zeros() as usize);
        }
        if let Some(averages) = self.averages.as_deref()
            && f64::from(rng.next_u32()) >= MAST_EPSILON * 4_294_967_296.0
        {
            return averages.best(side, candidates, pos);
        }
        let adaptation = self.adaptation.as_deref()?;
        let before = [self.moves[self.len - 1], self.moves[self.len - 2]];
        adaptation.draw(self.len, side, before, rng)
    }

    /// Policy adaptation's weight, for the side to move in `pos`, of each open column's
    /// landing cell, by column (0 for a full column), with pairs times the pair weight after
    /// the last move recorded (and with follow-ups the one after the move before it);
    /// `None` without policy adaptation. The tree's selection reads
    /// these as priors ([`Techniques::policy_prior`]).
    #[inline]
    pub fn policy_weights(&self, pos: &Position) -> Option<[f32; MAX_SIZE]> {
        let adaptation = self.adaptation.as_deref()?;
        let side = pos.to_move();
        let cells = &adaptation.weight[side as usize];
        let pairs = pair_row(&adaptation.pairs, side, self.last());
        let follow_ups = pair_row(&adaptation.follow_ups, side, self.moves[self.len - 2]);
        let mut weights = [0.0; MAX_SIZE];
        for (col, cell) in landing_cells(pos.open_columns(), pos) {
            let pair = pairs.map_or(1.0, |pairs| pairs[usize::from(cell)]);
            let follow_up = follow_ups.map_or(1.0, |rows| rows[usize::from(cell)]);
            weights[col] = cells[usize::from(cell)] * pair * follow_up;
        }
        Some(weights)
    }

    /// Learns from the iteration just finished: the winner's replies are stored, the
    /// loser's forgotten, and every move's cell adds the outcome to its mover's average.
    pub fn learn(&mut self, outcome: Outcome) {
        self.iterations += 1;
        if let Some(averages) = self.averages.as_deref_mut() {
            averages.learn(&self.moves[2..self.len], self.first_mover, outcome);
        }
        if let (Some(adaptation), Outcome::Win(winner)) = (self.adaptation.as_deref_mut(), outcome)
        {
            adaptation.learn(&self.moves[..self.len], self.first_mover, winner);
        }
        if self.replies {
            self.learn_replies(outcome);
        }
    }

    fn learn_replies(&mut self, outcome: Outcome) {
        let first_mover = self.first_mover;
        let Outcome::Win(winner) = outcome else {
            return;
        };
        // Move i (from 2, the first recorded) answers move i - 1; even i are the first mover's.
        for i in 3..self.len {
            let (before, prev) = (self.moves[i - 2], self.moves[i - 1]);
            let col = if self.exact {
                self.moves[i]
            } else {
                self.moves[i] % MAX_SIZE as u8
            };
            let side = mover_at(i, first_mover);
            let won = side == winner;
            forget_or_keep(&mut self.table[side as usize][usize::from(prev)], col, won);
            if let Some(slot) = self.pairs[side as usize].get_mut(pair_index(before, prev)) {
                forget_or_keep(slot, col, won);
            }
        }
    }
}

impl MoveAverages {
    /// The candidate column of `candidates` whose landing cell in `pos` has `side`'s best
    /// mean (the lowest column among equals).
    #[inline(always)]
    fn best(&self, side: Side, candidates: u16, pos: &Position) -> Option<usize> {
        let means = &self.mean[side as usize];
        let (mut best, mut best_mean) = (None, f32::NEG_INFINITY);
        for (col, cell) in landing_cells(candidates, pos) {
            let mean = means[usize::from(cell)];
            if mean > best_mean {
                (best, best_mean) = (Some(col), mean);
            }
        }
        best
    }

    /// Adds `outcome` to the average of each move of `moves`, the first made by
    /// `first_mover`, for its mover.
    fn learn(&mut self, moves: &[Cell], first_mover: Side, outcome: Outcome) {
        let mut side = first_mover;
        for &cell in moves {
            let (s, c) = (side as usize, usize::from(cell));
            self.half_points[s][c] += outcome.half_points_for(side);
            self.visits[s][c] += 1;
            // One tie added: half points + 1 over 2 (visits + 1).
            self.mean[s][c] =
                (self.half_points[s][c] + 1) as f32 / (2 * (self.visits[s][c] + 1)) as f32;
            side = side.other();
        }
    }
}

impl PolicyAdaptation {
    /// Notes a free choice among `candidates` in `pos`, whose move will be recorded at
    /// index `at`. A lone candidate is no choice: nothing to learn from it.
    #[inline(always)]
    fn note(&mut self, at: usize, candidates: u16, pos: &Position) {
        if candidates & candidates.wrapping_sub(1) == 0 || self.choices.len() == MAX_MOVES {
            return;
        }
        self.choices.push(Choice {
            at: at as u8,
            candidates,
            tops: pos.tops(),
        });
    }

    /// A column drawn for `side` among the candidates of the choice noted for the move at
    /// index `at`, each with probability proportional to its cell's weight (times, with
    /// pairs, the weight of the pair of `prev`, the cell of the move before, and that cell;
    /// and with follow-ups the one of `own`, the cell of the move before that, and that
    /// cell); `None` when that choice was not noted (a lone candidate).
    #[inline(always)]
    fn draw<R: RngCore>(
        &self,
        at: usize,
        side: Side,
        [prev, own]: [Cell; 2],
        rng: &mut R,
    ) -> Option<usize> {
        let choice = self.choices.last().filter(|c| usize::from(c.at) == at)?;
        let weight = &self.weight[side as usize];
        let pairs = pair_row(&self.pairs, side, prev);
        Some(match (pairs, pair_row(&self.follow_ups, side, own)) {
            (None, None) => draw_by(choice, |c| weight[usize::from(c)], rng),
            (Some(pairs), None) => draw_by(
                choice,
                |c| weight[usize::from(c)] * pairs[usize::from(c)],
                rng,
            ),
            (pairs, Some(follow_ups)) => draw_by(
                choice,
                |c| {
                    let pair = pairs.map_or(1.0, |pairs| pairs[usize::from(c)]);
                    weight[usize::from(c)] * pair * follow_ups[usize::from(c)]
                },
                rng,
            ),
        })
    }

    /// Moves `winner`'s policy towards each free choice it made in the iteration whose
    /// recorded moves are `moves` (two [`NO_CELL`]s first; the first move, at index 2, made
    /// by `first_mover`); with `loser_too`, the loser's away from each of its own.
    fn learn(&mut self, moves: &[Cell], first_mover: Side, winner: Side) {
        if self.loser_too {
            self.adapt::<false>(moves, first_mover, winner.other());
        }
        self.adapt::<true>(moves, first_mover, winner);
    }

    /// Moves `side`'s policy at each free choice it made: towards the move chosen
    /// (`TOWARD`: the chosen cell's log-weight gains the rate, every candidate's loses the
    /// rate times its probability) or away from it (the signs reversed), within
    /// [`WEIGHT_RANGE`]. With pairs, the pair weights of the move before take the same
    /// steps, and with follow-ups those of the mover's own move before that.
    fn adapt<const TOWARD: bool>(&mut self, moves: &[Cell], first_mover: Side, side: Side) {
        let paired = !self.pairs.is_empty();
        let followed = !self.follow_ups.is_empty();
        for choice in &self.choices {
            let at = usize::from(choice.at);
            if mover_at(at, first_mover) != side || at >= moves.len() {
                continue;
            }
            // The cells once, for the two passes of `shift`.
            let (mut cells, mut count) = ([0; MAX_SIZE], 0);
            for cell in choice.cells() {
                cells[count] = cell;
                count += 1;
            }
            let weight = &mut self.weight[side as usize];
            let pairs = paired.then(|| pair_row_mut(&mut self.pairs, side, moves[at - 1]));
            let follow_ups =
                followed.then(|| pair_row_mut(&mut self.follow_ups, side, moves[at - 2]));
            let (cells, chosen, steps) = (&cells[..count], moves[at], (self.rate, self.gain));
            // One shift per number of factor rows, so that its loops know them.
            match (pairs, follow_ups) {
                (None, None) => shift::<TOWARD, 0>(weight, [], cells, chosen, steps),
                (Some(row), None) | (None, Some(row)) => {
                    shift::<TOWARD, 1>(weight, [row], cells, chosen, steps)
                }
                (Some(pairs), Some(follow_ups)) => {
                    shift::<TOWARD, 2>(weight, [pairs, follow_ups], cells, chosen, steps)
                }
            }
        }
    }
}

/// The pair weights of `side` for moves after a stone on `prev`, indexed by cell; `None`
/// without pairs (`pairs` empty).
#[inline(always)]
fn pair_row(pairs: &[f32], side: Side, prev: Cell) -> Option<&[f32]> {
    let start = (side as usize * CELLS + usize::from(prev)) * CELLS;
    pairs.get(start..start + CELLS)
}

/// [`pair_row`], mutably, for a non-empty `pairs`.
#[inline(always)]
fn pair_row_mut(pairs: &mut [f32], side: Side, prev: Cell) -> &mut [f32] {
    let start = (side as usize * CELLS + usize::from(prev)) * CELLS;
    &mut pairs[start..start + CELLS]
}

/// A column of `choice` drawn with probability proportional to `weight` of its landing cell.
#[inline(always)]
fn draw_by<R: RngCore>(choice: &Choice, weight: impl Fn(Cell) -> f32, rng: &mut R) -> usize {
    // Each candidate's column and weight once, for both passes.
    let (mut cols, mut weights, mut count) = ([0; MAX_SIZE], [0.0; MAX_SIZE], 0);
    let mut total = 0.0;
    for col in columns(choice.candidates) {
        let w = weight(Learned::cell(usize::from(choice.tops[col]) - 1, col));
        (cols[count], weights[count]) = (col, w);
        total += w;
        count += 1;
    }
    // A uniform draw in [0, total); the last candidate takes any rounding left over.
    let mut left = (rng.next_u32() >> 8) as f32 * (1.0 / (1u32 << 24) as f32) * total;
    for i in 0..count - 1 {
        left -= weights[i];
        if left < 0.0 {
            return cols[i];
        }
    }
    cols[count - 1]
}

/// One step of policy adaptation at one choice among `cells`, of which `chosen` was played:
/// towards it (`TOWARD`) or away from it, on `weight` and on the `N` rows of `factors` (the
/// pair and follow-up weights there are), whose product is the policy's weight; `(rate,
/// gain)` are the step and `exp` of it.
#[inline(always)]
fn shift<const TOWARD: bool, const N: usize>(
    weight: &mut [f32; CELLS],
    mut factors: [&mut [f32]; N],
    cells: &[Cell],
    chosen: Cell,
    (rate, gain): (f32, f32),
) {
    let (low, high) = WEIGHT_RANGE;
    // Each candidate's weight once (a cell's own weight changes only at its own turn below).
    let mut joints = [0.0; MAX_SIZE];
    let mut total = 0.0;
    for (joint, &c) in joints.iter_mut().zip(cells) {
        let c = usize::from(c);
        *joint = factors.iter().fold(weight[c], |joint, row| joint * row[c]);
        total += *joint;
    }
    let step = rate / total;
    for (&cell, &joint) in cells.iter().zip(&joints) {
        // exp(-/+ rate * p) to second order (within 0.7 % for rate * p <= 0.32, 4 % at 0.6;
        // the weight range bounds any drift).
        let x = joint * step;
        let factor = if TOWARD {
            1.0 - x + 0.5 * x * x
        } else {
            1.0 + x + 0.5 * x * x
        };
        let bound = |w: f32| if TOWARD { w.max(low) } else { w.min(high) };
        let w = &mut weight[usize::from(cell)];
        *w = bound(*w * factor);
        for row in factors.iter_mut() {
            let p = &mut row[usize::from(cell)];
            *p = bound(*p * factor);
        }
    }
    let bound = |w: f32| {
        if TOWARD {
            (w * gain).min(high)
        } else {
            (w * (1.0 / gain)).max(low)
        }
    };
    let w = &mut weight[usize::from(chosen)];
    *w = bound(*w);
    for row in factors {
        let p = &mut row[usize::from(chosen)];
        *p = bound(*p);
    }
}

/// The side that made the move recorded at index `i` of [`Learned::moves`] (from 2), the
/// first of them made by `first_mover`.
#[inline(always)]
fn mover_at(i: usize, first_mover: Side) -> Side {
    if i.is_multiple_of(2) {
        first_mover
    } else {
        first_mover.other()
    }
}

/// Each candidate column of `candidates` with the cell its stone lands on in `pos`.
#[inline(always)]
fn landing_cells(candidates: u16, pos: &Position) -> impl Iterator<Item = (usize, Cell)> + '_ {
    columns(candidates).map(|col| (col, Learned::cell(pos.landing_row(col), col)))
}

/// The columns of the mask `candidates`, lowest first.
#[inline(always)]
fn columns(candidates: u16) -> impl Iterator<Item = usize> {
    let mut rest = candidates;
    std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let col = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        Some(col)
    })
}

/// The index of the move pair `(before, last)` in a two-move table.
#[inline(always)]
fn pair_index(before: Cell, last: Cell) -> usize {
    usize::from(before) * CELLS + usize::from(last)
}

/// Stores `col` (a column, or a cell) as the reply in `slot` after a win; after a loss,
/// clears it if it holds `col`.
#[inline(always)]
fn forget_or_keep(slot: &mut u8, col: u8, won: bool) {
    if won {
        *slot = col + 1;
    } else if *slot == col + 1 {
        *slot = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Only the techniques `enable` names (not the default's learned policies as well).
    fn switches(enable: &str) -> Techniques {
        let mut techniques = Techniques::NONE;
        for name in enable.split(',') {
            let (_, switch) = Techniques::SWITCHES
                .iter()
                .find(|(known, _)| *known == name)
                .expect("a known switch");
            *switch(&mut techniques) = true;
        }
        techniques
    }

    /// Empty tables for only the learned policies `enable` names, at the default rate.
    fn learned(enable: &str) -> Learned {
        Learned::new(&switches(enable), ADAPTATION_RATE)
    }

    #[test]
    fn move_averages_pick_the_cell_that_won_most() {
        let mut l = learned("mast");
        let pos = empty();
        // Us won every iteration in which it played (11, 3), lost those with (11, 8).
        for (cell, winner) in [
            (Learned::cell(11, 3), Side::Us),
            (Learned::cell(11, 8), Side::Them),
        ] {
            for _ in 0..10 {
                l.begin(Side::Us);
                l.record(cell);
                l.learn(Outcome::Win(winner));
            }
        }
        // Half the free choices are greedy: over 200, column 3 beats column 8 every time it
        // is chosen by the averages, and chance takes the rest.
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
        let picks: Vec<Option<usize>> = (0..200)
            .map(|_| l.pick(Side::Us, 1 << 3 | 1 << 8, &pos, &mut rng))
            .collect();
        assert!(picks.iter().all(|&p| p.is_none() || p == Some(3)));
        let greedy = picks.iter().filter(|p| p.is_some()).count();
        assert!((60..140).contains(&greedy), "{greedy}");
        // Them has learned nothing about its own cells: the unplayed ones rate alike.
        assert_eq!(l.pick(Side::Them, 1 << 5, &pos, &mut rng).unwrap_or(5), 5);
    }

    #[test]
    fn a_good_reply_comes_before_the_move_averages() {
        let mut l = learned("last-good-reply,mast");
        let pos = empty();
        let (them, reply, best) = (
            Learned::cell(11, 0),
            Learned::cell(11, 8),
            Learned::cell(11, 3),
        );
        // Us answered a stone on (11, 0) with column 8 and won; (11, 3) won more often.
        for moves in [&[them, reply][..], &[best], &[best], &[best]] {
            l.begin(if moves.len() == 2 {
                Side::Them
            } else {
                Side::Us
            });
            moves.iter().for_each(|&m| l.record(m));
            l.learn(Outcome::Win(Side::Us));
        }
        let mut rng = rand::rngs::SmallRng::seed_from_u64(2);
        l.begin(Side::Them);
        l.record(them);
        for _ in 0..20 {
            assert_eq!(l.pick(Side::Us, 1 << 3 | 1 << 8, &pos, &mut rng), Some(8));
        }
        // Without the reply among the candidates, the averages (or chance) choose.
        let other = l.pick(Side::Us, 1 << 3 | 1 << 5, &pos, &mut rng);
        assert!(other.is_none() || other == Some(3), "{other:?}");
    }

    /// Policy adaptation: `Us` chose column 3 over 8 (and 5) in iterations it won, and the
    /// draws come to follow; `Them`'s weights learn nothing from `Us`'s wins.
    #[test]
    fn policy_adaptation_moves_towards_the_winner_s_choices() {
        let mut l = learned("policy-adaptation");
        let pos = empty();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        let share_of_3 = |l: &mut Learned, rng: &mut rand::rngs::SmallRng| {
            let mut threes = 0;
            for _ in 0..1000 {
                l.begin(Side::Us);
                threes += usize::from(l.pick(Side::Us, 1 << 3 | 1 << 8, &pos, rng) == Some(3));
            }
            threes
        };
        let before = share_of_3(&mut l, &mut rng);
        assert!((400..600).contains(&before), "uniform at first: {before}");
        for _ in 0..30 {
            l.begin(Side::Us);
            l.pick(Side::Us, 1 << 3 | 1 << 5 | 1 << 8, &pos, &mut rng);
            l.record(Learned::cell(11, 3));
            l.learn(Outcome::Win(Side::Us));
        }
        let after = share_of_3(&mut l, &mut rng);
        assert!(after > 950, "column 3 drawn {after} times in 1000");
        let weights = &l.adaptation.as_ref().unwrap().weight;
        assert!(weights[Side::Them as usize].iter().all(|&w| w == 1.0));
        // A lost or tied iteration teaches the loser nothing either.
        for outcome in [Outcome::Win(Side::Them), Outcome::Tie] {
            l.begin(Side::Us);
            l.pick(Side::Us, 1 << 3 | 1 << 8, &pos, &mut rng);
            l.record(Learned::cell(11, 8));
            l.learn(outcome);
        }
        assert!(share_of_3(&mut l, &mut rng) > 950);
    }

    /// With `ppa-loser`, a lost iteration moves the loser's policy away from its choice:
    /// `Us` lost every time after choosing column 3 over 8, and comes to draw 8; the
    /// winner's weights still move towards its own choices, and the weights stay in range.
    #[test]
    fn the_loser_moves_away_from_its_choices_with_ppa_loser() {
        let mut l = learned("policy-adaptation,ppa-loser");
        let pos = empty();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(6);
        for _ in 0..10_000 {
            l.begin(Side::Us);
            l.pick(Side::Us, 1 << 3 | 1 << 8, &pos, &mut rng);
            l.record(Learned::cell(11, 3));
            l.pick(Side::Them, 1 << 4 | 1 << 6, &pos, &mut rng);
            l.record(Learned::cell(11, 4));
            l.learn(Outcome::Win(Side::Them));
        }
        let mut eights = 0;
        for _ in 0..1000 {
            l.begin(Side::Us);
            eights += usize::from(l.pick(Side::Us, 1 << 3 | 1 << 8, &pos, &mut rng) == Some(8));
        }
        assert!(eights > 950, "column 8 drawn {eights} times in 1000");
        let weights = &l.adaptation.as_ref().unwrap().weight;
        let (low, high) = WEIGHT_RANGE;
        let us = &weights[Side::Us as usize];
        assert_eq!(us[usize::from(Learned::cell(11, 3))], low);
        assert_eq!(us[usize::from(Learned::cell(11, 8))], high);
        let them = &weights[Side::Them as usize];
        assert!(them[usize::from(Learned::cell(11, 4))] > them[usize::from(Learned::cell(11, 6))]);
        assert!(weights.iter().flatten().all(|&w| (low..=high).contains(&w)));
    }

    /// With `ppa-pairs`, the policy tells the move before apart: `Us` won choosing column 3
    /// after `Them` played cell (11, 0), and column 8 after (11, 11), as often each; the
    /// cell weights alone learn both alike, the pairs learn which answers which.
    #[test]
    fn pairs_learn_which_move_answers_which() {
        let mut l = learned("policy-adaptation,ppa-pairs");
        let pos = empty();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let answers = [(Learned::cell(11, 0), 3), (Learned::cell(11, 11), 8)];
        for i in 0..400 {
            let (before, answer) = answers[i % 2];
            l.begin(Side::Them);
            l.record(before);
            l.pick(Side::Us, 1 << 3 | 1 << 8, &pos, &mut rng);
            l.record(Learned::cell(11, answer));
            l.learn(Outcome::Win(Side::Us));
        }
        for (before, answer) in answers {
            let mut hits = 0;
            for _ in 0..1000 {
                l.begin(Side::Them);
                l.record(before);
                hits +=
                    usize::from(l.pick(Side::Us, 1 << 3 | 1 << 8, &pos, &mut rng) == Some(answer));
            }
            assert!(
                hits > 900,
                "after {before}, column {answer} drawn {hits} times in 1000"
            );
        }
        let weights = &l.adaptation.as_ref().unwrap().weight[Side::Us as usize];
        let (three, eight) = (Learned::cell(11, 3), Learned::cell(11, 8));
        let ratio = weights[usize::from(three)] / weights[usize::from(eight)];
        assert!((0.5..2.0).contains(&ratio), "cell weights alike: {ratio}");
    }

    /// With `ppa-follow-ups`, the policy tells the mover's own move before apart: `Us` won
    /// choosing column 3 after its own stone on (11, 0), and column 8 after one on (11, 11),
    /// the opponent's move between them the same; the pairs (keyed by that opponent's move)
    /// cannot tell the two apart, the follow-ups can.
    #[test]
    fn follow_ups_learn_what_builds_on_the_mover_s_own_stone() {
        let mut l = learned("policy-adaptation,ppa-pairs,ppa-follow-ups");
        let pos = empty();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
        let between = Learned::cell(11, 5);
        let answers = [(Learned::cell(11, 0), 3), (Learned::cell(11, 11), 8)];
        for i in 0..400 {
            let (own, answer) = answers[i % 2];
            l.begin(Side::Us);
            l.record(own);
            l.record(between);
            l.pick(Side::Us, 1 << 3 | 1 << 8, &pos, &mut rng);
            l.record(Learned::cell(11, answer));
            l.learn(Outcome::Win(Side::Us));
        }
        for (own, answer) in answers {
            let mut hits = 0;
            for _ in 0..1000 {
                l.begin(Side::Us);
                l.record(own);
                l.record(between);
                hits +=
                    usize::from(l.pick(Side::Us, 1 << 3 | 1 << 8, &pos, &mut rng) == Some(answer));
            }
            assert!(
                hits > 900,
                "after own {own}, column {answer} drawn {hits} times in 1000"
            );
        }
        // The tree's priors read the follow-ups too.
        let mut probe = l.clone();
        probe.begin(Side::Us);
        probe.record(answers[0].0);
        probe.record(between);
        let weights = probe.policy_weights(&pos).unwrap();
        assert!(weights[3] > weights[8], "{weights:?}");
    }

    /// However one-sided the results, the weights stay in their range: finite, and a
    /// choice never made by the winner keeps a chance.
    #[test]
    fn policy_weights_stay_in_range() {
        let mut l = learned("policy-adaptation");
        let pos = empty();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(4);
        for _ in 0..100_000 {
            l.begin(Side::Us);
            l.pick(Side::Us, 1 << 3 | 1 << 8, &pos, &mut rng);
            l.record(Learned::cell(11, 3));
            l.learn(Outcome::Win(Side::Us));
        }
        let (low, high) = WEIGHT_RANGE;
        let weights = &l.adaptation.as_ref().unwrap().weight[Side::Us as usize];
        assert!(weights.iter().all(|&w| (low..=high).contains(&w)));
        assert_eq!(weights[usize::from(Learned::cell(11, 3))], high);
        assert!(weights[usize::from(Learned::cell(11, 8))] < 0.1);
    }

    /// A lone candidate is no choice: it is not noted, and an earlier choice's candidates
    /// are never drawn from for it.
    #[test]
    fn a_lone_candidate_is_not_a_choice() {
        let mut l = learned("policy-adaptation");
        let pos = empty();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        l.begin(Side::Us);
        l.pick(Side::Us, 1 << 3 | 1 << 8, &pos, &mut rng);
        l.record(Learned::cell(11, 3));
        assert_eq!(l.pick(Side::Them, 1 << 6, &pos, &mut rng), None);
        assert_eq!(l.adaptation.as_ref().unwrap().choices.len(), 1);
    }

    #[test]
    fn policy_weights_are_the_side_to_move_s_weights_of_the_landing_cells() {
        assert_eq!(learned("last-good-reply").policy_weights(&empty()), None);
        let mut l = learned("policy-adaptation");
        let mut pos = Position::new(6, 7, 0, 6).unwrap();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        assert_eq!(pos.to_move(), Side::Us);
        // Us wins after choosing column 3 (landing on row 5) among 2, 3 and 4.
        l.begin(Side::Us);
        l.pick(Side::Us, 0b11100, &pos, &mut rng);
        l.record(Learned::cell(5, 3));
        l.learn(Outcome::Win(Side::Us));
        let weights = l.policy_weights(&pos).unwrap();
        assert!(weights[3] > 1.0 && weights[2] < 1.0 && weights[2] == weights[4]);
        assert!(weights[..7].iter().all(|&w| w > 0.0) && weights[7..].iter().all(|&w| w == 0.0));
        // Column 3 now lands on row 4, a cell not learned; and it is Them's turn.
        assert!(!pos.play(3));
        let weights = l.policy_weights(&pos).unwrap();
        assert!(weights[..7].iter().all(|&w| w == 1.0), "{weights:?}");
    }

    /// With pairs, the weights are the cells' times the pairs' after the last move recorded:
    /// the reply learned after a stone on (5, 0) rates higher after it than after another.
    #[test]
    fn policy_weights_with_pairs_depend_on_the_last_move() {
        let mut l = learned("policy-adaptation,ppa-pairs");
        let pos = Position::new(6, 7, 0, 6).unwrap();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(8);
        for _ in 0..20 {
            l.begin(Side::Them);
            l.record(Learned::cell(5, 0));
            l.pick(Side::Us, 0b11100, &pos, &mut rng);
            l.record(Learned::cell(5, 3));
            l.learn(Outcome::Win(Side::Us));
        }
        let after = |prev| {
            let mut probe = l.clone();
            probe.begin(Side::Them);
            probe.record(prev);
            probe.policy_weights(&pos).unwrap()
        };
        let (learned_after, other) = (after(Learned::cell(5, 0)), after(Learned::cell(5, 1)));
        assert!(
            learned_after[3] > other[3] && other[3] > 1.0,
            "{learned_after:?} {other:?}"
        );
        assert!(learned_after[2] < other[2]);
    }

    /// An empty 12x12 board (blocked cell in the top left corner).
    fn empty() -> Position {
        Position::new(12, 12, 0, 0).unwrap()
    }

    #[test]
    fn exact_replies_are_played_only_on_their_own_cell() {
        let mut r = learned("last-good-reply,exact-replies");
        let (a, reply) = (Learned::cell(11, 5), Learned::cell(11, 6));
        r.begin(Side::Us);
        for cell in [Learned::cell(11, 0), a, reply] {
            r.record(cell);
        }
        r.learn(Outcome::Win(Side::Us));
        r.begin(Side::Us);
        r.record(a);
        let mut pos = empty();
        assert_eq!(
            r.reply_mask(Side::Us, &pos),
            1 << 6,
            "column 6 lands on (11, 6)"
        );
        pos.play(6);
        assert_eq!(
            r.reply_mask(Side::Us, &pos),
            0,
            "column 6 now lands on (10, 6)"
        );
    }

    #[test]
    fn the_winner_s_replies_are_kept_and_the_loser_s_forgotten() {
        let mut r = learned("last-good-reply");
        let a = Learned::cell(11, 5);
        let b = Learned::cell(11, 6);
        let c = Learned::cell(10, 5);
        // Us plays a, Them answers b (column 6), Us answers c (column 5); Us wins.
        r.begin(Side::Us);
        for cell in [a, b, c] {
            r.record(cell);
        }
        assert_eq!(r.last(), c);
        r.learn(Outcome::Win(Side::Us));
        // What each side would now answer after `moves`.
        let answer = |r: &mut Learned, side, moves: &[Cell]| {
            r.begin(Side::Us);
            moves.iter().for_each(|&m| r.record(m));
            r.reply_mask(side, &empty())
        };
        assert_eq!(answer(&mut r, Side::Us, &[a, b]), 1 << 5);
        assert_eq!(
            answer(&mut r, Side::Them, &[a]),
            0,
            "the loser learns nothing"
        );
        // The same answer by Us to b loses next time: it is forgotten.
        r.begin(Side::Us);
        for cell in [a, b, c] {
            r.record(cell);
        }
        r.learn(Outcome::Win(Side::Them));
        assert_eq!(answer(&mut r, Side::Us, &[a, b]), 0);
        assert_eq!(answer(&mut r, Side::Them, &[a]), 1 << 6);
        // A tie changes nothing.
        r.begin(Side::Us);
        for cell in [a, b, c] {
            r.record(cell);
        }
        r.learn(Outcome::Tie);
        assert_eq!(answer(&mut r, Side::Them, &[a]), 1 << 6);
    }

    #[test]
    fn two_move_replies_come_first_and_fall_back_to_one_move_replies() {
        let mut r = learned("last-good-reply-2");
        let [a, b, c, d] =
            [(11, 5), (11, 6), (10, 5), (11, 4)].map(|(row, col)| Learned::cell(row, col));
        let play = |r: &mut Learned, moves: &[Cell], winner| {
            r.begin(Side::Us);
            moves.iter().for_each(|&m| r.record(m));
            r.learn(Outcome::Win(winner));
        };
        // After a then b, Us answered 5 and won; after d then b, Us answered 4 and won.
        play(&mut r, &[a, b, c], Side::Us);
        play(&mut r, &[d, b, Learned::cell(10, 4)], Side::Us);
        let answer = |r: &mut Learned, moves: &[Cell]| {
            r.begin(Side::Us);
            moves.iter().for_each(|&m| r.record(m));
            r.reply_mask(Side::Us, &empty())
        };
        assert_eq!(answer(&mut r, &[a, b]), 1 << 5, "the pair's own reply");
        assert_eq!(answer(&mut r, &[d, b]), 1 << 4);
        // An unseen pair ending in b falls back to the last reply to b.
        assert_eq!(answer(&mut r, &[c, b]), 1 << 4);
    }

    #[test]
    fn no_previous_move_has_no_reply() {
        let mut r = learned("last-good-reply");
        r.begin(Side::Us);
        assert_eq!(r.last(), NO_CELL);
        assert_eq!(r.reply_mask(Side::Us, &empty()), 0);
    }

    #[test]
    fn a_noted_tree_choice_is_learned_from_like_a_playout_choice() {
        let mut l = learned("policy-adaptation");
        let pos = empty();
        // Us chose column 2 among 1, 2 and 3 (a tree node's children) and won.
        l.begin(Side::Us);
        l.note_choice(0b1110, &pos);
        l.record_move(&pos, 2);
        l.learn(Outcome::Win(Side::Us));
        let weights = l.policy_weights(&pos).unwrap();
        assert!(weights[2] > 1.0, "{weights:?}");
        assert!(weights[1] < 1.0 && weights[3] < 1.0, "{weights:?}");
        assert_eq!(weights[1], weights[3]);
        // Columns not among the choice's candidates keep their weight.
        assert_eq!(weights[0], 1.0);
        // A lone candidate is no choice, and a loser's choice teaches nothing.
        let mut l = learned("policy-adaptation");
        for (candidates, winner) in [(0b0100, Side::Us), (0b1110, Side::Them)] {
            l.begin(Side::Us);
            l.note_choice(candidates, &pos);
            l.record_move(&pos, 2);
            l.learn(Outcome::Win(winner));
        }
        assert!(l.policy_weights(&pos).unwrap().iter().all(|&w| w == 1.0));
    }
}
