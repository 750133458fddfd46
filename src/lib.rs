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
pub mod search;
pub mod session;
pub mod settings;
pub mod threats;

#[cfg(feature = "abi")]
mod exports {
    //! The two symbols the course judge looks up. Other crates that build a course library on
    //! top of this one disable the `abi` feature and export their own.
    #![allow(non_snake_case)]

    use crate::ffi::{Point, RawArgs, answer, free_point};
    use crate::session;
    use crate::settings::Settings;
    use std::ffi::c_int;

    /// Returns this library's move for the position the judge describes, as a heap `Point`
    /// to be released with `clearPoint`, or NULL (with a line on stderr) if no legal move
    /// exists or none can be determined from the arguments.
    ///
    /// # Safety
    /// `top` must point to `N` ints and `_board` to `M * N` ints (or be NULL), as the course
    /// judge passes them.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn getPoint(
        M: c_int,
        N: c_int,
        top: *const c_int,
        _board: *const c_int,
        lastX: c_int,
        lastY: c_int,
        noX: c_int,
        noY: c_int,
    ) -> *mut Point {
        let args = RawArgs {
            rows: M,
            cols: N,
            top,
            board: _board,
            last_row: lastX,
            last_col: lastY,
            blocked_row: noX,
            blocked_col: noY,
        };
        // SAFETY: the caller upholds `answer`'s contract, which is this function's.
        unsafe {
            answer(args, |request| {
                session::choose(request, &Settings::from_env())
            })
        }
    }

    /// Frees a `Point` returned by `getPoint`. NULL is ignored.
    ///
    /// # Safety
    /// `p` must be NULL or come from `getPoint` and not have been freed.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn clearPoint(p: *mut Point) {
        // SAFETY: the caller upholds `free_point`'s contract, which is this function's.
        unsafe { free_point(p) }
    }
}
