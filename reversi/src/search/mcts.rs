//! Monte-Carlo tree search: one tree, configured as the `classic` baseline or the `strong`
//! engine (see [`Config`]).
//!
//! The tree is an arena of `Node`s linked by indices (first child, next sibling, parent).
//! A node keeps the moves it has not expanded yet as a mask, so an iteration expands exactly
//! one child, as the seed does. Every statistic is kept from the view of the side that moved
//! into the node, so selection at a node maximises its children's means directly. A pass is an
//! ordinary child, so sides strictly alternate down the tree.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::endgame::Solver;
use super::eval::Weights;
use super::playout::{self, Policy};
use super::{Engine, Limits, Proof, SearchReport};
use crate::bitboard::Square;
use crate::position::{Move, Position};

/// The knobs that make the two engines.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// The engine's name.
    pub name: &'static str,
    /// UCB1 exploration constant on win rates in 0..1.
    pub exploration: f64,
    /// How playouts (and, for `Biased`, the expansion order) choose moves.
    pub policy: Policy,
    /// MCTS-solver: mark proven wins/losses/draws and back them up the tree.
    pub solver: bool,
    /// Solve leaves with at most this many empties exactly instead of playing out (0: never).
    pub leaf_solve_empties: u32,
    /// Solve the root exactly with at most this many empties (0: never).
    pub root_solve_empties: u32,
    /// Keep the subtree of the new position between moves.
    pub reuse: bool,
    /// Choose the final move by visits (else by mean, ties to visits).
    pub final_by_visits: bool,
    /// Stop playouts after this many plies and score with the static evaluation (`None`:
    /// play to the end).
    pub cutoff_plies: Option<u32>,
    /// The static evaluation's weights.
    pub weights: Weights,
}

/// The seed's UCB1 constant on win rates in 0..1.
pub const CLASSIC_EXPLORATION: f64 = 0.8;

/// Root solves up to this many empties may take [`ROOT_SOLVE_SHARE_NEAR`] of the budget; up
/// to [`ROOT_SOLVE_EMPTIES`], [`ROOT_SOLVE_SHARE_FAR`]. Measured with `examples/endgame.rs`
/// (release, shared 2-core machine): a win/draw/loss solve takes about 14 ms at 16 empties,
/// 60 ms at 18 and 2 s at 20 (worst of five 7 s), so 16 is near-certain within 5 s and 20 is
/// worth trying.
pub const ROOT_SOLVE_NEAR_EMPTIES: u32 = 16;
/// The most empties at which the strong engine tries an exact root solve.
pub const ROOT_SOLVE_EMPTIES: u32 = 20;
/// Share of the budget a root solve may take near the end. The rest goes to MCTS, so a solve
/// that times out still leaves a searched move.
pub const ROOT_SOLVE_SHARE_NEAR: f64 = 0.8;
/// Share of the budget a root solve may take further from the end.
pub const ROOT_SOLVE_SHARE_FAR: f64 = 0.5;

impl Config {
    /// The seed-faithful baseline.
    pub fn classic() -> Config {
        Config {
            name: "classic",
            exploration: CLASSIC_EXPLORATION,
            policy: Policy::Random,
            solver: false,
            leaf_solve_empties: 0,
            root_solve_empties: 0,
            reuse: false,
            final_by_visits: false,
            cutoff_plies: None,
            weights: Weights::DEFAULT,
        }
    }

    /// The strong engine. Its exploration constant, leaf-solve depth, playout cutoff and
    /// evaluation weights are experiment knobs ([`crate::settings`] reads them).
    pub fn strong() -> Config {
        Config {
            name: "strong",
            exploration: STRONG_EXPLORATION,
            policy: Policy::Biased,
            solver: true,
            leaf_solve_empties: LEAF_SOLVE_EMPTIES,
            root_solve_empties: ROOT_SOLVE_EMPTIES,
            reuse: true,
            final_by_visits: true,
            cutoff_plies: CUTOFF_PLIES,
            weights: Weights::DEFAULT,
        }
    }
}

