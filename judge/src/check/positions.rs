//! The positions `judge check` calls a library on, one call each: the first move on every
//! board size of the course, and hostile positions built from the course's rules (the
//! blocked cell where naive code trips, one legal column left, a win or a loss one move
//! away, full columns, boards whose cells alone tell another story than `top`). Also how
//! the course judges an answer, and a position as text, so that `judge check LIB.so
//! --position TEXT` repeats any call.
//!
//! Every position is reached by playing moves under the judge's own rules
//! ([`crate::games::connect4`], the course's bookkeeping of `top`), from seeded random
//! games that never complete a four: what a library is shown is always a position the
//! course's runner could show it.

use rand::{Rng, SeedableRng, rngs::StdRng};

use crate::games::connect4::{BoardSpec, Connect4, Point, Position, makes_four};
use crate::games::{Game, Termination};
use crate::players::probe::MoveRequest;

/// One call of the check: what it is meant to catch, and the arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// What the position is, for people ("blocked cell on the bottom row; ...").
    pub name: String,
    /// `getPoint`'s arguments.
    pub args: MoveRequest,
}

/// Every board size of the course, rows by columns.
fn sizes() -> impl Iterator<Item = (i32, i32)> {
    (9..=12).flat_map(|m| (9..=12).map(move |n| (m, n)))
}

/// The calls of the check: the first move on each of the 16 board sizes (the blocked
/// cell on the bottom row, the top row, the middle, a corner in turn), then the hostile
/// positions.
pub fn probes() -> Vec<Probe> {
    let mut out = Vec::new();
    for (i, (m, n)) in sizes().enumerate() {
        let i = i as i32;
        let (no_x, no_y, place) = match i % 4 {
            0 => (m - 1, i % n, "on the bottom row"),
            1 => (0, (3 * i) % n, "on the top row"),
            2 => (m / 2, n / 2, "in the middle"),
            _ if i % 8 == 3 => (0, 0, "in the top-left corner"),
            _ => (m - 1, n - 1, "in the bottom-right corner"),
        };
        let spec = BoardSpec { m, n, no_x, no_y };
        out.push(probe(
            format!(
                "first move on an empty {m}x{n} board (lastX = lastY = -1), blocked cell ({no_x},{no_y}) {place}"
            ),
            &Connect4.start(&spec),
        ));
    }
    out.extend(hostile());
    out
}

/// The hostile positions.
fn hostile() -> Vec<Probe> {
    let spec = |m, n, no_x, no_y| BoardSpec { m, n, no_x, no_y };
    let mut out = Vec::new();
    let mut add = |name: &str, position: Option<Position>| {
        let position = position.unwrap_or_else(|| panic!("no game reaches {name:?}"));
        out.push(probe(name.to_string(), &position));
    };

    let s = spec(10, 10, 9, 4);
    let mut p = Connect4.start(&s);
    let first = p.drop_point(4).expect("an empty column");
    Connect4.play(&mut p, first);
    add(
        "second move: the opponent's first stone stands on the blocked bottom cell's column, an empty cell under it",
        Some(p),
    );
    add(
        "blocked cell on the bottom row; its column, still empty, is the only one with room (top = M-1 over an empty cell)",
        fill(spec(9, 9, 8, 6), &only(9, 6, 8), 1),
    );
    add(
        "blocked cell on the top row; its column is full (top = 0) though its top cell reads empty",
        fill(spec(11, 10, 0, 3), &[3, 5, 2, 0, 6, 1, 4, 7, 2, 5], 2),
    );
    add(
        "blocked cell just under a nearly full column: one free cell above it, the only legal move",
        fill(spec(12, 11, 1, 5), &only(11, 5, 1), 3),
    );
    add(
        "a column whose top skips the blocked cell (stones below it, free cells above), the only one with room",
        fill(spec(10, 12, 5, 2), &only(12, 2, 5), 4),
    );
    add(
        "a column whose top skips the blocked cell, among other columns with room",
        fill(spec(11, 9, 6, 7), &[4, 2, 6, 3, 1, 5, 2, 6, 3], 5),
    );
    add(
        "one legal column left, an ordinary one with 3 free cells, on the largest board",
        fill(spec(12, 12, 7, 0), &only(12, 6, 3), 6),
    );
    add(
        "the last free cell of the board",
        fill(spec(9, 10, 4, 4), &only(10, 8, 1), 7),
    );
    add(
        "blocked cell on the bottom row under a column of stones (the bottom cell reads 0 below them), the only column with room",
        fill(spec(11, 12, 10, 7), &only(12, 7, 5), 8),
    );
    add(
        "you can win with this move",
        play_until(spec(11, 11, 3, 8), 9, mover_can_win),
    );
    add(
        "the opponent wins next move unless you block it",
        play_until(spec(10, 9, 9, 0), 10, |p| {
            opponent_threatens(p) && !mover_can_win(p)
        }),
    );
    add(
        "full columns (top = 0) at both edges and in the middle",
        fill(spec(12, 10, 2, 2), &[0, 3, 6, 2, 4, 0, 5, 1, 3, 0], 11),
    );
    add(
        "a late middle game on the largest board (about 100 stones)",
        fill(
            spec(12, 12, 5, 6),
            &[2, 4, 3, 1, 5, 3, 2, 4, 1, 3, 5, 2],
            12,
        ),
    );
    add(
        "the top-right blocked cell tops a full column; the only room is the column next to it",
        fill(
            spec(9, 12, 0, 11),
            &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0],
            13,
        ),
    );
    out
}

