//! Builds the release cdylib once and loads it as the course judge does: `getPoint` on a new
//! thread every move, each side its own board view, every returned point freed with
//! `clearPoint`, the library never unloaded.

use super::referee::{Board, FIRST, SECOND};
use libloading::Library;
use std::ffi::c_int;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The course's `Point`: two C ints.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CPoint {
    /// Row.
    pub x: c_int,
    /// Column.
    pub y: c_int,
}

/// `getPoint(M, N, top, _board, lastX, lastY, noX, noY)`.
pub type GetPoint = unsafe extern "C" fn(
    c_int,
    c_int,
    *const c_int,
    *const c_int,
    c_int,
    c_int,
    c_int,
    c_int,
) -> *mut CPoint;
/// `clearPoint(p)`.
pub type ClearPoint = unsafe extern "C" fn(*mut CPoint);

/// Budget for in-process games: short, so a whole suite of games stays fast on two cores.
pub const TEST_MOVE_MS: &str = "15";

/// The manifest directory of the library crate.
pub fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The cargo target directory this test binary was built into (`<target>/<profile>/deps/`).
pub fn target_dir() -> PathBuf {
    testkit::build::target_dir()
}

/// Directory holding the release build of the library (`libgravity4.so`).
pub fn release_dir() -> PathBuf {
    target_dir().join("release")
}

/// Tells a child process where the parent's freshly built library is, so children neither
/// rebuild nor wait for cargo's lock.
pub const LIB_PATH_ENV: &str = "GRAVITY4_TEST_LIB";

/// Builds the release cdylib (once per test process) and returns its path.
pub fn cdylib_path() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        if let Some(path) = std::env::var_os(LIB_PATH_ENV) {
            return PathBuf::from(path);
        }
        testkit::build::release_library(&target_dir())
    })
}

/// The loaded library and its two symbols.
pub struct Lib {
    get: GetPoint,
    clear: ClearPoint,
}

/// The library, built and loaded once per process and never unloaded (like the judge).
///
/// In a normal test process this first clears every `GRAVITY4_*` setting (so the defaults
/// apply) and sets a short `GRAVITY4_MOVE_MS`; a child from `run_child` keeps the
/// environment its parent chose.
pub fn lib() -> &'static Lib {
    static LIB: OnceLock<Lib> = OnceLock::new();
    LIB.get_or_init(|| {
        if !super::is_child() {
            // SAFETY: every test of this binary reaches the library only through this
            // initialiser, which blocks them until it returns, so nothing reads the
            // environment from another thread while it changes.
            unsafe {
                for key in super::library_env_vars() {
                    std::env::remove_var(key);
                }
                std::env::set_var("GRAVITY4_MOVE_MS", TEST_MOVE_MS);
            }
        }
        let path = cdylib_path();
        // SAFETY: loading our own library, whose initialisers do nothing unusual.
        let library = unsafe { Library::new(path) }.expect("dlopen libgravity4");
        // SAFETY: the symbols have exactly these C signatures (see include/gravity4.h).
        let (get, clear) = unsafe {
            (
                *library.get::<GetPoint>(b"getPoint\0").expect("getPoint"),
                *library
                    .get::<ClearPoint>(b"clearPoint\0")
                    .expect("clearPoint"),
            )
        };
        // The judge never closes a library; the symbols must stay valid for the process.
        std::mem::forget(library);
        Lib { get, clear }
    })
}

impl Lib {
    /// Calls `getPoint` on the current thread with raw arguments; frees the result.
    ///
    /// # Safety
    /// The pointers must satisfy `getPoint`'s contract for the given sizes (or be the bad
    /// input a test deliberately passes, which the library promises to survive).
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn call_raw(
        &self,
        m: i32,
        n: i32,
        top: *const c_int,
        board: *const c_int,
        last: (i32, i32),
        no: (i32, i32),
    ) -> Option<CPoint> {
        // SAFETY: forwarded from this function's contract.
        let p = unsafe { (self.get)(m, n, top, board, last.0, last.1, no.0, no.1) };
        if p.is_null() {
            return None;
        }
        // SAFETY: a non-null result points to a Point the library allocated.
        let point = unsafe { *p };
        // SAFETY: freed once, through the library's own deallocator.
        unsafe { (self.clear)(p) };
        Some(point)
    }

