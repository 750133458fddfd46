//! The engine behind a GMP game: [`GmpPlayer`] for [`Player`].
//!
//! GMP has no resignation: a player that resigned would end the session without a result
//! the other side can record, so `go-engine gmp` runs the search with resignation off and
//! plays every game out to two passes.

use super::session::{GmpConfig, GmpPlayer};
use crate::player::{Generate, Player, illegal_text};
use crate::point::{Color, Move};

impl GmpPlayer for Player {
    fn new_game(&mut self, config: &GmpConfig) {
        // The size was checked by the caller (GMP's 2..=22 is within ours).
        self.set_size(config.size);
        self.set_komi(config.komi);
        if config.handicap >= 2 {
            // GNU Go places GTP's fixed handicap points in GMP games too; a count the board
            // cannot hold leaves the board empty and the first move shows the disagreement.
            let _ = self.fixed_handicap(config.handicap);
        }
    }

    fn our_move(&mut self, color: Color) -> Move {
        self.genmove(color, Generate::Play)
    }

    fn their_move(&mut self, color: Color, mv: Move) -> Result<(), String> {
        let size = self.engine().game().size();
        self.play(color, mv).map_err(|e| illegal_text(e, size))
    }

    fn undo(&mut self, moves: usize) -> Result<(), String> {
        for _ in 0..moves {
            Player::undo(self).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}
