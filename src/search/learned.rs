//! What the playouts learn during one search, and the policy it gives them: last good
//! replies with forgetting and playout policy adaptation. They record every move of an
//! iteration (tree and playout) and learn from its outcome; a playout with a free choice
//! (nothing to win, block or avoid) asks them before choosing at random.
//!
//! Last good replies with forgetting (LGRF-1, Baier and Drake, "The Power of Forgetting",
//! 2010) learn which answer to each move won. For each side and each cell the opponent may
//! have just played on, the table holds the column that side last answered it with in an
//! iteration it went on to win. A playout with a free choice plays that reply when it is
//! among its candidates. After each iteration the winner's replies along the whole path
//! (tree and playout) are stored, and the loser's are deleted where the table still holds
//! them (the forgetting). Ties change nothing.
//!
//! Playout policy adaptation (PPA, Cazenave, "Playout Policy Adaptation", 2015) keeps a
//! weight per side and cell. A free choice with no reply draws a candidate with probability
//! proportional to the weight of its landing cell. After an iteration won by one side,
//! each free choice that side made in the playout moves its policy towards the move it
//! chose: the chosen cell's log-weight gains [`ADAPTATION_RATE`](super::config::ADAPTATION_RATE) and every candidate's
//! loses the rate times its probability, so a choice's total log-weight is kept. The
//! weights are kept as `exp(log-weight)` and updated by products (no `exp` per update).
//! With pairs (`ppa-pairs`), a move's weight is its cell's weight times a second one for the
//! pair (the previous move's cell, its cell), and both take the same steps: a soft table of
//! replies, asked after the last good reply.
//!
//! The tables are per search: their knowledge is about the positions around one root.
//! All three are on by default (`GRAVITY4_DISABLE=last-good-reply,policy-adaptation,
//! ppa-pairs` switches them off); STRENGTH.md has what each is worth at 2 s a move.

use super::config::Techniques;
use super::outcome::Outcome;
use crate::position::{MAX_SIZE, Position, Side};
use rand::RngCore;

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

/// Entries of a table indexed by a [`Cell`]: every byte, so that a look-up by a cell
/// needs no bounds check.
const TABLE: usize = 256;

/// Entries of a row of pair weights: a [`TABLE`] and one cache line more. Rows 1 KiB
/// apart put the 10 cache lines a row uses (its first [`CELLS`] entries) on the same 40
/// of a 48 KiB L1's 64 sets, whatever the row; 17 lines apart they spread over all of
/// them (issue 39: cachegrind counted 2.5x the L1 misses of 488d092's packed rows).
const PAIR_ROW: usize = TABLE + 16;

/// The reply table, the adapted policy and the moves of the iteration under way.
#[derive(Clone)]
pub struct Learned {
    /// `table[side][cell]`: `side`'s last good reply to a stone on `cell`: its column plus
    /// one, or 0.
    table: [[u8; TABLE]; 2],
    /// The cells played so far in this iteration, from the root on, after two [`NO_CELL`]s
    /// (the move before the first one reads as [`NO_CELL`]).
    moves: [Cell; MAX_MOVES + 2],
    len: usize,
    /// The side that makes the first move recorded in this iteration.
    first_mover: Side,
    /// Replies are learned (and so can be found).
    replies: bool,
    /// Policy adaptation, when on: the weights, and this iteration's free choices.
    adaptation: Option<Box<PolicyAdaptation>>,
}

/// The policy of policy adaptation and what it learns from.
#[derive(Clone)]
struct PolicyAdaptation {
    /// The step on a log-weight ([`ADAPTATION_RATE`](super::config::ADAPTATION_RATE) by default), and `exp` of it.
    rate: f32,
    gain: f32,
    /// `weight[side][cell]`: `exp` of `side`'s log-weight for a stone on `cell`, within
    /// [`WEIGHT_RANGE`]; 1 until learned.
    weight: [[f32; TABLE]; 2],
    /// With pairs ([`Techniques::ppa_pairs`]), `pairs[side * CELLS + prev][cell]`: the same
    /// for a stone on `cell` right after one on `prev`, a factor of the policy's weight;
    /// empty without.
    pairs: Vec<[f32; PAIR_ROW]>,
    /// The free choices of the iteration under way, in order, apart by the side that made
    /// them (only the winner's are learned from): `choices[side][..counts[side]]`.
    choices: [[Choice; MAX_MOVES]; 2],
    counts: [usize; 2],
}

