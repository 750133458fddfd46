//! The end of the game as the engine sees it: who owns each point at the end of status
//! playouts, which stones are dead, and the score without them.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::Engine;
use crate::point::{Color, Point};
use crate::search::playout::{self, Policy, Scratch};

impl Engine {
    /// How many of `playouts` playouts from the current position (side to move first) ended
    /// with each point owned by Black and by White, indexed by the board's array index
    /// ([`Board::index`](crate::board::Board::index)).
    pub fn ownership(&mut self, playouts: u32) -> Vec<[u32; 2]> {
        self.ownership_and_wins(playouts).0
    }

    /// [`Engine::ownership`], and how many of the playouts each colour won (Black, White;
    /// komi counted, a jigo nobody's): the win rate a cleanup move reports.
    pub(super) fn ownership_and_wins(&mut self, playouts: u32) -> (Vec<[u32; 2]>, [u32; 2]) {
        let board = self.game.board();
        let komi = self.game.komi();
        let mut counts = vec![[0u32; 2]; board.len()];
        let mut wins = [0u32; 2];
        let mut scratch_board = board.clone();
        let mut scratch = Scratch::default();
        let mut rng = SmallRng::seed_from_u64(self.rng.random());
        for _ in 0..playouts {
            scratch_board.copy_from(board);
            // From no passes: after a game that ended in two passes the playouts must still
            // be played out, or nothing would ever be found dead.
            let score = playout::playout(
                &mut scratch_board,
                self.game.to_move(),
                0,
                Policy::Heavy,
                &mut rng,
                &mut scratch,
                |_, _| {},
            );
            let margin = f64::from(score) - komi;
            if margin != 0.0 {
                wins[usize::from(margin < 0.0)] += 1;
            }
            for i in board.points() {
                if let Some(c) = scratch_board.playout_owner(i) {
                    counts[i][c.index()] += 1;
                }
            }
        }
        (counts, wins)
    }

    /// The dead stones (GTP `final_status_list dead`): stones the opponent owns at the end of
    /// most of [`Config::score_playouts`](crate::search::Config::score_playouts) playouts from the current position, row by row.
    pub fn dead_stones(&mut self) -> Vec<Point> {
        self.dead_stones_by(self.config().score_playouts)
    }

    /// [`Engine::dead_stones`] from `playouts` playouts.
    pub(super) fn dead_stones_by(&mut self, playouts: u32) -> Vec<Point> {
        let counts = self.ownership(playouts);
        let board = self.game.board();
        board
            .points()
            .filter(|&i| {
                crate::board::stone_color(board.at(i))
                    .is_some_and(|c| 2 * counts[i][c.opponent().index()] > playouts)
            })
            .map(|i| board.point(i))
            .collect()
    }

    /// True when `color` has stones that `playouts` status playouts call dead.
    pub(super) fn has_dead_stones(&mut self, color: Color, playouts: u32) -> bool {
        self.dead_stones_by(playouts)
            .iter()
            .any(|&p| self.game.board().stone_at(p) == Some(color))
    }

    /// The score with the dead stones removed (GTP `final_score`): Black's area minus White's
    /// minus komi, Tromp-Taylor on the board without [`Engine::dead_stones`].
    pub fn final_score(&mut self) -> f64 {
        let dead = self.dead_stones();
        let board = self.game.board();
        let mut is_dead = vec![false; board.len()];
        for p in dead {
            is_dead[board.index(p)] = true;
        }
        let [b, w] = board.area_without(&is_dead);
        b as f64 - w as f64 - self.game.komi()
    }
}
