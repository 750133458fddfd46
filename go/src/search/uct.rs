//! One UCT iteration with RAVE, from the one original board through one scratch board:
//! copy the original, walk down the tree replaying each node's move on the scratch board,
//! expand the leaf (children with priors), play out, and back the result up the path, with
//! the all-moves-as-first statistics of every sibling whose move the same side played later.
//!
//! Selection maximises `(1 - β) q + β q̃ + c √(ln N / n)`, with `q` the mean of real and prior
//! results, `q̃` the AMAF mean and `β = ñ / (ñ + n + ñ n / k)`: Gelly and Silver's schedule
//! (2011, section 5.2 "hand-selected" with an equivalence parameter `k`), where RAVE counts for
//! half at `n = k` visits.
//!
//! With several threads the tree sits behind a lock; the walk down and the backup hold it, the
//! playout (most of the time) does not. A node's visit is counted on the way down and its win
//! only on the way up, so an iteration in flight is a virtual loss that steers the other
//! threads elsewhere.

use std::sync::Mutex;

use rand::rngs::SmallRng;

use super::Config;
use super::playout::{self, Scratch};
use super::prior;
use super::tree::{Node, NodeId, PASS, ROOT, Tree};
use crate::board::Board;
use crate::model::Recent;
use crate::point::Color;

/// A leaf is expanded when an iteration reaches it with this many visits behind it (its first
/// visits are plain playouts): most leaves are never reached that often, so they cost no
/// children. On 9x9, 8 against 2 scored 17-23 at 2000 playouts a move (40 games, within the
/// noise) and 10-10 at 300 ms a move (20 games), with far fewer nodes (see the speed bench).
pub const EXPAND_VISITS: u32 = 8;

/// What every iteration of one search shares: the original board and the rules around it.
#[derive(Debug)]
pub struct Context<'a> {
    /// The position at the root.
    pub root: &'a Board,
    /// The side to move at the root.
    pub to_move: Color,
    /// Consecutive passes before the root.
    pub passes: u32,
    /// Komi.
    pub komi: f64,
    /// The two moves before the root, most recent first (`None`: a pass or nothing).
    pub recent: Recent,
    /// The search's knobs.
    pub config: &'a Config,
}

/// One thread's working state: the scratch board and buffers reused by every iteration.
#[derive(Debug)]
pub struct Worker {
    scratch: Board,
    rng: SmallRng,
    policy: Scratch,
    /// Nodes of the current walk, root first.
    path: Vec<NodeId>,
    /// Every move of the current iteration (tree and playout) with its colour.
    moves: Vec<(u16, Color)>,
    /// For the AMAF backup: the colour (1 + index) that first played each point after the
    /// node being updated, valid where `stamp` equals `iteration`.
    first: Vec<u8>,
    stamp: Vec<u32>,
    iteration: u32,
    nodes: Vec<Node>,
}

impl Worker {
    /// A worker for positions like `root`, with its own random stream.
    pub fn new(root: &Board, rng: SmallRng) -> Worker {
        Worker {
            scratch: root.clone(),
            rng,
            policy: Scratch::default(),
            path: Vec::with_capacity(64),
            moves: Vec::with_capacity(4 * root.size() * root.size()),
            first: vec![0; root.len()],
            stamp: vec![0; root.len()],
            iteration: 0,
            nodes: Vec::with_capacity(root.size() * root.size() + 1),
        }
    }

    /// Runs one iteration on the shared tree.
    pub fn iterate(&mut self, tree: &Mutex<Tree>, ctx: &Context<'_>) {
        self.scratch.copy_from(ctx.root);
        self.path.clear();
        self.moves.clear();
        let mut color = ctx.to_move;
        let mut passes = ctx.passes;
        let mut recent = ctx.recent;
        let mut terminal = false;
        {
            let mut guard = tree.lock().expect("a search thread panicked");
            let mut id = ROOT;
            guard.node_mut(ROOT).visits += 1;
            self.path.push(ROOT);
            loop {
                if passes >= 2 {
                    terminal = true;
                    break;
                }
                if guard.node(id).child_count == 0 {
                    if id != ROOT && guard.node(id).visits < ctx.config.expand_visits {
                        break;
                    }
                    // The children's priors are board work: computed without the lock, then
                    // added unless another thread expanded the node meanwhile.
                    drop(guard);
                    let (board, config) = (&self.scratch, ctx.config);
                    prior::children(board, color, passes, recent, config, &mut self.nodes);
                    guard = tree.lock().expect("a search thread panicked");
                    if guard.node(id).child_count == 0 && !guard.expand(id, &self.nodes) {
                        break;
                    }
                }
                let tree = &mut *guard;
                let child = select(tree, id, ctx.config);
                tree.node_mut(child).visits += 1;
                let mv = tree.node(child).mv;
                if mv == PASS {
                    self.scratch.pass();
                    passes += 1;
                    recent = [None, recent[0]];
                } else {
                    self.scratch.play(color, usize::from(mv));
                    passes = 0;
                    recent = [Some(usize::from(mv)), recent[0]];
                }
                self.moves.push((mv, color));
                self.path.push(child);
                id = child;
                color = color.opponent();
            }
        }
        let area = if terminal {
            let [b, w] = self.scratch.area();
            b as f64 - w as f64
        } else {
            let moves = &mut self.moves;
            f64::from(playout::playout(
                &mut self.scratch,
                color,
                passes,
                ctx.config.policy,
                &mut self.rng,
                &mut self.policy,
                |i, c| moves.push((i as u16, c)),
            ))
        };
        let score = area - ctx.komi;
        let black = if score > 0.0 {
            1.0
        } else if score < 0.0 {
            0.0
        } else {
            0.5
        };
        let mut tree = tree.lock().expect("a search thread panicked");
        self.backup(&mut tree, black, ctx.config.rave);
    }

