//! # gravity4: a gravity Connect-4 strategy for the course judge
//!
//! A shared library exporting the course's C ABI (`getPoint`, `clearPoint`; see
//! `include/gravity4.h`) whose moves come from a Monte-Carlo tree search (UCT).
//!
//! Data flows one way: [`position`] (the rules on line bitboards) -> [`search`] (UCT over
//! positions) -> [`session`] (budget, telemetry, what survives between calls) -> [`ffi`] (raw
//! judge arguments to a validated position and back to a `Point`, never panicking across the
//! boundary). [`settings`] holds the tunable numbers and their environment overrides.
//!
//! Environment: `GRAVITY4_MOVE_MS` (budget per move, default 2000), `GRAVITY4_LOG=1` (one
//! telemetry line per move on stderr).

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
