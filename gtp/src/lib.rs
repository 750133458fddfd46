//! The wire layer of GTP, the Go Text Protocol version 2 (Gunnar Farnebäck's specification,
//! draft 2, <https://www.lysator.liu.se/~gunnar/gtp/gtp2-spec-draft2/gtp2-spec.html>), as
//! both sides of the protocol use it: the engines (`go-engine gtp`, `reversi gtp`) read
//! commands and write responses, the judge writes commands and reads responses.
//!
//! - [`command`]: section 3.1's preprocessing, then section 2.1's command structure
//!   (`[id] command_name [arguments]`), from raw bytes: nothing a controller sends can make
//!   it panic, and bytes that are not UTF-8 are an error to answer, not a crash.
//! - [`response`]: section 2.2's response structure (`=[id] result` or
//!   `?[id] error_message`, ended by an empty line), written by an engine and read by a
//!   controller.
//! - [`entity`]: section 2.5's simple entities: vertex (`A1`..`Z25` without `I`, any case,
//!   or `pass`), colour (`b`, `w`, `black`, `white`, any case), move, int and float. A
//!   vertex keeps the row number as written: which edge row 1 lies on is the game's (the
//!   bottom in Go, the top in Othello).
//! - [`session`]: the engine side's loop ([`serve`]), one response per command, flushed.
//!
//! What the commands mean is the game's: this crate knows no board.

pub mod command;
pub mod entity;
pub mod response;
pub mod session;

pub use command::{Command, CommandReader, GtpError, MAX_LINE, parse_command, preprocess};
pub use entity::{
    Color, MAX_SIZE, Move, Vertex, column_letter, parse_color, parse_float, parse_int, parse_move,
    parse_vertex,
};
pub use response::{Reply, format_error, format_response, read_reply, reply_head};
pub use session::serve;