/// The strong engine's UCB1 constant. Evaluated leaves are far less noisy than random
/// playouts, so the tree can afford to go deep on its best lines: against gtp-rhino level 3
/// at 500 ms, 4 games each, c = 0.3 scored 3-1-0 (mean margin +10), 0.15 3-1-0 (+3.5), 0.6
/// 2-0-2 (-7.5), 1.0 2-0-2 (-19).
pub const STRONG_EXPLORATION: f64 = 0.3;

/// Playout plies before the strong engine's static evaluation takes over: none, the leaf is
/// evaluated directly. Against gtp-rhino level 3 at 500 ms (c = 0.6, 4 games each) full biased
/// playouts lost 0-0-4 (mean margin -28.5), 8 plies then the evaluation 0-0-4 (-19.5), the
/// evaluation at once 2-0-2 (-7.5); with c = 0.3, 2 plies 3-0-1 (-5.5) against 0 plies 3-1-0
/// (+10).
pub const CUTOFF_PLIES: Option<u32> = Some(0);

/// Leaves with at most this many empties are solved exactly (win/draw/loss) instead of played
/// out: a few hundred solver nodes, the cost of some tens of playouts, for a proof.
pub const LEAF_SOLVE_EMPTIES: u32 = 8;

/// No node.
const NONE: u32 = u32::MAX;
/// `Node::mv` of a pass.
const PASS: u8 = 64;
/// `Node::mv` of the root.
const ROOT_MV: u8 = 255;
/// The node knows its moves (`untried` is set).
const INIT: u8 = 1;
/// A pass is the node's one move and is not expanded yet.
const UNTRIED_PASS: u8 = 2;
/// The game is over at this node.
const TERMINAL: u8 = 4;

/// What is proven about a node, for the side that moved into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Unknown,
    Win,
    Draw,
    Loss,
}

impl Status {
    /// The value of a proven node for the side that moved into it.
    fn value(self) -> f64 {
        match self {
            Status::Win => 1.0,
            Status::Draw => 0.5,
            Status::Loss | Status::Unknown => 0.0,
        }
    }

    /// The same fact from the other side.
    fn flip(self) -> Status {
        match self {
            Status::Win => Status::Loss,
            Status::Loss => Status::Win,
            s => s,
        }
    }
}

/// One tree node (32 bytes).
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Squares not expanded yet (valid once `INIT` is set).
    untried: u64,
    parent: u32,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    /// Sum of results (1 win, 0.5 draw) for the side that moved into the node.
    score: f32,
    /// The move into the node: a square index, [`PASS`], or [`ROOT_MV`].
    mv: u8,
    flags: u8,
    status: Status,
}

impl Node {
    fn new(mv: u8, parent: u32) -> Node {
        Node {
            untried: 0,
            parent,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            score: 0.0,
            mv,
            flags: 0,
            status: Status::Unknown,
        }
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            f64::from(self.score) / f64::from(self.visits)
        }
    }

    fn has_untried(&self) -> bool {
        self.untried != 0 || self.flags & UNTRIED_PASS != 0
    }

    fn the_move(&self) -> Move {
        if self.mv == PASS {
            Move::Pass
        } else {
            Move::Play(Square::new(self.mv).expect("node moves are squares"))
        }
    }
}

/// The engine: a tree arena, its root position, a generator and an endgame solver.
pub struct Mcts {
    config: Config,
    rng: SmallRng,
    nodes: Vec<Node>,
    root_pos: Option<Position>,
    max_nodes: usize,
    solver: Solver,
    path: Vec<u32>,
}

/// How many nodes the reuse search looks through for the new position before giving up.
const REUSE_SCAN_LIMIT: usize = 20_000;

impl Mcts {
    /// A new engine with `config`; `seed` fixes its generator (else the OS seeds it);
    /// the tree stops growing at `memory_bytes`.
    pub fn new(config: Config, seed: Option<u64>, memory_bytes: usize) -> Mcts {
        let rng = match seed {
            Some(s) => SmallRng::seed_from_u64(s),
            None => SmallRng::from_os_rng(),
        };
        Mcts {
            config,
            rng,
            nodes: Vec::new(),
            root_pos: None,
            max_nodes: (memory_bytes / std::mem::size_of::<Node>()).max(16),
            solver: Solver::new(),
            path: Vec::with_capacity(128),
        }
    }

