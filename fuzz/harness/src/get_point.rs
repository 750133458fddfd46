//! `getPoint` through the library's C ABI with arbitrary arguments.
//!
//! The promise (docs/ABI.md, `src/ffi.rs`): for sizes `M`, `N` in 4..=12 and a non-NULL
//! `top`, a heap point that is a legal move as the course judge judges it (`0 <= y < N`,
//! `x == top[y] - 1` with `1 <= top[y] <= M`, `(x, y) != (noX, noY)`) whenever one exists,
//! and NULL exactly when none does; for other sizes or a NULL `top`, NULL without reading
//! anything; never a panic, not even one caught at the boundary. The answer is freed with
//! the library's own `clearPoint` code.
//!
//! Inputs are built from the bytes in a structured way, so mutations reach deep: most are
//! positions of a real game (sizes 4..=12, the blocked cell anywhere, moves dropped in
//! columns the bytes pick, until a win or the bytes run out) seen from the side to move;
//! some of those then get a few values corrupted (a `top`, a cell, the last move, the
//! blocked cell, a NULL pointer, the colours swapped); a few have wild sizes and short
//! arrays, where reading anything would be out of bounds (which AddressSanitizer reports).
//!
//! An input that starts with the byte 0 is the explicit form instead ([`Call::encode`]),
//! in which the seeds are written: the cases of `tests/bad_input.rs` and positions of
//! recorded games.
//!
//! Every input starts from a fresh session ([`gravity4::session::reset`]) and searches a
//! fixed number of iterations with a fixed seed, not a clock, so a crash reproduces. The
//! call goes through the boundary code the exported `getPoint` runs ([`answer`]) with the
//! exported strategy ([`session::choose`]) given those settings directly rather than
//! through `GRAVITY4_ITERATIONS` and `GRAVITY4_SEED`: nothing sets the environment (which
//! is `unsafe` while other threads may read it, as the replay tests' threads may), and no
//! stray `GRAVITY4_*` variable of the fuzzer's environment changes what is fuzzed.

use arbitrary::Unstructured;
use gravity4::ffi::{Point, RawArgs, answer, free_point};
use gravity4::search::SearchConfig;
use gravity4::session;
use gravity4::settings::Settings;
use gravity4_judge::games::connect4::{BoardSpec, Connect4, Position};
use gravity4_judge::games::{Game as _, Termination};

use crate::panics;

/// Search iterations per call: enough for the tree, the endgame solver and the playouts to
/// run, few enough for thousands of calls a second.
pub const ITERATIONS: u64 = 48;
/// The search's seed.
pub const SEED: u64 = 38;
/// The tree's memory cap: ample for [`ITERATIONS`]. The library reserves its whole cap
/// (256 MiB by default) up front, which costs nothing natively but makes AddressSanitizer
/// poison 32 MiB of shadow memory at every allocation and free.
pub const TREE_BYTES: usize = 1 << 20;
/// A memory cap the tree outgrows within [`ITERATIONS`].
pub const SMALL_TREE_BYTES: usize = 2 << 10;

/// The arguments of one `getPoint` call (and which search answers it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// `M`.
    pub m: i32,
    /// `N`.
    pub n: i32,
    /// `top`, or NULL. Exactly `N` long when both sizes are in 4..=12.
    pub top: Option<Vec<i32>>,
    /// `_board`, or NULL. Exactly `M * N` long when both sizes are in 4..=12.
    pub board: Option<Vec<i32>>,
    /// `lastX, lastY`.
    pub last: (i32, i32),
    /// `noX, noY`.
    pub no: (i32, i32),
    /// The classic search answers instead of the strong one.
    pub classic: bool,
    /// The search's tree may hold [`SMALL_TREE_BYTES`] instead of [`TREE_BYTES`], so that
    /// it fills up.
    pub small_tree: bool,
}

/// True one time in `k` (never once the bytes are used up).
fn one_in(u: &mut Unstructured, k: u8) -> bool {
    u.arbitrary::<u8>().is_ok_and(|b| b % k == k - 1)
}

/// A size or coordinate far from the usual: an edge value or any `i32`.
fn wild(u: &mut Unstructured) -> i32 {
    const EDGES: [i32; 12] = [
        i32::MIN,
        -1_000_000,
        -1,
        0,
        1,
        3,
        4,
        12,
        13,
        64,
        1 << 20,
        i32::MAX,
    ];
    match u.arbitrary::<u8>().unwrap_or(0) % 3 {
        0 => EDGES[usize::from(u.arbitrary::<u8>().unwrap_or(0)) % EDGES.len()],
        _ => u.arbitrary().unwrap_or(0),
    }
}