    /// Adds the result (`black`: Black's share, 1, 0.5 or 0) to every node of the path and the
    /// AMAF result to the siblings whose move the same side played first later on.
    fn backup(&mut self, tree: &mut Tree, black: f32, rave: bool) {
        let result = |c: Color| {
            if c == Color::Black {
                black
            } else {
                1.0 - black
            }
        };
        for (k, &id) in self.path.iter().enumerate().skip(1) {
            tree.node_mut(id).wins += result(self.moves[k - 1].1);
        }
        if !rave {
            return;
        }
        self.iteration = self.iteration.wrapping_add(1);
        if self.iteration == 0 {
            self.stamp.fill(0);
            self.iteration = 1;
        }
        // Walk the moves backwards so that `first` ends up holding the earliest player of each
        // point after move k; at k < path length, update the children of path[k].
        for k in (0..self.moves.len()).rev() {
            let (mv, c) = self.moves[k];
            if mv != PASS {
                self.first[usize::from(mv)] = c.index() as u8 + 1;
                self.stamp[usize::from(mv)] = self.iteration;
            }
            if k < self.path.len() {
                let node = self.path[k];
                let mover = c.index() as u8 + 1;
                let r = result(c);
                for child in tree.children(node) {
                    let m = usize::from(tree.node(child).mv);
                    if m != usize::from(PASS)
                        && self.stamp[m] == self.iteration
                        && self.first[m] == mover
                    {
                        let n = tree.node_mut(child);
                        n.amaf_visits += 1.0;
                        n.amaf_wins += r;
                    }
                }
            }
        }
    }
}

/// The child of `id` with the best RAVE-UCT value.
fn select(tree: &Tree, id: NodeId, config: &Config) -> NodeId {
    let parent = tree.node(id);
    let ln_n = (f64::from(parent.visits) + 1.0).ln() as f32;
    let k = config.rave_equivalence;
    let c = config.exploration;
    let mut best = ROOT;
    let mut best_value = f32::NEG_INFINITY;
    let open = if config.widening && config.model.is_some() {
        widening_limit(parent.visits)
    } else {
        usize::MAX
    };
    for (rank, child) in tree.children(id).enumerate() {
        let node = tree.node(child);
        if rank >= open && node.mv != PASS {
            continue;
        }
        let n = node.visits as f32 + node.prior_visits;
        let q = if n > 0.0 {
            (node.wins + node.prior_wins) / n
        } else {
            0.5
        };
        let an = node.amaf_visits;
        let mut value = if config.rave && an > 0.0 {
            let beta = an / (an + n + an * n / k);
            (1.0 - beta) * q + beta * (node.amaf_wins / an)
        } else {
            q
        };
        if c > 0.0 {
            value += c * (ln_n / (n + 1.0)).sqrt();
        }
        if value > best_value {
            best_value = value;
            best = child;
        }
    }
    best
}

/// Progressive widening (Coulom 2007, section 4.1; Chaslot et al.'s progressive unpruning):
/// of a node's children, sorted by the model's probability, only the first
/// `WIDEN_MIN + log_μ(1 + n / WIDEN_SCALE)` are open to selection after `n` visits (the pass
/// always is), so the search spends its first visits on the moves the model likes.
pub fn widening_limit(visits: u32) -> usize {
    let extra = (1.0 + f64::from(visits) / WIDEN_SCALE).ln() / WIDEN_MU.ln();
    WIDEN_MIN + extra as usize
}

/// Children open before any visit.
const WIDEN_MIN: usize = 5;

/// Visits at which the first extra child opens (about).
const WIDEN_SCALE: f64 = 40.0;

/// Each further child opens after this factor more visits.
const WIDEN_MU: f64 = 1.4;