    /// Makes `pos` the root: the matching subtree of the previous search when reuse is on and
    /// it is found within a few plies, else a fresh root.
    fn set_root(&mut self, pos: &Position) {
        let found = if self.config.reuse {
            self.find(pos)
        } else {
            None
        };
        match found {
            Some(0) => {}
            Some(id) => self.compact(id),
            None => {
                self.nodes.clear();
                self.nodes.push(Node::new(ROOT_MV, NONE));
            }
        }
        self.root_pos = Some(*pos);
    }

    /// The node holding `pos` below the current root, breadth first to depth 4 (our move, the
    /// reply, and passes between), or `None`.
    fn find(&self, pos: &Position) -> Option<u32> {
        let root = self.root_pos?;
        if self.nodes.is_empty() {
            return None;
        }
        let mut frontier = vec![(0u32, root)];
        let mut scanned = 0;
        for _depth in 0..=4 {
            let mut next = Vec::new();
            for &(id, p) in &frontier {
                if p == *pos {
                    return Some(id);
                }
                let mut c = self.nodes[id as usize].first_child;
                while c != NONE {
                    scanned += 1;
                    if scanned > REUSE_SCAN_LIMIT {
                        return None;
                    }
                    let child = &self.nodes[c as usize];
                    next.push((c, p.play_unchecked(child.the_move())));
                    c = child.next_sibling;
                }
            }
            frontier = next;
        }
        None
    }

    /// Copies the subtree under `id` into a fresh arena with `id` as its root.
    fn compact(&mut self, id: u32) {
        let mut fresh: Vec<Node> = Vec::with_capacity(1024);
        let mut root = self.nodes[id as usize];
        root.parent = NONE;
        root.next_sibling = NONE;
        root.mv = ROOT_MV;
        fresh.push(root);
        // (old id, new id) pairs whose children still need copying.
        let mut stack = vec![(id, 0u32)];
        while let Some((old, new)) = stack.pop() {
            let mut c = self.nodes[old as usize].first_child;
            let mut prev = NONE;
            fresh[new as usize].first_child = NONE;
            while c != NONE {
                let mut node = self.nodes[c as usize];
                let next = node.next_sibling;
                let nid = fresh.len() as u32;
                node.parent = new;
                node.next_sibling = NONE;
                node.first_child = NONE;
                fresh.push(node);
                if prev == NONE {
                    fresh[new as usize].first_child = nid;
                } else {
                    fresh[prev as usize].next_sibling = nid;
                }
                prev = nid;
                stack.push((c, nid));
                c = next;
            }
        }
        self.nodes = fresh;
    }

    /// Adds a node, growing the arena in bounded steps so it never overshoots the cap.
    fn push(&mut self, node: Node) -> u32 {
        if self.nodes.len() == self.nodes.capacity() {
            let step = self.nodes.len().clamp(1024, 1 << 20);
            let room = self.max_nodes.saturating_sub(self.nodes.len());
            self.nodes.reserve_exact(step.min(room).max(1));
        }
        self.nodes.push(node);
        (self.nodes.len() - 1) as u32
    }

    /// Fills in a node's moves from its position.
    fn init(&mut self, id: u32, pos: &Position) {
        let node = &mut self.nodes[id as usize];
        node.flags |= INIT;
        let mask = pos.move_mask();
        if mask != 0 {
            node.untried = mask;
        } else if pos.is_game_over() {
            node.flags |= TERMINAL;
        } else {
            node.flags |= UNTRIED_PASS;
        }
    }

