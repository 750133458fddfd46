//! Rung 1: a uniformly random legal move, the floor of the ladder.

use crate::{fresh_rng, open_columns};
use gravity4::position::Position;
use gravity4::request::Request;
use rand::Rng;
use rand::seq::IteratorRandom;

/// A uniformly random open column of `request.position`.
pub fn choose(request: &Request) -> usize {
    random_move(&request.position, &mut fresh_rng())
}

/// A uniformly random open column of `pos`. Panics if the board is full (a validated request
/// always has a move).
pub fn random_move(pos: &Position, rng: &mut impl Rng) -> usize {
    open_columns(pos)
        .choose(rng)
        .expect("a position to move in has an open column")
}
