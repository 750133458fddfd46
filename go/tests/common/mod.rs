//! What the Go engine's integration tests share beyond `testkit` (GNU Go's place and the rule
//! for its absence, the GTP controller): the engine under test.

/// The engine under test.
pub const ENGINE: &str = env!("CARGO_BIN_EXE_go-engine");