    /// Takes one untried move out of a node: under the biased policy the playout's choice
    /// (corners first), else uniformly.
    fn take_untried(&mut self, id: u32, pos: &Position) -> u8 {
        let node = self.nodes[id as usize];
        if node.untried == 0 {
            self.nodes[id as usize].flags &= !UNTRIED_PASS;
            return PASS;
        }
        let sq = match self.config.policy {
            Policy::Random => {
                let n = self.rng.random_range(0..node.untried.count_ones());
                let mut m = node.untried;
                for _ in 0..n {
                    m &= m - 1;
                }
                m.trailing_zeros() as u8
            }
            Policy::Biased => {
                playout::pick(pos, node.untried, Policy::Biased, &mut self.rng).index()
            }
        };
        self.nodes[id as usize].untried &= !(1u64 << sq);
        sq
    }

    /// The child of `id` with the best UCB1 score (proven losses for the chooser skipped while
    /// anything else remains).
    fn select(&self, id: u32) -> u32 {
        let parent = &self.nodes[id as usize];
        let log_n = f64::from(parent.visits.max(1)).ln();
        let c = self.config.exploration;
        let mut best = NONE;
        let mut best_score = f64::NEG_INFINITY;
        let mut fallback = NONE;
        let mut child = parent.first_child;
        while child != NONE {
            let n = &self.nodes[child as usize];
            if self.config.solver && n.status == Status::Loss {
                fallback = child;
            } else {
                let v = n.mean() + c * (log_n / f64::from(n.visits.max(1))).sqrt();
                if v > best_score {
                    best_score = v;
                    best = child;
                }
            }
            child = n.next_sibling;
        }
        if best == NONE { fallback } else { best }
    }

    /// Result for the side that moved into a new leaf at `pos`, proving it when possible.
    fn evaluate(&mut self, id: u32, pos: &Position) -> f64 {
        if pos.is_game_over() {
            let node = &mut self.nodes[id as usize];
            node.flags |= INIT | TERMINAL;
            let status = match pos.disc_margin().cmp(&0) {
                // The side to move is ahead: the side that moved in lost.
                std::cmp::Ordering::Greater => Status::Loss,
                std::cmp::Ordering::Equal => Status::Draw,
                std::cmp::Ordering::Less => Status::Win,
            };
            if self.config.solver {
                node.status = status;
            }
            return status.value();
        }
        if self.config.solver && pos.empties() <= self.config.leaf_solve_empties {
            let outcome = self.solver.outcome(pos, None).expect("no deadline");
            let status = match outcome {
                1 => Status::Loss,
                0 => Status::Draw,
                _ => Status::Win,
            };
            self.nodes[id as usize].status = status;
            return status.value();
        }
        1.0 - self.rollout(pos)
    }

    /// A playout (to the end, or to the cutoff and the evaluation) for the side to move.
    fn rollout(&mut self, pos: &Position) -> f64 {
        match self.config.cutoff_plies {
            None => playout::playout(pos, self.config.policy, &mut self.rng),
            Some(plies) => playout::playout_cutoff(
                pos,
                self.config.policy,
                plies,
                &self.config.weights,
                &mut self.rng,
            ),
        }
    }

    /// One iteration: select, expand one child, evaluate, back up, propagate proofs.
    fn iterate(&mut self, root_pos: &Position) {
        let mut id = 0u32;
        let mut pos = *root_pos;
        self.path.clear();
        self.path.push(0);
        let value = loop {
            let node = self.nodes[id as usize];
            if node.status != Status::Unknown {
                break node.status.value();
            }
            if node.flags & INIT == 0 {
                self.init(id, &pos);
            }
            let node = self.nodes[id as usize];
            if node.flags & TERMINAL != 0 {
                break self.evaluate(id, &pos);
            }
            if node.has_untried() && self.nodes.len() < self.max_nodes {
                let mv = self.take_untried(id, &pos);
                let child = self.push(Node::new(mv, id));
                self.nodes[child as usize].next_sibling = self.nodes[id as usize].first_child;
                self.nodes[id as usize].first_child = child;
                pos = pos.play_unchecked(self.nodes[child as usize].the_move());
                self.path.push(child);
                break self.evaluate(child, &pos);
            }
            if node.first_child == NONE {
                // Memory is full and this node has no children: play out from here.
                break 1.0 - self.rollout(&pos);
            }
            let child = self.select(id);
            pos = pos.play_unchecked(self.nodes[child as usize].the_move());
            id = child;
            self.path.push(child);
        };
        // Back up: `value` is for the side that moved into the last node; sides alternate.
        let mut v = value;
        for &n in self.path.iter().rev() {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.score += v as f32;
            v = 1.0 - v;
        }
        if self.config.solver {
            self.propagate();
        }
    }