/// Free cells per column: `free` in column `y`, none elsewhere (one column with room).
fn only(n: usize, y: usize, free: i32) -> Vec<i32> {
    let mut targets = vec![0; n];
    targets[y] = free;
    targets
}

/// The probe of `position`, shown to the side to move.
fn probe(name: String, position: &Position) -> Probe {
    let BoardSpec { m, n, no_x, no_y } = position.spec();
    let side = Connect4.to_move(position);
    let last = position.last().unwrap_or(Point { x: -1, y: -1 });
    Probe {
        name,
        args: MoveRequest {
            m,
            n,
            top: position.top().to_vec(),
            board: position.board_for(side).to_vec(),
            last_x: last.x,
            last_y: last.y,
            no_x,
            no_y,
        },
    }
}

/// Playable cells left in column `y` of `p` (the blocked cell is not one).
fn free_cells(p: &Position, y: usize) -> i32 {
    let spec = p.spec();
    let top = p.top()[y];
    top - i32::from(spec.no_y == y as i32 && spec.no_x < top)
}

/// Whether playing `mv` ends the game (a four, or the last cell).
fn ends_game(p: &Position, mv: Point) -> bool {
    let mut next = p.clone();
    Connect4.play(&mut next, mv);
    Connect4.end(&next).is_some()
}

/// Tries of [`fill`] and [`play_until`] before giving up on a seed.
const ATTEMPTS: u64 = 20_000;

/// The colour (0 or 1) of cell `(x, y)` in a pattern without three in a row in any
/// direction: rows alternate, and columns go in pairs (`x + y / 2`, mod 2).
fn pattern(x: i32, y: i32) -> usize {
    ((x + y / 2) % 2) as usize
}

/// A game on `spec` played by random moves that never end it, until column `y` has
/// `free[y]` playable cells left, for every `y`. Each move is drawn with weights: more
/// for columns that need more stones (so they fill evenly), and far more when the mover's
/// colour there matches [`pattern`], whose boards hold no four, so that few games get
/// stuck with only moves that would complete a four left.
fn fill(spec: BoardSpec, free: &[i32], seed: u64) -> Option<Position> {
    'attempt: for attempt in 0..ATTEMPTS {
        let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(1_000_003) + attempt);
        let mut p = Connect4.start(&spec);
        loop {
            let mover = Connect4.to_move(&p).index();
            let choices: Vec<(Point, i32)> = (0..free.len())
                .filter_map(|y| {
                    let need = free_cells(&p, y) - free[y];
                    let mv = p.drop_point(y as i32)?;
                    let fits = if pattern(mv.x, mv.y) == mover { 16 } else { 1 };
                    (need > 0 && !ends_game(&p, mv)).then_some((mv, need * fits))
                })
                .collect();
            if choices.is_empty() {
                let done = (0..free.len()).all(|y| free_cells(&p, y) == free[y]);
                if done {
                    return Some(p);
                }
                continue 'attempt;
            }
            let total: i32 = choices.iter().map(|c| c.1).sum();
            let mut pick = rng.random_range(0..total);
            let mv = choices
                .iter()
                .find(|c| {
                    pick -= c.1;
                    pick < 0
                })
                .map_or(choices[0].0, |c| c.0);
            Connect4.play(&mut p, mv);
        }
    }
    None
}