/// Whether both sizes are ones the library reads arrays for.
fn sizes_in_range(m: i32, n: i32) -> bool {
    (4..=12).contains(&m) && (4..=12).contains(&n)
}

impl Call {
    /// The call the bytes describe (any bytes describe one).
    pub fn from_bytes(data: &[u8]) -> Call {
        if let Some((&EXPLICIT, rest)) = data.split_first() {
            return Call::decode(rest);
        }
        let mut u = Unstructured::new(data);
        let classic = one_in(&mut u, 8);
        let small_tree = one_in(&mut u, 8);
        let mut call = if one_in(&mut u, 16) {
            Call::wild(&mut u)
        } else {
            Call::game(&mut u)
        };
        call.classic = classic;
        call.small_tree = small_tree;
        if one_in(&mut u, 4) {
            let count = u.int_in_range(1..=3).unwrap_or(1);
            for _ in 0..count {
                call.corrupt(&mut u);
            }
        }
        call
    }

    /// Wild sizes with short arrays, or pointers that are NULL.
    fn wild(u: &mut Unstructured) -> Call {
        let (m, n) = (wild(u), wild(u));
        let array = |u: &mut Unstructured, max: usize| -> Option<Vec<i32>> {
            if one_in(u, 4) {
                return None;
            }
            let len = u.int_in_range(0..=max).unwrap_or(0);
            Some((0..len).map(|_| u.arbitrary().unwrap_or(0)).collect())
        };
        let top = array(u, 16);
        let board = array(u, 160);
        let mut call = Call {
            m,
            n,
            top,
            board,
            last: (wild(u), wild(u)),
            no: (wild(u), wild(u)),
            classic: false,
            small_tree: false,
        };
        call.fit_arrays();
        call
    }

    /// A position of a game played from the empty board, seen by the side to move.
    fn game(u: &mut Unstructured) -> Call {
        let m = u.int_in_range(4..=12).unwrap_or(4);
        let n = u.int_in_range(4..=12).unwrap_or(4);
        let no = (
            u.int_in_range(0..=m - 1).unwrap_or(0),
            u.int_in_range(0..=n - 1).unwrap_or(0),
        );
        let mut game = Game::new(m, n, no);
        let limit = u.int_in_range(0..=m * n).unwrap_or(0);
        for _ in 0..limit {
            if u.is_empty() {
                break;
            }
            let want = u.int_in_range(0..=n - 1).unwrap_or(0);
            if !game.drop(want) || game.won {
                break;
            }
        }
        game.call()
    }

    /// Changes one thing the way a broken or hostile caller might.
    fn corrupt(&mut self, u: &mut Unstructured) {
        match u.int_in_range(0..=7).unwrap_or(0) {
            0 | 1 => {
                if let Some(top) = self.top.as_mut().filter(|t| !t.is_empty()) {
                    let i = u.choose_index(top.len()).unwrap_or(0);
                    top[i] = if one_in(u, 2) {
                        // Near the column's range (`M` may be wild: keep the range non-empty).
                        let high = self.m.saturating_add(1).max(-1);
                        u.int_in_range(-1..=high).unwrap_or(0)
                    } else {
                        wild(u)
                    };
                }
            }
            2 => {
                if let Some(board) = self.board.as_mut().filter(|b| !b.is_empty()) {
                    let i = u.choose_index(board.len()).unwrap_or(0);
                    board[i] = if one_in(u, 2) {
                        u.int_in_range(-1..=3).unwrap_or(0)
                    } else {
                        wild(u)
                    };
                }
            }
            3 => self.last = (wild(u), wild(u)),
            4 => self.no = (wild(u), wild(u)),
            5 => self.top = None,
            6 => self.board = None,
            _ => {
                if let Some(board) = self.board.as_mut() {
                    for v in board.iter_mut().filter(|v| matches!(**v, 1 | 2)) {
                        *v = 3 - *v;
                    }
                }
            }
        }
    }

    /// Gives the arrays the lengths the sizes promise when the library will read them.
    fn fit_arrays(&mut self) {
        if sizes_in_range(self.m, self.n) {
            let (m, n) = (self.m as usize, self.n as usize);
            if let Some(top) = self.top.as_mut() {
                top.resize(n, 0);
            }
            if let Some(board) = self.board.as_mut() {
                board.resize(m * n, 0);
            }
        }
    }

    /// The moves the course judge accepts that the library can determine: empty when it
    /// must answer NULL.
    pub fn legal_moves(&self) -> Vec<(i32, i32)> {
        let Some(top) = self.top.as_ref().filter(|_| sizes_in_range(self.m, self.n)) else {
            return Vec::new();
        };
        top.iter()
            .zip(0..)
            .filter(|&(&t, _)| (1..=self.m).contains(&t))
            .map(|(&t, y)| (t - 1, y))
            .filter(|&p| p != self.no)
            .collect()
    }

