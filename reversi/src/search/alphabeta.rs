//! The `alphabeta` engine: iterative-deepening principal-variation search on the static
//! evaluation in [`heuristic`], with a transposition table, and the exact endgame solver for the
//! last [`ROOT_SOLVE_EMPTIES`] empties.
//!
//! Why not MCTS: against gtp-rhino (an alpha-beta engine) our MCTS engine lost level-4 games by
//! misjudging quiet middle-game positions (its win rate said 0.6-0.7 a few moves before a
//! proven loss). Othello's tactics are short and sharp, which a full-width search sees and a
//! sampled tree does not; the measurements are in reversi/README.md.
//!
//! Time: the search deepens until the deadline and stops mid-iteration; root moves are searched
//! best-first, so a move that beat the previous best inside an unfinished iteration (a
//! full-window score above it) is kept, and the rest of that iteration is dropped.
//! [`Limits::iterations`] caps the search's nodes instead (checked every `CLOCK_EVERY`
//! nodes), for reproducible tests; the root solve keeps to the clock.

use std::time::Instant;

use super::endgame::{self, Solver};
use super::heuristic::{self, Weights};
use super::mpc::Mpc;
use super::patterns::ByRule;
use super::{Engine, Limits, Proof, SearchReport};
use crate::bitboard::Square;
use crate::position::{Move, Position};

/// Root solves (win/draw/loss) from this many empties on.
pub const ROOT_SOLVE_EMPTIES: u32 = 20;
/// Share of the deadline a root solve may take; the rest goes to the evaluated search, so a
/// solve that times out still leaves a searched move.
const ROOT_SOLVE_SHARE: f64 = 0.6;

/// A won game is worth this plus the disc margin, far above any evaluation.
const WIN: i32 = 20_000;
/// Above every score.
const INFINITY: i32 = 30_000;

/// Multi-ProbCut works inside the evaluation's range (64 discs, in hundredths): a window or a
/// test value past it is about proven results, which a shallow search does not predict.
const MPC_LIMIT: i32 = 6400;

/// How often (in nodes) the clock is read.
const CLOCK_EVERY: u64 = 256;

/// From this remaining depth on, moves are ordered by the evaluation of the position after
/// them; below, by square class (cheaper, and ordering matters less near the leaves).
const SORT_DEPTH: u32 = 2;

/// Bound kinds in the table.
const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

/// One table slot (24 bytes).
#[derive(Clone, Copy, Default)]
struct Entry {
    own: u64,
    opp: u64,
    value: i16,
    depth: u8,
    bound: u8,
    best: u8,
    last: u8,
    generation: u8,
}

/// A position's table identity and slot.
struct TableKey {
    own: u64,
    opp: u64,
    last: u8,
    index: usize,
}

impl TableKey {
    fn of(pos: &Position, table_bits: u32) -> TableKey {
        let (own, opp, last) = (pos.own(), pos.opp(), endgame::last_code(pos));
        let index = endgame::slot(own, opp, last, table_bits);
        TableKey {
            own,
            opp,
            last,
            index,
        }
    }
}

/// What a table probe found.
enum Probe {
    /// A stored score settles the node.
    Cutoff(i32),
    /// The stored best move to try first (64: none).
    Hint(u8),
}

/// Square classes for cheap ordering: corners first, X-squares last.
const SQUARE_ORDER: [u8; 64] = {
    let table: [[u8; 8]; 8] = [
        [0, 4, 2, 3, 3, 2, 4, 0],
        [4, 5, 3, 3, 3, 3, 5, 4],
        [2, 3, 1, 2, 2, 1, 3, 2],
        [3, 3, 2, 2, 2, 2, 3, 3],
        [3, 3, 2, 2, 2, 2, 3, 3],
        [2, 3, 1, 2, 2, 1, 3, 2],
        [4, 5, 3, 3, 3, 3, 5, 4],
        [0, 4, 2, 3, 3, 2, 4, 0],
    ];
    let mut out = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = table[i / 8][i % 8];
        i += 1;
    }
    out
};

/// What scores the search's leaves (and orders its moves).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Evaluator {
    /// The hand-set phased features of [`heuristic`] (the `alphabeta` profile).
    Heuristic(Weights),
    /// The learned pattern tables of [`super::patterns`] (the `learned` profile), the
    /// position's rule picking its set.
    Patterns(ByRule),
}

impl Evaluator {
    /// The score of `pos` (not over) for the side to move in hundredths of a disc, given
    /// `moves`, its [`Position::move_mask`].
    #[inline]
    pub fn evaluate(&self, pos: &Position, moves: u64) -> i32 {
        match self {
            Evaluator::Heuristic(w) => heuristic::evaluate_with_moves(pos, moves, w),
            Evaluator::Patterns(t) => t.evaluate(pos, moves),
        }
    }
}