    /// MCTS-solver: lifts a proof at the end of the path as far up as it decides parents.
    fn propagate(&mut self) {
        for i in (1..self.path.len()).rev() {
            let child = self.path[i];
            let parent = self.path[i - 1];
            match self.nodes[child as usize].status {
                Status::Unknown => return,
                // The side to move at the parent has a winning move: the parent is lost for
                // the side that moved into it.
                Status::Win => self.nodes[parent as usize].status = Status::Loss,
                Status::Draw | Status::Loss => {
                    let p = self.nodes[parent as usize];
                    if p.has_untried() || p.flags & INIT == 0 {
                        return;
                    }
                    let mut best = Status::Loss;
                    let mut c = p.first_child;
                    while c != NONE {
                        let n = &self.nodes[c as usize];
                        match n.status {
                            Status::Unknown => return,
                            Status::Win => best = Status::Win,
                            Status::Draw if best == Status::Loss => best = Status::Draw,
                            _ => {}
                        }
                        c = n.next_sibling;
                    }
                    self.nodes[parent as usize].status = best.flip();
                }
            }
        }
    }

    /// The root child to play, with the proof it carries.
    fn final_choice(&mut self, root_pos: &Position) -> (Move, f64, Proof) {
        let root = self.nodes[0];
        let mut children = Vec::new();
        let mut c = root.first_child;
        while c != NONE {
            children.push(self.nodes[c as usize]);
            c = self.nodes[c as usize].next_sibling;
        }
        if children.is_empty() {
            // No iteration ran: any legal move.
            let mv = root_pos.legal_moves()[0];
            return (mv, 0.5, Proof::None);
        }
        if self.config.solver
            && let Some(win) = children.iter().find(|n| n.status == Status::Win)
        {
            return (win.the_move(), 1.0, Proof::Win);
        }
        let fully_proven = self.config.solver
            && !root.has_untried()
            && children.iter().all(|n| n.status != Status::Unknown);
        let chosen = if self.config.final_by_visits {
            let not_lost: Vec<&Node> = children
                .iter()
                .filter(|n| !(self.config.solver && n.status == Status::Loss))
                .collect();
            let pool: Vec<&Node> = if not_lost.is_empty() {
                children.iter().collect()
            } else {
                not_lost
            };
            **pool
                .iter()
                .max_by(|a, b| a.visits.cmp(&b.visits).then(a.mean().total_cmp(&b.mean())))
                .expect("non-empty")
        } else {
            *children
                .iter()
                .filter(|n| n.visits > 0)
                .max_by(|a, b| a.mean().total_cmp(&b.mean()).then(a.visits.cmp(&b.visits)))
                .expect("every expanded child was visited")
        };
        let proof = if fully_proven {
            match chosen.status {
                Status::Draw => Proof::Draw,
                _ => Proof::Loss,
            }
        } else {
            Proof::None
        };
        (chosen.the_move(), chosen.mean(), proof)
    }
}

