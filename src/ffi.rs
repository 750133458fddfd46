//! The course's C ABI: raw arguments in, a heap [`Point`] out.
//!
//! This is the outermost layer and the only module that touches raw pointers. It turns the
//! judge's arguments into a validated [`Request`] and hands it to a strategy; whatever
//! happens (bad input, a panic, a strategy answering nonsense) the caller gets a legal move
//! whenever one exists, and NULL with one line on stderr only when none can be determined.
//!
//! The two exported symbols are written once, in [`export_course_abi!`](crate::export_course_abi):
//! the library exports them with its own strategy (feature `abi`), each ladder rung with its
//! rung's. `build.rs` reads their signatures from that macro for `include/gravity4.h`.

use crate::position::{MAX_SIZE, MIN_SIZE, Position, centre_first};
use crate::request::Request;
use std::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

/// A cell of the board: `x` is the row (0 = top), `y` the column. Layout-compatible with the
/// course's `class Point { public: int x, y; }`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    /// Row, 0 = top.
    pub x: c_int,
    /// Column, 0 = left.
    pub y: c_int,
}

/// The arguments of `getPoint`, exactly as the judge passed them.
#[derive(Clone, Copy, Debug)]
pub struct RawArgs {
    /// Rows (`M`).
    pub rows: c_int,
    /// Columns (`N`).
    pub cols: c_int,
    /// `top[N]`, owned by the judge.
    pub top: *const c_int,
    /// `_board[M * N]`, owned by the judge.
    pub board: *const c_int,
    /// The opponent's last move (row), -1 at the start.
    pub last_row: c_int,
    /// The opponent's last move (column), -1 at the start.
    pub last_col: c_int,
    /// Blocked cell row.
    pub blocked_row: c_int,
    /// Blocked cell column.
    pub blocked_col: c_int,
}

/// Answers one `getPoint` call with `strategy`, which returns a column.
///
/// Never panics and never unwinds into the caller. Returns a heap `Point` for
/// [`free_point`], or NULL (with a line on stderr) when no legal move can be determined.
///
/// # Safety
/// `args.top` must be NULL or point to `args.cols` readable ints, and `args.board` NULL or
/// to `args.rows * args.cols` readable ints, whenever `rows` and `cols` are within
/// `4..=12` (outside that range nothing is read).
pub unsafe fn answer(args: RawArgs, strategy: impl FnOnce(&Request) -> usize) -> *mut Point {
    let entry = Instant::now();
    // SAFETY: forwarded from this function's contract.
    let outcome = catch_unwind(AssertUnwindSafe(|| unsafe {
        decide(args, entry, strategy)
    }));
    let point = match outcome {
        Ok(Ok(point)) => point,
        Ok(Err(message)) => {
            eprintln!("gravity4: {message}");
            return std::ptr::null_mut();
        }
        Err(_) => {
            // The panic message went to stderr already; fall back to any legal move.
            // SAFETY: as above; `fallback` reads only `top`.
            match catch_unwind(|| unsafe { legal_points(args) }) {
                Ok(Ok(legal)) => fallback(args, &legal),
                _ => {
                    eprintln!("gravity4: internal error and no legal move could be determined");
                    return std::ptr::null_mut();
                }
            }
        }
    };
    Box::into_raw(Box::new(point))
}

/// Frees a `Point` returned by [`answer`]. NULL is ignored.
///
/// # Safety
/// `point` must be NULL or a pointer returned by [`answer`] and not freed yet.
pub unsafe fn free_point(point: *mut Point) {
    if !point.is_null() {
        // SAFETY: the pointer came from `Box::into_raw` in `answer` and is freed only once.
        drop(unsafe { Box::from_raw(point) });
    }
}

/// Validates the arguments and asks the strategy; falls back to a legal move when the
/// board is not a valid position but `top` still says which moves the judge accepts.
unsafe fn decide(
    args: RawArgs,
    entry: Instant,
    strategy: impl FnOnce(&Request) -> usize,
) -> Result<Point, String> {
    // SAFETY: forwarded from `answer`'s contract.
    let legal = unsafe { legal_points(args) }?;
    if args.board.is_null() {
        eprintln!("gravity4: board pointer is NULL; playing a legal move from `top` alone");
        return Ok(fallback(args, &legal));
    }
    let (rows, cols) = (args.rows as usize, args.cols as usize);
    // SAFETY: non-null and, by contract, `rows * cols` ints long; sizes were range-checked.
    let board = unsafe { std::slice::from_raw_parts(args.board, rows * cols) };
    // SAFETY: `legal_points` checked `top` is non-null and the sizes are in range.
    let top = unsafe { std::slice::from_raw_parts(args.top, cols) };
    let position = match Position::from_course(
        i64::from(args.rows),
        i64::from(args.cols),
        top,
        board,
        i64::from(args.blocked_row),
        i64::from(args.blocked_col),
    ) {
        Ok(position) => position,
        Err(error) => {
            eprintln!("gravity4: invalid position ({error}); playing a legal move from `top`");
            return Ok(fallback(args, &legal));
        }
    };
    let last_move = (args.last_row >= 0 && args.last_col >= 0)
        .then_some((args.last_row as usize, args.last_col as usize));
    let request = Request {
        position,
        last_move,
        entry,
    };
    let col = strategy(&request);
    match legal.iter().find(|p| p.y as usize == col) {
        Some(&point) => Ok(point),
        None => {
            eprintln!("gravity4: strategy chose illegal column {col}; playing a legal move");
            Ok(fallback(args, &legal))
        }
    }
}

