//! # gravity4: a gravity Connect-4 strategy for the course judge
//!
//! A shared library exporting the course's C ABI (`getPoint`, `clearPoint`; see
//! `include/gravity4.h`) whose moves come from a Monte-Carlo tree search (UCT).
//!
//! Data flows one way, rules -> search -> session -> FFI, and no module reaches back up:
//!
//! - [`position`]: the rules on line bitboards, the Zobrist key ([`position::zobrist`]) and
//!   the centre-first column order; [`threats`]: both sides' winning cells, kept up to date
//!   move by move.
//! - [`search`]: what a search does ([`search::SearchConfig`]: [`SearchConfig::classic`] or
//!   the shipped default [`SearchConfig::strong`]), the node arena ([`search::tree`]),
//!   selection and backup ([`search::ucb`]), playouts and the policies they learn, the
//!   classic search ([`search::uct`]), the strong one ([`search::strong`], working in a
//!   [`search::strong::Workspace`]), the exact endgame solver ([`search::endgame`]) and a
//!   learned evaluation compiled in ([`search::ntuple`], off by default).
//! - [`request`]: one call's validated position, last move and start time, the only thing
//!   the strategies are handed.
//! - [`settings`]: the numbers that matter and the environment's overrides, read once per
//!   call.
//! - [`session`]: budget, tree reuse, the workspace kept between calls, telemetry.
//! - [`ffi`]: the outermost layer, raw judge arguments to a [`request::Request`] and back to
//!   a `Point`, never panicking across the boundary; its [`export_course_abi!`] defines the
//!   two symbols (here with the `abi` feature; the ladder invokes it for each rung).
//!
//! The environment variables: `GRAVITY4_MOVE_MS` (budget per move, default 2000),
//! `GRAVITY4_LOG=1` (one telemetry line per move on stderr), `GRAVITY4_PROFILE`,
//! `GRAVITY4_ENABLE`, `GRAVITY4_DISABLE`, `GRAVITY4_EXPLORATION`, `GRAVITY4_PPA_RATE`,
//! `GRAVITY4_MODEL_PRIOR`, `GRAVITY4_MODEL_DEPTH`, `GRAVITY4_ITERATIONS` and
//! `GRAVITY4_SEED` (`docs/settings.md` describes each). The layering is checked on the
//! source by `tests/layering.rs`.
//!
//! [`SearchConfig::classic`]: search::SearchConfig::classic
//! [`SearchConfig::strong`]: search::SearchConfig::strong

#![warn(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod ffi;
pub mod position;
pub mod request;
pub mod search;
pub mod session;
pub mod settings;
pub mod threats;

#[cfg(feature = "abi")]
mod exports {
    //! The two symbols the course judge looks up, answered by the session with the settings
    //! of the environment. Other crates that build a course library on top of this one (the
    //! ladder) disable the `abi` feature and invoke [`export_course_abi!`] with their own
    //! strategy.

    crate::export_course_abi!(|request: &crate::request::Request| {
        crate::session::choose(request, &crate::settings::Settings::from_env())
    });
}
