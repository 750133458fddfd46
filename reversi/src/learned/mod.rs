//! The learned evaluation's training: labelled positions from self-play ([`data`]) and the
//! least-squares fit of the pattern tables ([`fit`]) that [`crate::search::patterns`] reads,
//! and the fit of Multi-ProbCut's table ([`mpc`]) on the engine's searches of that data.
//! Nothing here runs in play or in CI's build: the tables ship in the binary.

pub mod data;
pub mod fit;
pub mod mpc;
