//! Last-good-reply with forgetting, LGRF-1 (Baier and Drake 2010, "The Power of Forgetting:
//! Improving the Last-Good-Reply Policy in Monte Carlo Go"): for each colour and each move of
//! the opponent, the reply that colour last played to it in a playout it won. After every
//! playout the winner's replies are stored and the loser's replies are forgotten where they
//! are the stored ones, so that a reply that stops working leaves the table at once.
//!
//! The heavy policy tries the stored reply to the last move after its captures and escapes
//! and before its patterns. The tables belong to one search thread (its policy scratch),
//! are sized once for the board and learn from every move of an iteration, tree and
//! playout alike, as the paper does.

use super::tree::PASS;
use crate::point::Color;

/// No reply stored.
const NONE: u16 = u16::MAX;

/// The reply tables of both colours, indexed by the board's array index of the opponent's
/// move.
#[derive(Clone, Debug, Default)]
pub struct Replies {
    /// `table[colour][previous]`: `colour`'s stored reply to `previous`, or [`NONE`].
    table: [Vec<u16>; 2],
}

impl Replies {
    /// Empty tables for a board of `len` array points.
    pub fn new(len: usize) -> Replies {
        Replies {
            table: [vec![NONE; len], vec![NONE; len]],
        }
    }

    /// `color`'s stored reply to the opponent's move at `previous`, if any.
    #[inline]
    pub fn reply(&self, color: Color, previous: usize) -> Option<usize> {
        let r = *self.table[color.index()].get(previous)?;
        (r != NONE).then_some(usize::from(r))
    }

    /// Learns from one iteration's `moves` (in order, with their colours) that `winner` won:
    /// its replies are stored, the loser's stored replies that it played are forgotten.
    /// Replies to a pass and passes as replies are neither stored nor forgotten.
    pub fn learn(&mut self, moves: &[(u16, Color)], winner: Color) {
        if self.table[0].is_empty() {
            return;
        }
        for pair in moves.windows(2) {
            let ((previous, _), (reply, color)) = (pair[0], pair[1]);
            if previous == PASS || reply == PASS {
                continue;
            }
            let slot = &mut self.table[color.index()][usize::from(previous)];
            if color == winner {
                *slot = reply;
            } else if *slot == reply {
                *slot = NONE;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winner_stores_and_the_loser_forgets() {
        let mut r = Replies::new(50);
        let (b, w) = (Color::Black, Color::White);
        r.learn(&[(10, b), (11, w), (12, b), (13, w)], b);
        // Black won: its reply 12 to White's 11 is stored; White's replies are not.
        assert_eq!(r.reply(b, 11), Some(12));
        assert_eq!(r.reply(w, 10), None);
        assert_eq!(r.reply(w, 12), None);
        // White wins with the same replies: they are stored, and Black, the loser now,
        // forgets its reply 12 to 11.
        r.learn(&[(10, b), (11, w), (12, b), (13, w)], w);
        assert_eq!(r.reply(w, 10), Some(11));
        assert_eq!(r.reply(w, 12), Some(13));
        assert_eq!(r.reply(b, 11), None);
        // A loser's other reply leaves the stored one alone.
        r.learn(&[(12, b), (14, w)], b);
        assert_eq!(r.reply(w, 12), Some(13));
    }

    #[test]
    fn passes_are_skipped_and_empty_tables_learn_nothing() {
        let mut r = Replies::new(50);
        r.learn(&[(PASS, Color::Black), (11, Color::White)], Color::White);
        assert_eq!(r.reply(Color::White, usize::from(PASS)), None);
        let mut none = Replies::default();
        none.learn(&[(10, Color::Black), (11, Color::White)], Color::White);
        assert_eq!(none.reply(Color::White, 10), None);
    }
}