/// One free choice of a playout: the candidate columns and the board's column heights
/// then (so the candidates' landing cells can be found later), and where the move chosen
/// among them is recorded. Copying the heights whole is cheaper than finding the cells of
/// every choice, many of which are never learned from (the chooser lost).
#[derive(Clone, Copy)]
struct Choice {
    /// [`Position::tops`] when the choice was made.
    tops: [u8; MAX_SIZE],
    /// Index in [`Learned::moves`] of the move chosen.
    at: u8,
    /// The candidate columns (two or more).
    candidates: u16,
}

impl Choice {
    const NONE: Choice = Choice {
        tops: [0; MAX_SIZE],
        at: 0,
        candidates: 0,
    };
}

/// Each column's landing cell (the stone lands on row `tops[col] - 1`; meaningless for a
/// full column), in 16 lanes so that a column from a `u16` mask needs no bounds check, and
/// computed in all lanes at once rather than column by column.
#[inline(always)]
fn landing_cells(tops: &[u8; MAX_SIZE]) -> [Cell; 16] {
    let mut cells = [0; 16];
    for (col, (cell, &top)) in cells.iter_mut().zip(tops).enumerate() {
        // (top - 1) * MAX_SIZE + col, in bytes: at most NO_CELL - 1 for a column with room.
        *cell = (top.wrapping_sub(1))
            .wrapping_mul(MAX_SIZE as u8)
            .wrapping_add(col as u8);
    }
    cells
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

impl Learned {
    /// Empty tables for the learned policies `techniques` switch on: last good replies
    /// (`last_good_reply`) and policy adaptation (`policy_adaptation`, with its pair weights
    /// under `ppa_pairs`, in steps of `adaptation_rate` on a log-weight).
    pub fn new(techniques: &Techniques, adaptation_rate: f32) -> Learned {
        Learned {
            table: [[0; TABLE]; 2],
            moves: [NO_CELL; MAX_MOVES + 2],
            len: 2,
            first_mover: Side::Us,
            replies: techniques.last_good_reply,
            adaptation: techniques.policy_adaptation.then(|| {
                Box::new(PolicyAdaptation {
                    rate: adaptation_rate,
                    gain: adaptation_rate.exp(),
                    pairs: vec![[1.0; PAIR_ROW]; usize::from(techniques.ppa_pairs) * 2 * CELLS],
                    weight: PolicyAdaptation::NEW_WEIGHTS,
                    choices: [[Choice::NONE; MAX_MOVES]; 2],
                    counts: [0; 2],
                })
            }),
        }
    }

    /// Empties what was learned, keeping the allocations: the same as [`Self::new`] with
    /// the same arguments, without allocating again.
    pub fn clear(&mut self) {
        self.table = [[0; TABLE]; 2];
        self.len = 2;
        self.first_mover = Side::Us;
        if let Some(adaptation) = self.adaptation.as_deref_mut() {
            adaptation.weight = PolicyAdaptation::NEW_WEIGHTS;
            adaptation.pairs.fill([1.0; PAIR_ROW]);
            adaptation.counts = [0; 2];
        }
    }

    /// True when these tables are the ones [`Self::new`] makes for `techniques` and
    /// `adaptation_rate` (so that [`Self::clear`] can stand in for it).
    pub fn is_for(&self, techniques: &Techniques, adaptation_rate: f32) -> bool {
        let adaptation = self.adaptation.as_deref();
        self.replies == techniques.last_good_reply
            && adaptation.is_some() == techniques.policy_adaptation
            && adaptation.is_none_or(|a| {
                a.rate == adaptation_rate && a.pairs.is_empty() != techniques.ppa_pairs
            })
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
            adaptation.counts = [0; 2];
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

    /// `side`'s good reply to the last move recorded, as a column mask (0 if none).
    #[inline(always)]
    fn reply_mask(&self, side: Side) -> u16 {
        let reply = self.table[side as usize][usize::from(self.last())];
        // reply 0 (none) shifts to 0; reply c + 1 to bit c.
        ((1u32 << reply) >> 1) as u16
    }

    /// The column a playout plays for `side` at a free choice among `candidates` (a
    /// non-empty column mask) in `pos`, recorded: the good reply to the last move if it is
    /// a candidate, else (with policy adaptation) a draw by the adapted policy, else
    /// `chance(rng)`. With policy adaptation the choice is noted whoever makes it, for
    /// [`Self::learn`].
    #[inline(always)]
    pub fn choose<R: RngCore>(
        &mut self,
        side: Side,
        candidates: u16,
        pos: &Position,
        rng: &mut R,
        chance: impl FnOnce(&mut R) -> usize,
    ) -> usize {
        let mut col = self.decide(side, candidates, pos, rng);
        if col >= MAX_SIZE {
            col = chance(rng);
        }
        self.record_move(pos, col);
        col
    }

    /// [`Self::choose`]'s column before chance, `MAX_SIZE` or more when it leaves the
    /// choice to chance. Notes the choice.
    #[inline(always)]
    fn decide<R: RngCore>(
        &mut self,
        side: Side,
        candidates: u16,
        pos: &Position,
        rng: &mut R,
    ) -> usize {
        let (at, prev) = (self.len, self.last());
        // 15 (no column) when there is no reply among the candidates.
        let reply = (self.reply_mask(side) & candidates | 1 << 15).trailing_zeros() as usize;
        let Some(adaptation) = self.adaptation.as_deref_mut() else {
            return reply;
        };
        // The side to move makes the move recorded at `at`: the choice is filed as its.
        debug_assert_eq!(side, mover_at(at, self.first_mover));
        if !adaptation.note(at, side, candidates, pos) || reply < MAX_SIZE {
            return reply;
        }
        adaptation.draw(&pos.tops(), candidates, side, prev, rng)
    }

    /// Learns from the iteration just finished: the winner's replies are stored and the
    /// loser's forgotten, and the winner's policy moves towards its free choices.
    pub fn learn(&mut self, outcome: Outcome) {
        let Outcome::Win(winner) = outcome else {
            return;
        };
        if let Some(adaptation) = self.adaptation.as_deref_mut() {
            adaptation.learn(&self.moves[..self.len], winner);
        }
        if self.replies {
            self.learn_replies(winner);
        }
    }

    fn learn_replies(&mut self, winner: Side) {
        // Move i (from 2, the first recorded) answers move i - 1; even i are the first
        // mover's. The winner's replies go to its table, the loser's come out of the other:
        // two tables, so each side's moves are taken in a loop of their own (the stores of
        // one side keep their order; the loser's clearings commute).
        let moves = &self.moves[..self.len];
        // The winner's first reply: move 4 if it made move 2, else move 3.
        let first = if winner == self.first_mover { 4 } else { 3 };
        let [won, lost] = {
            let [us, them] = &mut self.table;
            match winner {
                Side::Us => [us, them],
                Side::Them => [them, us],
            }
        };
        // Each side's (move, reply) pairs: moves i - 1 and i for its i (none when fewer
        // moves were recorded).
        let pairs = |from: usize| moves.get(from..).unwrap_or_default().chunks_exact(2);
        for pair in pairs(first - 1) {
            won[usize::from(pair[0])] = COLUMN[usize::from(pair[1])] + 1;
        }
        for pair in pairs(6 - first) {
            let slot = &mut lost[usize::from(pair[0])];
            if *slot == COLUMN[usize::from(pair[1])] + 1 {
                *slot = 0;
            }
        }
    }
}

/// The column of each [`Cell`] (`cell % MAX_SIZE`), a look-up instead of a division.
static COLUMN: [u8; TABLE] = {
    let mut table = [0; TABLE];
    let mut cell = 0;
    while cell < TABLE {
        table[cell] = (cell % MAX_SIZE) as u8;
        cell += 1;
    }
    table
};

impl PolicyAdaptation {
    /// The weights before anything is learned.
    const NEW_WEIGHTS: [[f32; TABLE]; 2] = [[1.0; TABLE]; 2];

    /// Notes a free choice among `candidates` in `pos` made by `mover`, whose move will be
    /// recorded at index `at`; returns whether it was noted. A lone candidate is no choice:
    /// nothing to learn from it.
    #[inline(always)]
    fn note(&mut self, at: usize, mover: Side, candidates: u16, pos: &Position) -> bool {
        let count = &mut self.counts[mover as usize];
        if candidates & candidates.wrapping_sub(1) == 0 || *count == MAX_MOVES {
            return false;
        }
        self.choices[mover as usize][*count] = Choice {
            tops: pos.tops(),
            at: at as u8,
            candidates,
        };
        *count += 1;
        true
    }

    /// A column drawn for `side` among `candidates` (two or more) on a board whose column
    /// heights are `tops`, each with probability proportional to its cell's weight (times,
    /// with pairs, the weight of the pair of `prev`, the cell of the move before, and that
    /// cell).
    #[inline(always)]
    fn draw<R: RngCore>(
        &self,
        tops: &[u8; MAX_SIZE],
        candidates: u16,
        side: Side,
        prev: Cell,
        rng: &mut R,
    ) -> usize {
        let cells = landing_cells(tops);
        let weight = &self.weight[side as usize];
        // Without pairs, a row of ones: a weight times 1 is that weight, bit for bit.
        let pairs = self
            .pairs
            .get(side as usize * CELLS + usize::from(prev))
            .unwrap_or(&[1.0; PAIR_ROW]);
        // Each candidate's weight once, for both passes: a loop of at most `MAX_SIZE`
        // turns that ends after the last candidate (there are two or more), which the
        // compiler unrolls with the weights in registers, where a loop over the columns'
        // iterator tested its index and stored every weight.
        let mut weights = [0.0; MAX_SIZE];
        let mut total = 0.0;
        let mut rest = candidates;
        for w in &mut weights {
            let cell = usize::from(cells[rest.trailing_zeros() as usize & 15]);
            *w = weight[cell] * pairs[cell];
            total += *w;
            rest &= rest - 1;
            if rest == 0 {
                break;
            }
        }
        // A uniform draw in [0, total); the last candidate takes any rounding left over.
        let mut left = (rng.next_u32() >> 8) as f32 * (1.0 / (1u32 << 24) as f32) * total;
        let mut rest = candidates;
        for &w in &weights {
            let col = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            left -= w;
            if rest == 0 || left < 0.0 {
                return col;
            }
        }
        // Not reached: there are at most `MAX_SIZE` candidates, and the last is returned.
        (u16::BITS - 1 - candidates.leading_zeros()) as usize
    }

    /// Moves `winner`'s policy towards each free choice it made in the iteration whose
    /// recorded moves are `moves` (two [`NO_CELL`]s first): the chosen cell's log-weight
    /// gains the rate, every candidate's loses the rate times its probability, within
    /// [`WEIGHT_RANGE`]. With pairs, the pair weights of the move before take the same
    /// steps.
    fn learn(&mut self, moves: &[Cell], winner: Side) {
        let side = winner as usize;
        let steps = (self.rate, self.gain);
        for choice in &self.choices[side][..self.counts[side]] {
            let at = usize::from(choice.at);
            if at >= moves.len() {
                continue;
            }
            let weight = &mut self.weight[side];
            // One shift per number of factor rows, so that its loops know them.
            match self
                .pairs
                .get_mut(side * CELLS + usize::from(moves[at - 1]))
            {
                Some(row) => shift::<1>(weight, [row], choice, moves[at], steps),
                None => shift::<0>(weight, [], choice, moves[at], steps),
            }
        }
    }
}

/// One step of policy adaptation towards `chosen` at `choice`, on `weight` and on the `N`
/// rows of `factors` (the pair weights, if any), whose product is the policy's weight;
/// `(rate, gain)` are the step and `exp` of it.
#[inline(always)]
fn shift<const N: usize>(
    weight: &mut [f32; TABLE],
    mut factors: [&mut [f32; PAIR_ROW]; N],
    choice: &Choice,
    chosen: Cell,
    (rate, gain): (f32, f32),
) {
    let (low, high) = WEIGHT_RANGE;
    let by_column = landing_cells(&choice.tops);
    // Each candidate's cell and weight once (a cell's own weight changes only at its own
    // turn below).
    let (mut cells, mut joints, mut count) = ([0; MAX_SIZE], [0.0; MAX_SIZE], 0);
    let mut total = 0.0;
    for ((cell, joint), col) in cells
        .iter_mut()
        .zip(&mut joints)
        .zip(columns(choice.candidates))
    {
        *cell = by_column[col];
        let c = usize::from(*cell);
        *joint = factors.iter().fold(weight[c], |joint, row| joint * row[c]);
        total += *joint;
        count += 1;
    }
    // exp(-rate * p) to second order (within 0.7 % for rate * p <= 0.32, 4 % at 0.6; the
    // weight range bounds any drift), for all lanes at once.
    let step = rate / total;
    let mut factor = [0.0; MAX_SIZE];
    for (factor, &joint) in factor.iter_mut().zip(&joints) {
        let x = joint * step;
        *factor = 1.0 - x + 0.5 * x * x;
    }
    for (&cell, &factor) in cells[..count].iter().zip(&factor) {
        let w = &mut weight[usize::from(cell)];
        *w = at_least(*w * factor, low);
        for row in factors.iter_mut() {
            let p = &mut row[usize::from(cell)];
            *p = at_least(*p * factor, low);
        }
    }
    let w = &mut weight[usize::from(chosen)];
    *w = at_most(*w * gain, high);
    for row in factors {
        let p = &mut row[usize::from(chosen)];
        *p = at_most(*p * gain, high);
    }
}

/// `x.max(low)`, as one instruction (`maxss`/`maxps`): `f32::max`'s care for a NaN costs
/// more, and the weights are never NaN (neither form lets one through: both give `low`).
#[inline(always)]
fn at_least(x: f32, low: f32) -> f32 {
    if x > low { x } else { low }
}

/// `x.min(high)`, as [`at_least`] is `max`.
#[inline(always)]
fn at_most(x: f32, high: f32) -> f32 {
    if x < high { x } else { high }
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

#[cfg(test)]
mod tests {
    use super::super::config::ADAPTATION_RATE;
    use super::*;
    use rand::SeedableRng;

    impl Learned {
        /// [`Learned::choose`]'s column without chance (`None` for it) and unrecorded, so
        /// that a test records what it likes.
        fn pick<R: RngCore>(
            &mut self,
            side: Side,
            candidates: u16,
            pos: &Position,
            rng: &mut R,
        ) -> Option<usize> {
            let col = self.decide(side, candidates, pos, rng);
            (col < MAX_SIZE).then_some(col)
        }
    }

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
        assert!(
            weights[Side::Them as usize][..CELLS]
                .iter()
                .all(|&w| w == 1.0)
        );
        // A lost or tied iteration teaches the loser nothing either.
        for outcome in [Outcome::Win(Side::Them), Outcome::Tie] {
            l.begin(Side::Us);
            l.pick(Side::Us, 1 << 3 | 1 << 8, &pos, &mut rng);
            l.record(Learned::cell(11, 8));
            l.learn(outcome);
        }
        assert!(share_of_3(&mut l, &mut rng) > 950);
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
        assert!(weights[..CELLS].iter().all(|&w| (low..=high).contains(&w)));
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
        assert_eq!(l.adaptation.as_ref().unwrap().counts, [1, 0]);
    }

    /// An empty 12x12 board (blocked cell in the top left corner).
    fn empty() -> Position {
        Position::new(12, 12, 0, 0).unwrap()
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
            r.reply_mask(side)
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

    /// An iteration that ends before a move (a proven root) or after one has no reply to
    /// learn: the tables stay as they were.
    #[test]
    fn an_iteration_of_one_move_or_none_learns_no_reply() {
        let mut r = learned("last-good-reply,policy-adaptation");
        for moves in [&[][..], &[Learned::cell(11, 5)]] {
            for winner in [Side::Us, Side::Them] {
                r.begin(Side::Us);
                moves.iter().for_each(|&m| r.record(m));
                r.learn(Outcome::Win(winner));
                assert!(r.table.iter().flatten().all(|&reply| reply == 0));
            }
        }
    }

    #[test]
    fn no_previous_move_has_no_reply() {
        let mut r = learned("last-good-reply");
        r.begin(Side::Us);
        assert_eq!(r.last(), NO_CELL);
        assert_eq!(r.reply_mask(Side::Us), 0);
    }

    /// Cleared tables learn and draw exactly as new ones: the same picks from the same
    /// generator after the same iterations.
    #[test]
    fn cleared_tables_are_new_tables() {
        let techniques = Techniques::DEFAULT;
        let run = |l: &mut Learned| {
            let pos = empty();
            let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
            let mut picks = vec![];
            for i in 0..200 {
                l.begin(Side::Us);
                l.record(Learned::cell(11, i % 12));
                picks.push(l.pick(Side::Them, 0b1111_0000, &pos, &mut rng));
                l.record(Learned::cell(11, 4 + i % 4));
                l.learn(Outcome::Win(if i % 3 == 0 { Side::Us } else { Side::Them }));
            }
            picks
        };
        let mut used = Learned::new(&techniques, ADAPTATION_RATE);
        let first = run(&mut used);
        used.clear();
        assert!(used.is_for(&techniques, ADAPTATION_RATE));
        assert!(!used.is_for(&Techniques::NONE, ADAPTATION_RATE));
        assert_eq!(run(&mut used), first);
        assert_eq!(run(&mut Learned::new(&techniques, ADAPTATION_RATE)), first);
    }
}
