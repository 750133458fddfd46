//! Threat sequences: wins forced by a chain of threats, found by a small search.
//!
//! The attacker (the side to move) only plays moves that leave it an immediate win
//! ([`ThreatPosition::forcing_moves`]), so every defender reply is forced: block that cell
//! (a defender that can win at once instead breaks the chain). The chain wins when a move
//! leaves two threats, or one whose forced block uncovers another right above it. With one
//! candidate per defender ply, the tree is narrow and a dozen-move combination costs a
//! few dozen nodes. This is the tactic MCTS sees last: a playout finds a long forced line
//! only by luck, and the tree only once it is expanded move by move.
//!
//! A found sequence is a proof (every defence was tried), so the search can mark the node
//! solved. Not finding one proves nothing: the search is bounded in depth and nodes.

use crate::threats::{Tactics, ThreatPosition};

/// Attacker moves in one sequence at most (twice as many plies).
pub const MAX_DEPTH: u32 = 8;

/// Attacker moves tried per question at most, so an open middlegame with many threatening
/// moves costs a bounded amount.
pub const MAX_NODES: u32 = 48;

/// True iff the side to move in `pos` wins by force through a chain of threats (or at
/// once). `tactics` must be `pos.tactics()`, which the caller has already computed.
pub fn wins_by_threats(pos: &ThreatPosition, tactics: &Tactics) -> bool {
    let mut nodes = MAX_NODES;
    attack(pos, tactics, MAX_DEPTH, &mut nodes)
}

/// The attacker's turn: a win at once, or a forcing move whose forced reply leaves the
/// attacker a winning chain again, within `depth` moves and `nodes` tries.
fn attack(pos: &ThreatPosition, tactics: &Tactics, depth: u32, nodes: &mut u32) -> bool {
    if tactics.wins != 0 {
        return true;
    }
    if depth == 0 {
        return false;
    }
    // `candidates` is the one block when the defender threatens, nothing when it threatens
    // twice, and leaves out moves that hand the defender a win on top. The forcing ones
    // (`ThreatPosition::forcing_moves`) are found one at a time, lowest column first: a
    // search that succeeds or runs out of nodes does not test the rest.
    let candidates = tactics.candidates();
    let uncovering = tactics.spoils_own_threat & candidates;
    let mut moves = candidates;
    while moves != 0 {
        let col = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        if uncovering & 1 << col == 0 && !pos.threatens(col) {
            continue;
        }
        if *nodes == 0 {
            return false;
        }
        *nodes -= 1;
        // The copy is thrown away: its key need not follow.
        let mut next = pos.clone();
        next.play_without_key(col); // not a win: `tactics.wins` is empty
        let reply = next.tactics();
        if reply.wins != 0 {
            continue; // the defender wins first
        }
        let blocks = reply.candidates();
        if blocks == 0 {
            return true; // two cells to block, or the block uncovers a win on top
        }
        // One threat to block: the defender's only move that does not lose at once.
        next.play_without_key(blocks.trailing_zeros() as usize); // not a win: `reply.wins` is empty
        if attack(&next, &next.tactics(), depth - 1, nodes) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::search::endgame;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use std::time::{Duration, Instant};

    fn threat_position(
        rows: usize,
        cols: usize,
        blocked: (usize, usize),
        moves: &[usize],
    ) -> ThreatPosition {
        let mut pos = Position::new(rows, cols, blocked.0, blocked.1).unwrap();
        for &c in moves {
            assert!(!pos.play(c), "move {c} wins");
        }
        ThreatPosition::new(pos)
    }

    /// X to move on the bottom row `. X X . .` of a 6x7 board: either empty end makes
    /// an open three with two playable threats. The chain is one move long.
    #[test]
    fn finds_an_open_three() {
        // X: 1, 2; O: 1, 2 stacked on top (so O has nothing).
        let tp = threat_position(6, 7, (0, 6), &[1, 1, 2, 2]);
        assert!(wins_by_threats(&tp, &tp.tactics()));
    }

    /// Nothing on the empty board; on random boards, some chains need more than one
    /// forcing move (the depth-1 search misses them), so the recursion is exercised.
    #[test]
    fn finds_chains_longer_than_one_move_and_nothing_on_an_empty_board() {
        let empty = threat_position(6, 7, (0, 6), &[]);
        assert!(!wins_by_threats(&empty, &empty.tactics()));
        let mut rng = SmallRng::seed_from_u64(5);
        let mut deep = 0;
        for _ in 0..4000 {
            let mut pos =
                Position::new(6, 7, rng.random_range(0..6), rng.random_range(0..7)).unwrap();
            let plies = rng.random_range(6..20);
            let mut ok = true;
            for _ in 0..plies {
                let open: Vec<usize> = (0..7).filter(|&c| pos.can_play(c)).collect();
                if open.is_empty() || pos.play(open[rng.random_range(0..open.len())]) {
                    ok = false;
                    break;
                }
            }
            let tp = ThreatPosition::new(pos.clone());
            let t = tp.tactics();
            if !ok || t.wins != 0 || tp.forcing_moves(t.candidates()) == 0 {
                continue;
            }
            // Deeper than one move: no single forcing move wins outright.
            if wins_by_threats(&tp, &t) {
                let one = {
                    let mut n = MAX_NODES;
                    attack(&tp, &t, 1, &mut n)
                };
                deep += usize::from(!one);
            }
        }
        assert!(
            deep > 0,
            "no multi-move chain found in 4000 random positions"
        );
    }

    /// Every chain found is a real win: the exact solver agrees on random small boards.
    #[test]
    fn every_chain_found_is_a_solved_win() {
        let mut rng = SmallRng::seed_from_u64(9);
        let mut checked = 0;
        for _ in 0..3000 {
            let rows = rng.random_range(4..=6);
            let cols = rng.random_range(4..=7);
            let mut pos = Position::new(
                rows,
                cols,
                rng.random_range(0..rows),
                rng.random_range(0..cols),
            )
            .unwrap();
            let mut ok = true;
            while pos.empty_cells() > 16 {
                let open: Vec<usize> = (0..cols).filter(|&c| pos.can_play(c)).collect();
                if open.is_empty() || pos.play(open[rng.random_range(0..open.len())]) {
                    ok = false;
                    break;
                }
            }
            if !ok || pos.open_columns() == 0 {
                continue;
            }
            let tp = ThreatPosition::new(pos.clone());
            if !wins_by_threats(&tp, &tp.tactics()) {
                continue;
            }
            let deadline = Instant::now() + Duration::from_secs(10);
            let mut table = endgame::EndgameTable::for_board(&pos);
            let solve = endgame::solve_root(&pos, &mut table, deadline);
            assert!(solve.complete);
            let best = solve.values.iter().flatten().max().copied();
            assert_eq!(best, Some(1), "threat chain in a position not won\n{pos:?}");
            checked += 1;
        }
        assert!(checked > 50, "only {checked} chains checked");
    }
}