    /// Calls `getPoint` (the library's boundary code with its session's strategy, at a
    /// fixed budget) and frees the answer: the point, or `None` for NULL, and whether
    /// anything panicked inside, caught or not.
    pub fn answer(&self) -> (Option<(i32, i32)>, bool) {
        let ptr = |a: &Option<Vec<i32>>| a.as_ref().map_or(std::ptr::null(), |v| v.as_ptr());
        let args = RawArgs {
            rows: self.m,
            cols: self.n,
            top: ptr(&self.top),
            board: ptr(&self.board),
            last_row: self.last.0,
            last_col: self.last.1,
            blocked_row: self.no.0,
            blocked_col: self.no.1,
        };
        let settings = Settings {
            iterations: Some(ITERATIONS),
            seed: Some(SEED),
            tree_bytes: if self.small_tree {
                SMALL_TREE_BYTES
            } else {
                TREE_BYTES
            },
            search: if self.classic {
                SearchConfig::classic()
            } else {
                SearchConfig::strong()
            },
            ..Settings::default()
        };
        session::reset();
        panics::watch(|| {
            // SAFETY: when both sizes are in 4..=12, `top` and `board` are NULL or exactly
            // `N` and `M * N` long (`fit_arrays`, and `game` builds them so); for other
            // sizes the library promises to read nothing, and AddressSanitizer (under the
            // fuzzer) reports it if it does.
            let point: *mut Point =
                unsafe { answer(args, |request| session::choose(request, &settings)) };
            // SAFETY: a non-NULL answer is a live point from `answer`, read once and freed
            // once, as the course judge does with `clearPoint`.
            unsafe {
                let out = point.as_ref().map(|p| (p.x, p.y));
                free_point(point);
                out
            }
        })
    }
}

/// A game from the empty board under the course's rules, kept by the judge's referee
/// ([`gravity4_judge::games::connect4`]): the rules the library's answers are checked
/// against are not the library's own.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    /// The last stone made a line of four.
    pub won: bool,
}

impl Game {
    /// The empty `m` x `n` board (both in 4..=12) blocked at `no` (on the board).
    pub fn new(m: i32, n: i32, no: (i32, i32)) -> Game {
        let spec = BoardSpec {
            m,
            n,
            no_x: no.0,
            no_y: no.1,
        };
        Game {
            position: Connect4.start(&spec),
            won: false,
        }
    }

    /// Drops the mover's stone in the first open column from `want` on (wrapping round,
    /// so that no choice is wasted); false when the board is full.
    pub fn drop(&mut self, want: i32) -> bool {
        let n = self.position.spec().n;
        let Some(point) =
            (0..n).find_map(|k| self.position.drop_point((want.rem_euclid(n) + k) % n))
        else {
            return false;
        };
        Connect4.play(&mut self.position, point);
        self.won = Connect4
            .end(&self.position)
            .is_some_and(|end| end.termination == Termination::Four);
        true
    }

    /// The call the judge makes for the side to move: its stones are 2.
    pub fn call(&self) -> Call {
        let spec = self.position.spec();
        let mover = Connect4.to_move(&self.position);
        Call {
            m: spec.m,
            n: spec.n,
            top: Some(self.position.top().to_vec()),
            board: Some(self.position.board_for(mover).to_vec()),
            last: self.position.last().map_or((-1, -1), |p| (p.x, p.y)),
            no: (spec.no_x, spec.no_y),
            classic: false,
            small_tree: false,
        }
    }
}

/// The first byte of an input in the explicit form ([`Call::encode`]).
const EXPLICIT: u8 = 0;