/// The engine: a transposition table, the exact solver and the evaluation.
pub struct AlphaBeta {
    table: Vec<Entry>,
    table_bits: u32,
    generation: u8,
    solver: Solver,
    eval: Evaluator,
    mpc: Option<&'static Mpc>,
    nodes: u64,
    node_limit: u64,
    deadline: Instant,
    aborted: bool,
}

impl AlphaBeta {
    /// A new engine on the hand-set evaluation's `weights`, whose table takes at most
    /// `memory_bytes` (at most 64 MiB, at least 1 MiB).
    pub fn new(memory_bytes: usize, weights: Weights) -> AlphaBeta {
        AlphaBeta::with_evaluator(memory_bytes, Evaluator::Heuristic(weights))
    }

    /// A new engine on `eval`, its table as in [`AlphaBeta::new`].
    pub fn with_evaluator(memory_bytes: usize, eval: Evaluator) -> AlphaBeta {
        let bytes = memory_bytes.clamp(1 << 20, 64 << 20);
        let entries = bytes / std::mem::size_of::<Entry>();
        let table_bits = usize::BITS - 1 - entries.leading_zeros();
        AlphaBeta {
            table: vec![Entry::default(); 1 << table_bits],
            table_bits,
            generation: 0,
            solver: Solver::new(),
            eval,
            mpc: None,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: Instant::now(),
            aborted: false,
        }
    }

    /// The engine with Multi-ProbCut on `mpc`'s fits (`None`: off).
    pub fn with_mpc(mut self, mpc: Option<&'static Mpc>) -> AlphaBeta {
        self.mpc = mpc;
        self
    }