/// A game on `spec` played by random moves that never end it, stopped at the first
/// position (after at least 8 stones) that `want` accepts.
fn play_until(spec: BoardSpec, seed: u64, want: impl Fn(&Position) -> bool) -> Option<Position> {
    for attempt in 0..ATTEMPTS {
        let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(1_000_003) + attempt);
        let mut p = Connect4.start(&spec);
        for plies in 0.. {
            if plies >= 8 && want(&p) {
                return Some(p);
            }
            let safe: Vec<Point> = (0..spec.n)
                .filter_map(|y| p.drop_point(y))
                .filter(|&mv| !ends_game(&p, mv))
                .collect();
            if safe.is_empty() {
                break;
            }
            let mv = safe[rng.random_range(0..safe.len())];
            Connect4.play(&mut p, mv);
        }
    }
    None
}

/// Whether the side to move can complete a four now.
fn mover_can_win(p: &Position) -> bool {
    (0..p.spec().n).filter_map(|y| p.drop_point(y)).any(|mv| {
        let mut next = p.clone();
        Connect4.play(&mut next, mv);
        Connect4
            .end(&next)
            .is_some_and(|e| e.termination == Termination::Four)
    })
}

/// Whether the side not to move could complete a four on its next move.
fn opponent_threatens(p: &Position) -> bool {
    let spec = p.spec();
    let board = p.board_for(Connect4.to_move(p));
    (0..spec.n)
        .filter_map(|y| p.drop_point(y))
        .any(|mv| makes_four(board, spec, mv, 1))
}

/// Whether some answer to `args` is legal (a column with room).
pub fn has_legal_move(args: &MoveRequest) -> bool {
    (0..args.n).any(|y| {
        judge_answer(
            args,
            Point {
                x: args.top[y as usize] - 1,
                y,
            },
        )
        .is_ok()
    })
}

/// The course's judgement of the answer `p` to `args`: legal iff `0 <= y < N`,
/// `x == top[y] - 1` (a column with room) and `(x, y)` is not the blocked cell. `Err`
/// says, for people, what is wrong with it.
pub fn judge_answer(args: &MoveRequest, p: Point) -> Result<(), String> {
    let Point { x, y } = p;
    let Some(&top) = usize::try_from(y).ok().and_then(|c| args.top.get(c)) else {
        return Err(format!(
            "({x}, {y}): column {y} is off the board (columns 0..{})",
            args.n - 1
        ));
    };
    if top <= 0 {
        return Err(format!("({x}, {y}): column {y} is full (top[{y}] = 0)"));
    }
    if (x, y) == (args.no_x, args.no_y) {
        return Err(format!(
            "({x}, {y}) is the blocked cell; top[{y}] = {top} skips it, a stone in column {y} lands on row {}",
            top - 1
        ));
    }
    if x != top - 1 {
        return Err(format!(
            "({x}, {y}): a stone in column {y} lands on row {} (top[{y}] - 1), not row {x}",
            top - 1
        ));
    }
    Ok(())
}

/// `args` as one line of text, what `--position` reads back:
/// `MxN blocked=X,Y last=X,Y top=T,T,... board=ROW/ROW/...`, rows from the top, one digit
/// per cell as the library sees it (0 empty, 1 the opponent, 2 its own).
pub fn to_text(args: &MoveRequest) -> String {
    let join = |v: &[i32], sep: &str| v.iter().map(i32::to_string).collect::<Vec<_>>().join(sep);
    let rows: Vec<String> = args
        .board
        .chunks(args.n.max(1) as usize)
        .map(|row| join(row, ""))
        .collect();
    format!(
        "{}x{} blocked={},{} last={},{} top={} board={}",
        args.m,
        args.n,
        args.no_x,
        args.no_y,
        args.last_x,
        args.last_y,
        join(&args.top, ","),
        rows.join("/")
    )
}

