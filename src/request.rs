//! What one call asks: a validated position, the opponent's last move and when the call began.
//!
//! It sits between the C boundary and the strategies: [`crate::ffi`] builds it from the
//! judge's raw arguments, and everything inward ([`crate::session`], the ladder's
//! strategies) reads it without knowing anything about pointers.

use crate::position::Position;
use std::time::Instant;

/// A validated request: the position plus what the judge said about the last move.
#[derive(Clone, Debug)]
pub struct Request {
    /// The position, the caller ("machine", value 2) to move as `Side::Us`.
    pub position: Position,
    /// The opponent's last move as `(row, col)`, if the judge gave one.
    pub last_move: Option<(usize, usize)>,
    /// When `getPoint` was entered: budgets count from here.
    pub entry: Instant,
}