/// The moves the judge accepts: `(top[y] - 1, y)` with `1 <= top[y] <= M`, not the blocked cell.
unsafe fn legal_points(args: RawArgs) -> Result<Vec<Point>, String> {
    let size_ok = |v: c_int| (MIN_SIZE as c_int..=MAX_SIZE as c_int).contains(&v);
    if !size_ok(args.rows) || !size_ok(args.cols) {
        return Err(format!(
            "board size M={} N={} is outside {MIN_SIZE}..={MAX_SIZE}; no move can be read safely",
            args.rows, args.cols
        ));
    }
    if args.top.is_null() {
        return Err("top pointer is NULL; no legal move can be determined".into());
    }
    // SAFETY: non-null and, by contract, `cols` ints long (cols was range-checked above).
    let top = unsafe { std::slice::from_raw_parts(args.top, args.cols as usize) };
    // `top[y] - 1` in i64: a garbage `top` such as i32::MIN must not overflow.
    let legal: Vec<Point> = top
        .iter()
        .zip(0..)
        .filter(|&(&t, y)| {
            let x = i64::from(t) - 1;
            (0..i64::from(args.rows)).contains(&x)
                && (x, i64::from(y)) != (i64::from(args.blocked_row), i64::from(args.blocked_col))
        })
        .map(|(&t, y)| Point { x: t - 1, y })
        .collect();
    if legal.is_empty() {
        return Err(if top.iter().all(|&t| t == 0) {
            format!("no legal move: every column is full (top = {top:?})")
        } else {
            format!(
                "no legal move can be determined: no column has 1 <= top[y] <= M={} off the \
                 blocked cell ({}, {}) (top = {top:?})",
                args.rows, args.blocked_row, args.blocked_col
            )
        });
    }
    Ok(legal)
}

/// The legal move nearest the centre column: a safe answer when the board cannot be trusted.
fn fallback(args: RawArgs, legal: &[Point]) -> Point {
    centre_first(args.cols as usize)
        .into_iter()
        .find_map(|col| legal.iter().find(|p| p.y == c_int::from(col)))
        .copied()
        .expect("legal moves are never empty")
}

/// Exports the course's `getPoint` and `clearPoint`, answering with `$strategy` (anything
/// [`answer`] takes: a `fn(&Request) -> usize` or a closure).
///
/// The one definition of the C ABI's symbols: the library invokes it with its session
/// (feature `abi`) and every ladder rung with its own strategy, so validation, panic catching
/// and the fallback move are the same everywhere. Invoke it once per shared library.
///
/// `build.rs` hands cbindgen the text between the `cbindgen:` markers below (with `$crate`
/// read as `crate`), since cbindgen cannot expand macros; keep the markers around the two
/// functions.
#[macro_export]
macro_rules! export_course_abi {
    ($strategy:expr) => {
        // cbindgen: begin
        /// Returns this library's move for the position the judge describes, as a heap `Point`
        /// to be released with `clearPoint`, or NULL (with a line on stderr) if no legal move
        /// exists or none can be determined from the arguments.
        ///
        /// # Safety
        /// `top` must point to `N` ints and `_board` to `M * N` ints (or be NULL), as the course
        /// judge passes them.
        #[allow(non_snake_case)]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn getPoint(
            M: ::std::ffi::c_int,
            N: ::std::ffi::c_int,
            top: *const ::std::ffi::c_int,
            _board: *const ::std::ffi::c_int,
            lastX: ::std::ffi::c_int,
            lastY: ::std::ffi::c_int,
            noX: ::std::ffi::c_int,
            noY: ::std::ffi::c_int,
        ) -> *mut $crate::ffi::Point {
            let args = $crate::ffi::RawArgs {
                rows: M,
                cols: N,
                top,
                board: _board,
                last_row: lastX,
                last_col: lastY,
                blocked_row: noX,
                blocked_col: noY,
            };
            // Bound outside the unsafe block, so the caller's expression gets no unsafe scope.
            let strategy = $strategy;
            // SAFETY: the caller upholds `answer`'s contract, which is this function's.
            unsafe { $crate::ffi::answer(args, strategy) }
        }

        /// Frees a `Point` returned by `getPoint`. NULL is ignored.
        ///
        /// # Safety
        /// `p` must be NULL or come from `getPoint` and not have been freed.
        #[allow(non_snake_case)]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn clearPoint(p: *mut $crate::ffi::Point) {
            // SAFETY: the caller upholds `free_point`'s contract, which is this function's.
            unsafe { $crate::ffi::free_point(p) }
        }
        // cbindgen: end
    };
}