    /// Calls `getPoint` on well-formed arrays.
    pub fn call(
        &self,
        m: usize,
        n: usize,
        top: &[i32],
        board: &[i32],
        last: (i32, i32),
        no: (usize, usize),
    ) -> Option<CPoint> {
        assert_eq!(top.len(), n);
        assert_eq!(board.len(), m * n);
        // SAFETY: the slices have the lengths the contract asks for.
        unsafe {
            self.call_raw(
                m as i32,
                n as i32,
                top.as_ptr(),
                board.as_ptr(),
                last,
                (no.0 as i32, no.1 as i32),
            )
        }
    }

    /// The judge's call: a NEW thread for one `getPoint`, timed from thread creation.
    pub fn call_on_new_thread(&'static self, board: &Board) -> (Option<CPoint>, Duration) {
        let (m, n, no) = (board.m, board.n, (board.no_x, board.no_y));
        let top = board.top.clone();
        let view = board.view(board.to_move());
        let last = board.last();
        let start = Instant::now();
        let point = std::thread::spawn(move || self.call(m, n, &top, &view, last, no))
            .join()
            .expect("getPoint must not unwind into the caller");
        (point, start.elapsed())
    }
}

/// Who plays one side of a game.
#[derive(Clone, Debug)]
pub enum Mover {
    /// The loaded library (both sides may be the same instance: self-play).
    Library,
    /// Uniformly random legal moves from a seed.
    Random(u64),
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This player id ([`FIRST`] or [`SECOND`]) made four in a row.
    Win(i32),
    /// Full board.
    Tie,
}

/// A finished game with the library's slowest move.
#[derive(Debug)]
pub struct Game {
    /// How it ended.
    pub outcome: Outcome,
    /// The final board.
    pub board: Board,
    /// The library's longest call, thread creation included.
    pub slowest: Duration,
}

/// Plays one game under the course rules; panics (with the board) on any illegal or NULL
/// answer from the library while a legal move exists.
pub fn play_game(m: usize, n: usize, no: (usize, usize), movers: [Mover; 2]) -> Game {
    let lib = lib();
    let mut board = Board::new(m, n, no.0, no.1);
    let mut rngs = movers.clone().map(|mv| match mv {
        Mover::Random(seed) => super::Rng::new(seed),
        Mover::Library => super::Rng::new(0),
    });
    let mut slowest = Duration::ZERO;
    loop {
        let side = board.to_move();
        let idx = (side - 1) as usize;
        let col = match movers[idx] {
            Mover::Library => {
                let (point, elapsed) = lib.call_on_new_thread(&board);
                slowest = slowest.max(elapsed);
                let p = point.unwrap_or_else(|| {
                    panic!("getPoint returned NULL with legal moves left\n{board:?}")
                });
                assert!(
                    board.is_legal(p.x, p.y),
                    "illegal move ({}, {}) by player {side}\n{board:?}",
                    p.x,
                    p.y
                );
                p.y as usize
            }
            Mover::Random(_) => {
                let legal = board.legal_cols();
                legal[rngs[idx].below(legal.len())]
            }
        };
        board.play(col);
        if let Some(winner) = board.winner() {
            assert_eq!(winner, side, "only the mover can complete a four");
            return Game {
                outcome: Outcome::Win(winner),
                board,
                slowest,
            };
        }
        if board.is_full() {
            return Game {
                outcome: Outcome::Tie,
                board,
                slowest,
            };
        }
    }
}

/// Runs `jobs` on `workers` threads and returns their results in order. The library's moves
/// are bounded by wall time, not CPU, so a few games at once finish sooner even on two cores.
pub fn parallel<T: Send, R: Send>(
    jobs: Vec<T>,
    workers: usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    use std::sync::Mutex;
    let queue = Mutex::new(jobs.into_iter().enumerate().collect::<Vec<_>>());
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let job = queue.lock().unwrap().pop();
                    let Some((i, job)) = job else { break };
                    let r = f(job);
                    results.lock().unwrap().push((i, r));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// The player ids, for callers that index by side.
pub const PLAYERS: [i32; 2] = [FIRST, SECOND];
