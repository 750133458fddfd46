//! Learned 3x3 weights in the playouts: the heavy policy's pattern step as a roulette over
//! the 8 points around the last move and "elsewhere" (the random step), each drawn with the
//! strength γ the playouts' local model gives it ([`crate::model::local`]). The model's
//! 3x3 keys are turned once into a table over the 16-bit neighbourhood codes of
//! [`super::patterns::code`], so a candidate's pattern strength is one lookup; its tactics
//! (capture, escape, self-atari) are read off the board's group bookkeeping.

use std::sync::{Arc, OnceLock};

use super::patterns;
use crate::board::{Board, EMPTY, stone};
use crate::model::local::{self, CODES, ELSEWHERE};
use crate::model::{Model, ModelError};
use crate::point::Color;

/// The playouts' strengths, as γ (not `ln γ`): a product of lookups per candidate.
#[derive(Debug)]
pub struct Gammas {
    /// γ of the 3x3 pattern by code, Black to move then White.
    pattern: Vec<f32>,
    /// γ of each value of the capture, escape and self-atari groups (value 0: 1).
    capture: [f32; 4],
    escape: [f32; 4],
    self_atari: [f32; 3],
    /// γ of an orthogonal and of a diagonal neighbour of the last move.
    distance: [f32; 2],
    /// γ of "elsewhere".
    elsewhere: f32,
}

impl Gammas {
    /// The table of a local model (`go-engine train --playout`).
    pub fn new(model: &Model) -> Gammas {
        let cells = patterns::CELLS.map(|(dr, dc)| (dc, dr));
        let pattern = local::pattern_values(model, &cells)
            .into_iter()
            .map(|v| model.weight(0, v).exp())
            .collect();
        let group = |g: usize, v: usize| model.weight(g, v as u16).exp();
        Gammas {
            pattern,
            capture: std::array::from_fn(|v| group(1, v)),
            escape: std::array::from_fn(|v| group(2, v)),
            self_atari: std::array::from_fn(|v| group(3, v)),
            distance: [group(5, 1), group(5, 2)],
            elsewhere: model.score(&ELSEWHERE).exp(),
        }
    }

    /// γ of "elsewhere".
    #[inline]
    pub fn elsewhere(&self) -> f32 {
        self.elsewhere
    }

    /// γ of `color` at the empty, legal point `i` next to the last move (`orthogonal` to
    /// it, or diagonal).
    #[inline]
    pub fn strength(&self, board: &Board, color: Color, i: usize, orthogonal: bool) -> f32 {
        let code = patterns::code(board, i);
        let mut gamma =
            self.pattern[color.index() * CODES + code] * self.distance[usize::from(!orthogonal)];
        let me = stone(color);
        let opp = stone(color.opponent());
        let (mut captured, mut saves, mut in_atari, mut empty) = (0, false, false, 0);
        for n in board.neighbors(i) {
            let c = board.at(n);
            if c == EMPTY {
                empty += 1;
            } else if c == opp && board.libs(n) == 1 {
                captured += board.group_size(n);
                saves |= touches_own_atari(board, n, me);
            } else if c == me && board.libs(n) == 1 {
                in_atari = true;
            }
        }
        if captured > 0 {
            gamma *= self.capture[if saves {
                3
            } else if captured >= 3 {
                2
            } else {
                1
            }];
            return gamma;
        }
        // Two empty neighbours are two liberties: no self-atari, and an escape's count
        // matters only when an own group is in atari.
        if empty >= 2 && !in_atari {
            return gamma;
        }
        let libs = board.libs_after(color, i, 3);
        if in_atari && libs >= 2 {
            gamma *= self.escape[if libs >= 3 { 2 } else { 1 }];
        }
        if libs <= 1 {
            gamma *= self.self_atari[if board.size_after(color, i) >= 3 {
                2
            } else {
                1
            }];
        }
        gamma
    }
}

/// True when the group of the enemy stone `s` (about to be captured) touches a group of
/// `me` in atari: the capture saves it (as the search model's feature reads it).
fn touches_own_atari(board: &Board, s: usize, me: u8) -> bool {
    board.group_stones(board.group(s)).any(|t| {
        board
            .neighbors(t)
            .iter()
            .any(|&n| board.at(n) == me && board.libs(n) == 1)
    })
}

/// The playouts' local model's file inside the binary, as a table, built once.
pub fn shipped() -> Result<Arc<Gammas>, ModelError> {
    static GAMMAS: OnceLock<Result<Arc<Gammas>, ModelError>> = OnceLock::new();
    GAMMAS
        .get_or_init(|| crate::model::shipped_playout().map(|m| Arc::new(Gammas::new(&m))))
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::features::Extractor;
    use crate::point::Point;

    #[test]
    fn the_table_agrees_with_the_model_on_the_board() {
        let gammas = shipped().expect("the shipped playout model loads");
        let model = crate::model::shipped_playout().unwrap();
        let extractor: &Extractor = model.extractor();
        let mut b = Board::new(9).unwrap();
        for (c, x, y) in [
            (Color::Black, 2, 2),
            (Color::White, 3, 2),
            (Color::Black, 3, 3),
            (Color::White, 4, 3),
            (Color::Black, 2, 3),
            (Color::White, 0, 0),
        ] {
            let i = b.index(Point::new(x, y));
            b.play(c, i);
        }
        let last = b.index(Point::new(2, 3));
        let near = local::around(&b, last);
        for (k, &i) in near.iter().enumerate() {
            if b.at(i) != EMPTY || !b.is_legal(Color::White, i) {
                continue;
            }
            let f =
                local::local_features(extractor.features(&b, Color::White, i, [Some(last), None]));
            let expected = model.score(&f).exp();
            let got = gammas.strength(&b, Color::White, i, k < 4);
            assert!(
                (got / expected - 1.0).abs() < 1e-3,
                "point {i}: {got} against {expected}"
            );
        }
    }
}
