//! Directed cleanup: taking the opponent's dead stones off the board in as few moves as
//! their liberties need, without a search.
//!
//! After the opponent passes, and under `kgs-genmove_cleanup`, the stones to remove are
//! those the status playouts call dead ([`Engine::ownership`]: the opponent's stones we
//! own at the end of most playouts). A search there wastes its time (every move wins, or
//! every move loses, so its choice is noise) and plays stones into the opponent's area
//! that are then captured. Instead each move takes a liberty of a dead group: a point we
//! own in most playouts (so never one in the opponent's area), legal, and not a self-atari
//! unless it captures; captures first, then ataris, then the dead group nearest capture.
//! A group of n liberties then goes in n moves of ours while the opponent passes.

use std::cmp::Reverse;
use std::time::Instant;

use super::Engine;
use crate::board::{Board, stone_color};
use crate::game::Game;
use crate::point::{Color, Move, Point};
use crate::search::SearchStats;

/// A judgement kept after a directed move: while the opponent only passes, our own move
/// changed nothing the status playouts would judge differently (a liberty of a dead group
/// taken on a point we own, or the group taken off), so the next move uses it again, in
/// microseconds instead of the playouts' time.
#[derive(Clone, Debug)]
pub(super) struct Kept {
    /// The colour it was made for.
    color: Color,
    /// The moves of the game after our directed move.
    moves: usize,
    /// The board's hash after our directed move.
    hash: u64,
    /// The judgement.
    judged: Judgement,
}

/// What the status playouts say about the end of the game for the side to move.
#[derive(Clone, Debug)]
pub(super) struct Judgement {
    /// Per board index, the playouts that ended with the point Black's and White's.
    owners: Vec<[u32; 2]>,
    /// The playouts behind `owners`.
    playouts: u32,
    /// The playouts Black and White won.
    wins: [u32; 2],
}

impl Judgement {
    /// True when `color` owns the point `i` at the end of most playouts.
    fn owns(&self, color: Color, i: usize) -> bool {
        2 * self.owners[i][color.index()] > self.playouts
    }

    /// True when the stone at `i` is dead: the other colour owns its point.
    fn is_dead(&self, board: &Board, i: usize) -> bool {
        stone_color(board.at(i)).is_some_and(|c| self.owns(c.opponent(), i))
    }

    /// True when `color` has dead stones on `board`.
    pub(super) fn has_dead(&self, board: &Board, color: Color) -> bool {
        board
            .points()
            .any(|i| stone_color(board.at(i)) == Some(color) && self.is_dead(board, i))
    }

    /// True when `color` wins `game` scored with the dead stones (of both colours) off the
    /// board: the score the game will have once they are taken.
    pub(super) fn wins_without_dead(&self, game: &Game, color: Color) -> bool {
        let board = game.board();
        let dead: Vec<bool> = (0..board.len()).map(|i| self.is_dead(board, i)).collect();
        let [b, w] = board.area_without(&dead);
        let score = b as f64 - w as f64 - game.komi();
        match color {
            Color::Black => score > 0.0,
            Color::White => score < 0.0,
        }
    }

    /// The share of the playouts `color` won.
    fn win_rate(&self, color: Color) -> f64 {
        f64::from(self.wins[color.index()]) / f64::from(self.playouts.max(1))
    }
}

/// How a candidate move of the cleanup ranks, best greatest: the stones it captures, the
/// dead groups it puts in atari, how few liberties the dead groups it touches have, its own
/// liberties after (capped: more is not safer), how many playouts we own it in, and the
/// first point in index order among equals.
type Rank = (usize, usize, Reverse<usize>, usize, u32, Reverse<usize>);

/// The liberties a cleanup stone needs when it captures nothing: two, so that it is not in
/// atari (a self-atari would be captured, and give the opponent's dead stones room).
const SAFE_LIBERTIES: usize = 2;

/// The move that best takes a liberty of one of `color`'s opponent's dead groups in `game`
/// under `judged` (see the module's documentation), or `None` when there is none.
pub(super) fn capture_move(game: &Game, color: Color, judged: &Judgement) -> Option<Point> {
    let board = game.board();
    let opponent = color.opponent();
    let mut best: Option<(Rank, usize)> = None;
    for head in board.points() {
        let dead_head = stone_color(board.at(head)) == Some(opponent)
            && board.group(head) == head
            && judged.is_dead(board, head);
        if !dead_head {
            continue;
        }
        for lib in board.group_libs(head) {
            let Some(rank) = rank(game, color, judged, lib) else {
                continue;
            };
            if best.is_none_or(|(b, _)| rank > b) {
                best = Some((rank, lib));
            }
        }
    }
    best.map(|(_, i)| board.point(i))
}