impl Call {
    /// The input that describes exactly this call, in the explicit form: the byte 0,
    /// flags (1: classic, 2: `top` given, 4: `board` given, 8: small tree), `M`, `N`,
    /// `lastX`, `lastY`, `noX`, `noY` as little-endian `i32`s, then each array given as a
    /// little-endian `u16` length and its `i32`s. Seeds are written this way; the fuzzer
    /// mutates both forms.
    pub fn encode(&self) -> Vec<u8> {
        let flags = u8::from(self.classic)
            | if self.top.is_some() { 2 } else { 0 }
            | if self.board.is_some() { 4 } else { 0 }
            | if self.small_tree { 8 } else { 0 };
        let mut out = vec![EXPLICIT, flags];
        for v in [
            self.m,
            self.n,
            self.last.0,
            self.last.1,
            self.no.0,
            self.no.1,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for array in [&self.top, &self.board].into_iter().flatten() {
            out.extend_from_slice(&(array.len() as u16).to_le_bytes());
            for v in array {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out
    }

    /// Reads the explicit form after its first byte; missing bytes read as zeros, and an
    /// array ends where the bytes do (the sizes may then lengthen it with zeros).
    fn decode(data: &[u8]) -> Call {
        let mut r = Reader(data);
        let flags = r.bytes::<1>()[0];
        let (m, n) = (r.int(), r.int());
        let last = (r.int(), r.int());
        let no = (r.int(), r.int());
        let mut array = |given: bool| -> Option<Vec<i32>> {
            given.then(|| {
                let len = usize::from(u16::from_le_bytes(r.bytes()));
                let mut values = Vec::new();
                while values.len() < len && !r.0.is_empty() {
                    values.push(r.int());
                }
                values
            })
        };
        let top = array(flags & 2 != 0);
        let board = array(flags & 4 != 0);
        let mut call = Call {
            m,
            n,
            top,
            board,
            last,
            no,
            classic: flags & 1 != 0,
            small_tree: flags & 8 != 0,
        };
        call.fit_arrays();
        call
    }
}

/// The bytes not read yet of an input in the explicit form.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    /// The next `K` bytes, zeros past the end.
    fn bytes<const K: usize>(&mut self) -> [u8; K] {
        let (head, tail) = self.0.split_at(K.min(self.0.len()));
        self.0 = tail;
        let mut out = [0; K];
        out[..head.len()].copy_from_slice(head);
        out
    }

    /// The next little-endian `i32`.
    fn int(&mut self) -> i32 {
        i32::from_le_bytes(self.bytes())
    }
}

/// The target: the call the bytes describe must get a legal move, or NULL exactly when
/// there is none, and nothing may panic.
pub fn run(data: &[u8]) {
    let call = Call::from_bytes(data);
    let (point, panicked) = call.answer();
    assert!(!panicked, "getPoint panicked inside (caught): {call:?}");
    let legal = call.legal_moves();
    match point {
        None => assert!(
            legal.is_empty(),
            "getPoint answered NULL although {legal:?} are legal: {call:?}"
        ),
        Some(p) => assert!(
            legal.contains(&p),
            "getPoint answered {p:?}, not one of the legal {legal:?}: {call:?}"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_bytes_are_the_empty_four_by_four_board() {
        let call = Call::from_bytes(&[]);
        assert_eq!(
            (call.m, call.n, call.no, call.last),
            (4, 4, (0, 0), (-1, -1))
        );
        assert_eq!(call.top, Some(vec![4; 4]));
        assert_eq!(call.board, Some(vec![0; 16]));
        run(&[]);
    }

    #[test]
    fn games_are_legal_positions_the_library_accepts() {
        // A spread of byte strings: every game position must be one `from_course` takes
        // (or a finished game), and no input may break the promise.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for len in 0..200 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect();
            let call = Call::from_bytes(&bytes);
            if sizes_in_range(call.m, call.n) {
                let top = call.top.as_ref().map_or(call.n as usize, Vec::len);
                assert_eq!(top, call.n as usize, "{call:?}");
            }
            run(&bytes);
        }
    }

    #[test]
    fn the_explicit_form_reads_back_what_it_encodes() {
        let mut game = Game::new(9, 7, (8, 3));
        for col in [3, 3, 3, 0, 6] {
            assert!(game.drop(col));
        }
        let mut call = game.call();
        assert_eq!(
            call.top.as_ref().unwrap()[3],
            5,
            "the blocked cell is skipped"
        );
        assert_eq!(call.last, (8, 6));
        assert_eq!(Call::from_bytes(&call.encode()), call);
        call.classic = true;
        call.small_tree = true;
        call.board = None;
        call.m = i32::MIN;
        call.top = Some(vec![-1, 2]);
        assert_eq!(Call::from_bytes(&call.encode()), call);
        // Cut short: zeros, and arrays the length the sizes say.
        let short = Call::from_bytes(&[EXPLICIT, 6, 5, 0, 0, 0, 4]);
        assert_eq!((short.m, short.n), (5, 4));
        assert_eq!(short.top, Some(vec![0; 4]));
        assert_eq!(short.board, Some(vec![0; 20]));
    }

    #[test]
    fn wild_sizes_mean_null() {
        let call = Call {
            m: 13,
            n: 9,
            top: Some(vec![1]),
            board: None,
            last: (-1, -1),
            no: (0, 0),
            classic: false,
            small_tree: false,
        };
        assert!(call.legal_moves().is_empty());
        assert_eq!(call.answer(), (None, false));
    }
}