/// Reads [`to_text`]'s form back; the size comes first, the other fields in any order,
/// all of them required. `Err` names the field that does not fit.
pub fn from_text(text: &str) -> Result<MoveRequest, String> {
    let mut words = text.split_whitespace();
    let size = words.next().ok_or("an empty position")?;
    let (m, n) = size
        .split_once('x')
        .and_then(|(m, n)| Some((m.parse::<i32>().ok()?, n.parse::<i32>().ok()?)))
        .filter(|&(m, n)| (1..=64).contains(&m) && (1..=64).contains(&n))
        .ok_or_else(|| format!("{size:?}: expected the size first, MxN (e.g. 9x12)"))?;
    let (mut blocked, mut last, mut top, mut board) = (None, None, None, None);
    let ints = |key: &str, v: &str| {
        v.split(',')
            .map(|t| t.trim().parse::<i32>())
            .collect::<Result<Vec<i32>, _>>()
            .map_err(|_| format!("{key}={v}: expected integers separated by commas"))
    };
    let pair = |key: &str, v: &str| match ints(key, v)?[..] {
        [a, b] => Ok((a, b)),
        _ => Err(format!("{key}={v}: expected two integers, X,Y")),
    };
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("{word:?}: expected KEY=VALUE"))?;
        match key {
            "blocked" => blocked = Some(pair(key, value)?),
            "last" => last = Some(pair(key, value)?),
            "top" => top = Some(ints(key, value)?),
            "board" => board = Some(value.to_string()),
            _ => {
                return Err(format!(
                    "{key:?}: unknown field (blocked, last, top, board)"
                ));
            }
        }
    }
    let (no_x, no_y) = blocked.ok_or("blocked=X,Y is missing")?;
    let (last_x, last_y) = last.ok_or("last=X,Y is missing (-1,-1 for a first move)")?;
    let top = top.ok_or("top=... is missing")?;
    if top.len() != n as usize {
        return Err(format!("top has {} values for {n} columns", top.len()));
    }
    let board = board.ok_or("board=... is missing")?;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != m as usize {
        return Err(format!("board has {} rows for M = {m}", rows.len()));
    }
    let mut cells = Vec::with_capacity((m * n) as usize);
    for (x, row) in rows.iter().enumerate() {
        if row.len() != n as usize {
            return Err(format!("board row {x} has {} cells for N = {n}", row.len()));
        }
        for c in row.chars() {
            let v = c
                .to_digit(10)
                .filter(|&v| v <= 2)
                .ok_or_else(|| format!("board row {x}: {c:?} is not 0, 1 or 2"))?;
            cells.push(v as i32);
        }
    }
    Ok(MoveRequest {
        m,
        n,
        top,
        board: cells,
        last_x,
        last_y,
        no_x,
        no_y,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `top` recomputed from the stones as the course keeps it: above the highest stone
    /// of each column (or the bottom), skipping the blocked cell.
    fn top_from_stones(a: &MoveRequest) -> Vec<i32> {
        (0..a.n)
            .map(|y| {
                let stone = |x: i32| a.board[(x * a.n + y) as usize] != 0;
                let mut t = (0..a.m).find(|&x| stone(x)).unwrap_or(a.m);
                if t - 1 == a.no_x && y == a.no_y {
                    t -= 1;
                }
                t
            })
            .collect()
    }

    #[test]
    fn every_probe_is_a_position_the_course_could_show() {
        let probes = probes();
        assert_eq!(probes.len(), 30);
        let mut seen_sizes = Vec::new();
        for p in &probes {
            let a = &p.args;
            assert!(
                (9..=12).contains(&a.m) && (9..=12).contains(&a.n),
                "{}",
                p.name
            );
            assert!(has_legal_move(a), "{}", p.name);
            assert_eq!(a.top, top_from_stones(a), "{}", p.name);
            assert_eq!(a.board[(a.no_x * a.n + a.no_y) as usize], 0, "{}", p.name);
            // Stones alternate: the mover has as many as the opponent, or one fewer.
            let count = |v| a.board.iter().filter(|&&c| c == v).count() as i64;
            assert!((0..=1).contains(&(count(1) - count(2))), "{}", p.name);
            // No four on the board for either side.
            let spec = BoardSpec {
                m: a.m,
                n: a.n,
                no_x: a.no_x,
                no_y: a.no_y,
            };
            for x in 0..a.m {
                for y in 0..a.n {
                    let v = a.board[(x * a.n + y) as usize];
                    assert!(
                        v == 0 || !makes_four(&a.board, spec, Point { x, y }, v),
                        "{}",
                        p.name
                    );
                }
            }
            if a.last_x >= 0 {
                assert_eq!(
                    a.board[(a.last_x * a.n + a.last_y) as usize],
                    1,
                    "{}",
                    p.name
                );
            } else {
                assert!(a.board.iter().all(|&c| c == 0), "{}", p.name);
            }
            seen_sizes.push((a.m, a.n));
        }
        for size in sizes() {
            assert!(seen_sizes.contains(&size), "{size:?}");
        }
        // The traps are where their names say.
        let find = |words: &str| &probes.iter().find(|p| p.name.contains(words)).unwrap().args;
        let a = find("its column, still empty");
        assert_eq!(a.top[6], 8);
        assert_eq!(a.top.iter().filter(|&&t| t > 0).count(), 1);
        let a = find("though its top cell reads empty");
        assert_eq!((a.top[3], a.board[3]), (0, 0));
        let a = find("one free cell above it");
        assert_eq!(a.top.iter().filter(|&&t| t > 0).collect::<Vec<_>>(), [&1]);
        let a = find("the bottom cell reads 0 below them");
        assert_eq!(a.top[7], 5);
        assert_eq!(a.board[(10 * 12 + 7) as usize], 0);
        assert_ne!(a.board[(9 * 12 + 7) as usize], 0);
    }

    #[test]
    fn probes_are_the_same_every_time() {
        assert_eq!(probes(), probes());
    }

    #[test]
    fn answers_are_judged_as_the_course_does() {
        let a = &probes()
            .into_iter()
            .find(|p| p.name.contains("its column, still empty"))
            .unwrap()
            .args;
        assert_eq!(judge_answer(a, Point { x: 7, y: 6 }), Ok(()));
        // The blocked cell, the cell under the top, a full column, off the board.
        let why = |x, y| judge_answer(a, Point { x, y }).unwrap_err();
        assert!(why(8, 6).contains("is the blocked cell"), "{}", why(8, 6));
        assert!(why(6, 6).contains("lands on row 7"), "{}", why(6, 6));
        assert!(why(0, 0).contains("is full"), "{}", why(0, 0));
        assert!(why(3, 9).contains("off the board"), "{}", why(3, 9));
        assert!(why(3, -1).contains("off the board"), "{}", why(3, -1));
    }

    #[test]
    fn positions_read_back_from_their_text() {
        for p in probes() {
            let text = to_text(&p.args);
            assert_eq!(from_text(&text), Ok(p.args.clone()), "{text}");
        }
        let text = "4x5 top=4,4,3,4,4 last=3,2 blocked=0,1 board=00000/00000/00000/00100";
        let a = from_text(text).unwrap();
        assert_eq!((a.m, a.n, a.no_x, a.no_y, a.last_x), (4, 5, 0, 1, 3));
        assert_eq!(a.board[17], 1);
        for (bad, says) in [
            ("", "empty"),
            ("9by9", "MxN"),
            (
                "4x5 top=4,4,4,4 last=-1,-1 blocked=0,0 board=00000/00000/00000/00000",
                "4 values",
            ),
            (
                "4x5 top=4,4,4,4,4 last=-1,-1 blocked=0,0 board=00000/00000/00000",
                "3 rows",
            ),
            (
                "4x5 top=4,4,4,4,4 last=-1,-1 blocked=0,0 board=00000/00000/00000/0003",
                "4 cells",
            ),
            (
                "4x5 top=4,4,4,4,4 last=-1,-1 blocked=0,0 board=00000/00000/00000/00030",
                "not 0, 1 or 2",
            ),
            (
                "4x5 top=4,4,4,4,4 blocked=0,0 board=00000/00000/00000/00000",
                "last",
            ),
            (
                "4x5 top=4,4,4,4,4 last=-1 blocked=0,0 board=00000/00000/00000/00000",
                "two integers",
            ),
            (
                "4x5 top=4,4,4,4,4 last=-1,-1 blocked=0,0 board=00000/00000/00000/00000 x=1",
                "unknown",
            ),
        ] {
            let err = from_text(bad).unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }
}