/// The rank of `color`'s move at the empty point `i` (a liberty of a dead group), or `None`
/// when the cleanup must not play it: a point we do not own, an illegal move, a self-atari
/// that captures nothing.
fn rank(game: &Game, color: Color, judged: &Judgement, i: usize) -> Option<Rank> {
    let board = game.board();
    if !judged.owns(color, i) || game.check(color, Move::Play(board.point(i))).is_err() {
        return None;
    }
    let opponent = color.opponent();
    let mut heads = [0usize; 4];
    let mut seen = 0;
    let (mut captured, mut ataris, mut fewest) = (0, 0, usize::MAX);
    for n in board.neighbors(i) {
        if stone_color(board.at(n)) != Some(opponent) || heads[..seen].contains(&board.group(n)) {
            continue;
        }
        heads[seen] = board.group(n);
        seen += 1;
        let libs = board.libs(n);
        if libs == 1 {
            captured += board.group_size(n);
        } else if judged.is_dead(board, n) {
            ataris += usize::from(libs == 2);
            fewest = fewest.min(libs);
        }
    }
    let libs_after = board.libs_after(color, i, SAFE_LIBERTIES + 1);
    if captured == 0 && libs_after < SAFE_LIBERTIES {
        return None;
    }
    let owned = judged.owners[i][color.index()];
    Some((
        captured,
        ataris,
        Reverse(fewest),
        libs_after,
        owned,
        Reverse(i),
    ))
}

impl Engine {
    /// An engine (same configuration) on the position of this game with its trailing passes
    /// taken back: the same board and earlier positions, for the judgements and searches
    /// whose playouts would otherwise stop at the game's two passes.
    pub fn without_trailing_passes(&self) -> Engine {
        let mut game = self.game.clone();
        while game.moves().last().is_some_and(|&(_, mv)| mv == Move::Pass) {
            game.undo().expect("a move to take back");
        }
        let mut copy = Engine::with_config(game.size(), game.komi(), self.config().clone())
            .expect("the size was valid");
        copy.set_game(game);
        copy
    }

    /// The status playouts' judgement of the position ([`crate::search::Config::score_playouts`]
    /// of them), or the one behind our last directed move when nothing but the opponent's
    /// pass came since ([`Kept`]); true when it is new.
    pub(super) fn judge(&mut self, color: Color) -> (Judgement, bool) {
        let kept = self.kept.take().filter(|k| {
            k.color == color
                && k.moves + 1 == self.game.moves().len()
                && k.hash == self.game.board().hash()
                && self.game.moves().last() == Some(&(color.opponent(), Move::Pass))
        });
        if let Some(k) = kept {
            return (k.judged, false);
        }
        let playouts = self.config().score_playouts;
        let (owners, wins) = self.ownership_and_wins(playouts);
        let judged = Judgement {
            owners,
            playouts,
            wins,
        };
        (judged, true)
    }

    /// The directed cleanup move for `color` under `judged` (`fresh`: its playouts were run
    /// for this move), with its statistics recorded (the playouts run, the judgement's win
    /// rate, no tree) and the judgement kept for the next move; or `None`.
    pub(super) fn directed_cleanup(
        &mut self,
        color: Color,
        judged: Judgement,
        fresh: bool,
        start: Instant,
    ) -> Option<Move> {
        let p = capture_move(&self.game, color, &judged)?;
        let mv = Move::Play(p);
        self.stats = Some(SearchStats {
            chosen: mv,
            playouts: if fresh { u64::from(judged.playouts) } else { 0 },
            win_rate: judged.win_rate(color),
            visits: 0,
            pv: vec![mv],
            nodes: self.search.nodes(),
            reused_visits: 0,
            elapsed: start.elapsed(),
        });
        let board = self.game.board();
        self.kept = Some(Kept {
            color,
            moves: self.game.moves().len() + 1,
            hash: board.hash_after(color, board.index(p)),
            judged,
        });
        Some(mv)
    }
}

#[cfg(test)]
mod tests;