    /// Nodes searched by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Score of a finished game for the side to move.
    fn terminal(pos: &Position) -> i32 {
        let margin = pos.disc_margin();
        match margin.cmp(&0) {
            std::cmp::Ordering::Greater => WIN + margin,
            std::cmp::Ordering::Less => -WIN + margin,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// Writes the squares of `mask` into `out` in search order, `hint` first; returns how many.
    fn order(&self, pos: &Position, mask: u64, depth: u32, hint: u8, out: &mut [u8; 64]) -> usize {
        let mut keys = [0i32; 64];
        let mut n = 0;
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros() as u8;
            m &= m - 1;
            let key = if i == hint {
                i32::MIN
            } else if depth >= SORT_DEPTH {
                let child = pos.play_unchecked(Move::Play(Square::new(i).expect("bit index")));
                // The child's score is the opponent's: lower first.
                self.eval.evaluate(&child, child.move_mask())
            } else {
                i32::from(SQUARE_ORDER[i as usize])
            };
            out[n] = i;
            keys[n] = key;
            n += 1;
        }
        endgame::sort_by_keys(&mut out[..n], &mut keys[..n]);
        n
    }

    /// Fail-soft principal-variation search to `depth` plies (passes are free).
    fn search(&mut self, pos: &Position, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        let mask = pos.move_mask();
        if mask == 0 {
            if pos.is_game_over() {
                return Self::terminal(pos);
            }
            return -self.search(&pos.play_unchecked(Move::Pass), depth, -beta, -alpha);
        }
        if depth == 0 {
            return self.eval.evaluate(pos, mask);
        }
        let key = TableKey::of(pos, self.table_bits);
        let hint = match self.probe(&key, depth, &mut alpha, &mut beta) {
            Probe::Cutoff(v) => return v,
            Probe::Hint(hint) => hint,
        };
        if let Some(v) = self.probcut(pos, depth, alpha, beta) {
            return v;
        }
        let alpha_in = alpha;
        let (best, best_sq) = self.search_moves(pos, mask, depth, hint, alpha, beta);
        if self.aborted {
            return 0;
        }
        let bound = if best >= beta {
            LOWER
        } else if best <= alpha_in {
            UPPER
        } else {
            EXACT
        };
        self.store(&key, depth, best, bound, best_sq);
        best
    }

    /// Multi-ProbCut: `Some(bound)` when a shallow search predicts that the search of `pos`
    /// to `depth` would fail high (`beta`) or low (`alpha`); `None` to search it. Not stored in
    /// the table: the bound is a prediction, not a search result.
    fn probcut(&mut self, pos: &Position, depth: u32, alpha: i32, beta: i32) -> Option<i32> {
        let mpc = self.mpc?;
        if alpha <= -MPC_LIMIT || beta >= MPC_LIMIT {
            return None;
        }
        let p = mpc.probe(pos.empties(), depth, alpha, beta, MPC_LIMIT)?;
        if p.high < MPC_LIMIT {
            let v = self.search(pos, p.shallow, p.high - 1, p.high);
            if self.aborted {
                return Some(0);
            }
            if v >= p.high {
                return Some(beta);
            }
        }
        if p.low > -MPC_LIMIT {
            let v = self.search(pos, p.shallow, p.low, p.low + 1);
            if self.aborted {
                return Some(0);
            }
            if v <= p.low {
                return Some(alpha);
            }
        }
        None
    }

    /// Counts a node and says whether the search must stop (the clock, read every
    /// [`CLOCK_EVERY`] nodes, or the node limit ran out, now or earlier).
    fn out_of_budget(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_EVERY)
            && (Instant::now() >= self.deadline || self.nodes >= self.node_limit)
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Looks `key` up in the table: a stored score that settles the node at `depth`, or the
    /// stored best move as a hint (64: none), with the window narrowed by a stored bound.
    fn probe(&self, key: &TableKey, depth: u32, alpha: &mut i32, beta: &mut i32) -> Probe {
        let e = self.table[key.index];
        if !(e.own == key.own && e.opp == key.opp && e.last == key.last) {
            return Probe::Hint(64);
        }
        if u32::from(e.depth) >= depth {
            let v = i32::from(e.value);
            match e.bound {
                EXACT => return Probe::Cutoff(v),
                LOWER if v >= *beta => return Probe::Cutoff(v),
                UPPER if v <= *alpha => return Probe::Cutoff(v),
                LOWER => *alpha = (*alpha).max(v),
                _ => *beta = (*beta).min(v),
            }
            if *alpha >= *beta {
                return Probe::Cutoff(v);
            }
        }
        Probe::Hint(e.best)
    }

    /// Searches the moves of `mask` in order (the first with the full window, the rest with a
    /// null window and a re-search when one beats `alpha`); returns the best score and square.
    fn search_moves(
        &mut self,
        pos: &Position,
        mask: u64,
        depth: u32,
        hint: u8,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, u8) {
        let mut order = [0u8; 64];
        let n = self.order(pos, mask, depth, hint, &mut order);
        let mut best = -INFINITY;
        let mut best_sq = order[0];
        for (k, &i) in order[..n].iter().enumerate() {
            let child = pos.play_unchecked(Move::Play(Square::new(i).expect("bit index")));
            let v = if k == 0 {
                -self.search(&child, depth - 1, -beta, -alpha)
            } else {
                let probe = -self.search(&child, depth - 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.search(&child, depth - 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_sq = i;
            }
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        (best, best_sq)
    }

    /// Stores a searched node, replacing an older generation's entry, a shallower one, or
    /// the same position's.
    fn store(&mut self, key: &TableKey, depth: u32, best: i32, bound: u8, best_sq: u8) {
        let slot = &mut self.table[key.index];
        if slot.generation != self.generation
            || u32::from(slot.depth) <= depth
            || slot.own == key.own
        {
            *slot = Entry {
                own: key.own,
                opp: key.opp,
                value: best as i16,
                depth: depth.min(255) as u8,
                bound,
                best: best_sq,
                last: key.last,
                generation: self.generation,
            };
        }
    }

    /// One iteration at the root over `moves` (best first). Returns the index of the best move
    /// and its score, or, if the deadline cut the iteration short, the best move found before
    /// the cut if it beat the first move's score (`None` when nothing was settled).
    fn root(
        &mut self,
        pos: &Position,
        moves: &mut [(Move, i32)],
        depth: u32,
    ) -> Option<(usize, i32)> {
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best: Option<(usize, i32)> = None;
        for (k, entry) in moves.iter_mut().enumerate() {
            let child = pos.play_unchecked(entry.0);
            let v = if k == 0 {
                -self.search(&child, depth - 1, -beta, -alpha)
            } else {
                let probe = -self.search(&child, depth - 1, -alpha - 1, -alpha);
                if probe > alpha && !self.aborted {
                    -self.search(&child, depth - 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.aborted {
                // A later move that already proved better than the first stays chosen.
                return best.filter(|&(i, _)| i > 0);
            }
            // Moves that failed low only have an upper bound: they go to the back.
            entry.1 = if v > alpha || k == 0 { v } else { -INFINITY };
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((k, v));
            }
            alpha = alpha.max(v);
        }
        best
    }

    /// Iterative deepening from depth 1 to `max_depth` until the deadline or the node limit:
    /// the chosen move, its score and the deepest completed iteration.
    fn deepen(&mut self, pos: &Position, max_depth: u32) -> (Move, i32, u32) {
        self.deepen_recording(pos, max_depth, &mut Vec::new())
    }

    /// [`AlphaBeta::deepen`], pushing each completed iteration's score onto `values`.
    fn deepen_recording(
        &mut self,
        pos: &Position,
        max_depth: u32,
        values: &mut Vec<i32>,
    ) -> (Move, i32, u32) {
        self.nodes = 0;
        self.aborted = false;
        let mut order = [0u8; 64];
        let n = self.order(pos, pos.move_mask(), SORT_DEPTH, 64, &mut order);
        let mut moves: Vec<(Move, i32)> = order[..n]
            .iter()
            .map(|&i| (Move::Play(Square::new(i).expect("bit index")), 0))
            .collect();
        let mut chosen = (moves[0].0, 0);
        let mut completed = 0;
        for depth in 1..=max_depth {
            match self.root(pos, &mut moves, depth) {
                Some((k, v)) if !self.aborted => {
                    chosen = (moves[k].0, v);
                    completed = depth;
                    values.push(v);
                    // Best first next time; the rest by this iteration's scores (stable).
                    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
                    if let Some(at) = moves.iter().position(|m| m.0 == chosen.0) {
                        moves[..=at].rotate_right(1);
                    }
                    if v.abs() >= WIN {
                        // A proven result: deeper search cannot change it.
                        break;
                    }
                }
                Some((k, v)) => {
                    chosen = (moves[k].0, v);
                    break;
                }
                None => break,
            }
            if self.aborted {
                break;
            }
        }
        (chosen.0, chosen.1, completed)
    }

    /// The best move of `pos` (which has a move to make) by a search exactly `depth` plies
    /// deep, with no clock and no root solve, and its score: the training games' policy,
    /// reproducible on any machine.
    pub fn best_at_depth(&mut self, pos: &Position, depth: u32) -> (Move, i32) {
        self.generation = self.generation.wrapping_add(1);
        self.deadline = Instant::now() + std::time::Duration::from_secs(3600);
        self.node_limit = u64::MAX;
        let (mv, score, _) = self.deepen(pos, depth.max(1));
        (mv, score)
    }
}

impl AlphaBeta {
    /// The root's score at each depth from 1 to `max_depth` (index `depth - 1`) from one
    /// iterative deepening with no clock and no root solve, `None` from the first proven
    /// result on (a won or lost game is no evaluation): what Multi-ProbCut is fitted on.
    pub fn scores_by_depth(&mut self, pos: &Position, max_depth: u32) -> Vec<Option<i32>> {
        self.generation = self.generation.wrapping_add(1);
        self.deadline = Instant::now() + std::time::Duration::from_secs(3600);
        self.node_limit = u64::MAX;
        let mut values = Vec::new();
        self.deepen_recording(pos, max_depth.max(1), &mut values);
        (0..max_depth as usize)
            .map(|i| values.get(i).copied().filter(|v| v.abs() < WIN))
            .collect()
    }
}

impl Engine for AlphaBeta {
    fn name(&self) -> &'static str {
        match self.eval {
            Evaluator::Heuristic(_) => "alphabeta",
            Evaluator::Patterns(_) => "learned",
        }
    }

    fn new_game(&mut self) {
        self.table.fill(Entry::default());
    }

    fn choose(&mut self, pos: &Position, limits: Limits) -> SearchReport {
        let start = Instant::now();
        let report = |mv, iterations, nodes, score: i32, proof| SearchReport {
            mv,
            ms: start.elapsed().as_millis() as u64,
            iterations,
            nodes,
            winrate: win_probability(score),
            proof,
        };
        if pos.must_pass() || pos.is_game_over() {
            return report(Move::Pass, 0, 0, 0, Proof::None);
        }
        self.generation = self.generation.wrapping_add(1);
        let mut known_loss = false;
        if pos.empties() <= ROOT_SOLVE_EMPTIES {
            let deadline = start + limits.deadline().mul_f64(ROOT_SOLVE_SHARE);
            if let Some((v, mv)) = self.solver.solve(pos, -1, 1, Some(deadline)) {
                let nodes = self.solver.nodes();
                match v.signum() {
                    1 => return report(mv, 0, nodes, WIN, Proof::Win),
                    0 => return report(mv, 0, nodes, 0, Proof::Draw),
                    _ => known_loss = true,
                }
            }
        }
        self.deadline = start + limits.deadline();
        self.node_limit = limits.iterations.unwrap_or(u64::MAX);
        let (mv, score, completed) = self.deepen(pos, pos.empties().max(1));
        let chosen = (mv, score);
        // A completed search as deep as the empties saw only finished games: exact.
        let exact = completed >= pos.empties();
        let proof = match chosen.1 {
            v if v >= WIN => Proof::Win,
            v if v <= -WIN => Proof::Loss,
            _ if known_loss => Proof::Loss,
            0 if exact => Proof::Draw,
            _ => Proof::None,
        };
        report(chosen.0, u64::from(completed), self.nodes, chosen.1, proof)
    }
}

/// The score as a rough chance of winning, for the log line.
fn win_probability(score: i32) -> f64 {
    if score >= WIN {
        return 1.0;
    }
    if score <= -WIN {
        return 0.0;
    }
    1.0 / (1.0 + (-f64::from(score) / 600.0).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Rule;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    /// [`endgame::random_position`], with a move to make (not a forced pass).
    fn random_position(rule: Rule, empties: u32, rng: &mut SmallRng) -> Option<Position> {
        endgame::random_position(rule, empties, rng).filter(|p| !p.must_pass())
    }

    #[test]
    fn legal_moves_from_the_start_under_both_rules() {
        for rule in [Rule::Standard, Rule::NoAdjacent] {
            let mut e = AlphaBeta::new(1 << 20, Weights::DEFAULT);
            let pos = Position::start(rule);
            let r = e.choose(&pos, Limits::iterations(20_000));
            assert!(pos.is_legal(r.mv));
            assert!(r.iterations >= 3, "{}", r.iterations);
        }
    }

    #[test]
    fn a_node_with_more_than_32_moves_is_searched() {
        // Reachable games have up to 33 moves in a position; this made-up one has 34.
        let pos = Position::from_parts(
            0x0088_c258_842c_0000,
            0x0066_2406_6042_5e00,
            crate::position::Color::Black,
            None,
            Rule::Standard,
        )
        .unwrap();
        assert_eq!(pos.move_mask().count_ones(), 34);
        let mut e = AlphaBeta::new(1 << 20, Weights::DEFAULT);
        let r = e.choose(&pos, Limits::iterations(5_000));
        assert!(pos.is_legal(r.mv));
    }

    #[test]
    fn a_full_depth_search_agrees_with_the_exact_solver() {
        // With depth >= empties every leaf is a finished game: the score's sign is exact.
        let mut rng = SmallRng::seed_from_u64(21);
        let mut solver = Solver::new();
        let mut checked = 0;
        for rule in [Rule::Standard, Rule::NoAdjacent] {
            for _ in 0..20 {
                let Some(p) = random_position(rule, 9, &mut rng) else {
                    continue;
                };
                let mut e = AlphaBeta::new(1 << 20, Weights::DEFAULT);
                e.deadline = Instant::now() + std::time::Duration::from_secs(60);
                let v = e.search(&p, p.empties(), -INFINITY, INFINITY);
                let exact = solver.value(&p, None).unwrap();
                let expected = match exact.signum() {
                    1 => WIN + exact,
                    -1 => -WIN + exact,
                    _ => 0,
                };
                assert_eq!(v, expected, "{p}");
                checked += 1;
            }
        }
        assert!(checked > 20);
    }

    #[test]
    fn proves_small_endgames_and_keeps_the_proven_outcome() {
        let mut rng = SmallRng::seed_from_u64(4);
        let mut solver = Solver::new();
        let mut e = AlphaBeta::new(1 << 20, Weights::DEFAULT);
        let mut checked = 0;
        while checked < 8 {
            let Some(pos) = random_position(Rule::Standard, 12, &mut rng) else {
                continue;
            };
            let r = e.choose(&pos, Limits::time(20_000));
            endgame::assert_proven_and_kept(&mut solver, &pos, &r);
            checked += 1;
        }
    }

    #[test]
    fn answers_within_the_budget_in_the_middle_game() {
        let mut rng = SmallRng::seed_from_u64(8);
        let mut e = AlphaBeta::new(1 << 20, Weights::DEFAULT);
        for _ in 0..3 {
            let Some(pos) = random_position(Rule::NoAdjacent, 40, &mut rng) else {
                continue;
            };
            let start = Instant::now();
            let r = e.choose(&pos, Limits::time(100));
            // The search stops at 95 ms; the rest is slack for a loaded machine.
            assert!(start.elapsed().as_millis() < 300, "{:?}", start.elapsed());
            assert!(pos.is_legal(r.mv));
            assert!(r.iterations >= 1);
        }
    }
}
