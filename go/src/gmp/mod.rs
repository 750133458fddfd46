//! GMP, the Go Modem Protocol: the packet codec ([`packet`]) and a driver that plays a whole
//! game over a byte stream pair against GNU Go's `--mode gmp` ([`session`]), calling into a
//! [`GmpPlayer`] for our moves and the other side's; the engine is one ([`player`]).

pub mod packet;
pub mod player;
pub mod session;

pub use packet::{Command, Decoder, Packet, Query, decode_move, encode_move};
pub use session::{GmpConfig, GmpError, GmpOutcome, GmpPlayer, Rules, play_game};
