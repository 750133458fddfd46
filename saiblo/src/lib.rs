//! The gravity4 engine as a program for the Saiblo platform: the reader of the platform's
//! messages and the game it keeps, as a library so that the fuzz target (fuzz/harness)
//! drives the same code as `gravity4-saiblo` (src/main.rs: arguments, and stdin/stdout).
//! The protocol is described in [`program`].

pub mod game;
pub mod input;
pub mod program;