impl Engine for Mcts {
    fn name(&self) -> &'static str {
        self.config.name
    }

    fn new_game(&mut self) {
        self.nodes.clear();
        self.root_pos = None;
    }

    fn choose(&mut self, pos: &Position, limits: Limits) -> SearchReport {
        let start = Instant::now();
        let report = |mv, iterations, nodes, winrate, proof| SearchReport {
            mv,
            ms: start.elapsed().as_millis() as u64,
            iterations,
            nodes,
            winrate,
            proof,
        };
        if pos.must_pass() || pos.is_game_over() {
            // Nothing to decide (a finished game gets a pass rather than a panic).
            return report(Move::Pass, 0, self.nodes.len() as u64, 0.5, Proof::None);
        }
        // The exact solver first: a proven win or draw is played at once.
        let mut known_loss = false;
        if self.config.root_solve_empties > 0 && pos.empties() <= self.config.root_solve_empties {
            let empties = pos.empties();
            let share = if empties <= ROOT_SOLVE_NEAR_EMPTIES {
                ROOT_SOLVE_SHARE_NEAR
            } else {
                ROOT_SOLVE_SHARE_FAR
            };
            let deadline = start + limits.deadline().mul_f64(share);
            if let Some((v, mv)) = self.solver.solve(pos, -1, 1, Some(deadline)) {
                let nodes = self.solver.nodes();
                if v > 0 {
                    return report(mv, 0, nodes, 1.0, Proof::Win);
                }
                if v == 0 {
                    return report(mv, 0, nodes, 0.5, Proof::Draw);
                }
                known_loss = true;
            }
        }
        self.set_root(pos);
        let deadline = start + limits.deadline();
        let mut iterations = 0u64;
        loop {
            if let Some(max) = limits.iterations
                && iterations >= max
            {
                break;
            }
            if iterations.is_multiple_of(16) && Instant::now() >= deadline {
                break;
            }
            if self.config.solver && self.nodes[0].status != Status::Unknown {
                // The root is proven: more iterations cannot change the choice.
                break;
            }
            self.iterate(pos);
            iterations += 1;
        }
        let (mv, winrate, mut proof) = self.final_choice(pos);
        if known_loss && proof == Proof::None {
            proof = Proof::Loss;
        }
        report(mv, iterations, self.nodes.len() as u64, winrate, proof)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Rule;

    #[test]
    fn node_is_32_bytes() {
        assert_eq!(std::mem::size_of::<Node>(), 32);
    }

    #[test]
    fn both_configs_return_legal_moves_from_the_start() {
        for config in [Config::classic(), Config::strong()] {
            for rule in [Rule::Standard, Rule::NoAdjacent] {
                let mut e = Mcts::new(config, Some(3), 1 << 24);
                let pos = Position::start(rule);
                let r = e.choose(&pos, Limits::iterations(500));
                assert!(pos.is_legal(r.mv));
                assert_eq!(r.iterations, 500);
            }
        }
    }

    #[test]
    fn reuse_finds_the_position_two_plies_down() {
        let mut e = Mcts::new(Config::strong(), Some(5), 1 << 24);
        let pos = Position::start(Rule::Standard);
        let r = e.choose(&pos, Limits::iterations(2000));
        let after = pos.play(r.mv).unwrap();
        let reply = after.legal_moves()[0];
        let next = after.play(reply).unwrap();
        let id = e.find(&next).expect("two plies down");
        let visits = e.nodes[id as usize].visits;
        e.set_root(&next);
        assert_eq!(e.nodes[0].visits, visits);
        assert!(visits > 0);
    }

    #[test]
    fn strong_proves_small_endgames_as_the_solver_does() {
        use rand::SeedableRng;
        let mut rng = SmallRng::seed_from_u64(4);
        let mut solver = Solver::new();
        let mut checked = 0;
        while checked < 10 {
            let pos = crate::selfplay::random_opening(Rule::Standard, 50, &mut rng);
            if pos.is_game_over() || pos.must_pass() {
                continue;
            }
            let mut e = Mcts::new(Config::strong(), Some(1), 1 << 24);
            let r = e.choose(&pos, Limits::time(2000));
            super::super::endgame::assert_proven_and_kept(&mut solver, &pos, &r);
            checked += 1;
        }
    }

    #[test]
    fn memory_cap_stops_growth_not_search() {
        let cap = 200 * std::mem::size_of::<Node>();
        let mut e = Mcts::new(Config::strong(), Some(9), cap);
        let pos = Position::start(Rule::Standard);
        let r = e.choose(&pos, Limits::iterations(3000));
        assert!(r.nodes <= 200);
        assert_eq!(r.iterations, 3000);
        assert!(pos.is_legal(r.mv));
    }
}
