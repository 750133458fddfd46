//! Gravity Connect-4 with one blocked cell, under the course's rules, on plain arrays
//! exactly like the course's C++ judge (the referee must not trust, or share code with,
//! the libraries it judges).
//!
//! Conventions (see `docs/ABI.md`): `board[x * N + y]`, row 0 is the TOP row; each side
//! sees its own stones as 2 and the opponent's as 1; `top[y] - 1` is the row of the next
//! stone in column `y` and skips the blocked cell `(noX, noY)`. Boards are drawn as the
//! course draws them: `M`, `N` uniform in 9..=12, the blocked cell uniform over the whole
//! board.

use rand::{Rng, SeedableRng, rngs::StdRng};
use serde::{Deserialize, Serialize};

use super::{Cell, Game, GameEnd, GameKind, Grid, Side, Termination};

/// The course's gravity Connect-4 with a blocked cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Connect4;

/// The board of one pair: size and blocked cell (the log's `board`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSpec {
    /// Rows.
    #[serde(rename = "M")]
    pub m: i32,
    /// Columns.
    #[serde(rename = "N")]
    pub n: i32,
    /// Row of the blocked cell.
    #[serde(rename = "noX")]
    pub no_x: i32,
    /// Column of the blocked cell.
    #[serde(rename = "noY")]
    pub no_y: i32,
}

/// A point `(x, y)`: row `x` (0 on top), column `y`, as `getPoint` returns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// Row.
    pub x: i32,
    /// Column.
    pub y: i32,
}

/// The course's board state: one board per side plus `top`, the side to move and the
/// last move.
#[derive(Debug, Clone)]
pub struct Position {
    spec: BoardSpec,
    /// `boards[0]` is the first mover's view, `boards[1]` the second's.
    boards: [Vec<i32>; 2],
    top: Vec<i32>,
    plies: usize,
    last: Option<Point>,
    /// The last stone made a line of 4 or more.
    won: bool,
}

impl Position {
    fn new(spec: BoardSpec) -> Position {
        let (m, n) = (spec.m.max(0) as usize, spec.n.max(0) as usize);
        let mut top = vec![spec.m; n];
        // The blocked cell on the bottom row: the column starts one higher.
        if spec.no_x == spec.m - 1
            && let Some(t) = usize::try_from(spec.no_y).ok().and_then(|y| top.get_mut(y))
        {
            *t = spec.m - 1;
        }
        Position {
            spec,
            boards: [vec![0; m * n], vec![0; m * n]],
            top,
            plies: 0,
            last: None,
            won: false,
        }
    }

    /// The board's size and blocked cell.
    pub fn spec(&self) -> BoardSpec {
        self.spec
    }

    /// `top[y]` for every column, as the course ABI passes it.
    pub fn top(&self) -> &[i32] {
        &self.top
    }

    /// The board as `side` is shown it: 0 empty, 1 opponent, 2 its own stones.
    pub fn board_for(&self, side: Side) -> &[i32] {
        &self.boards[side.index()]
    }

    /// The last stone played, if any.
    pub fn last(&self) -> Option<Point> {
        self.last
    }

    /// The point a stone dropped into column `y` lands on, if the column has room.
    pub fn drop_point(&self, y: i32) -> Option<Point> {
        let top = *usize::try_from(y).ok().and_then(|c| self.top.get(c))?;
        let p = Point { x: top - 1, y };
        self.is_legal(p).then_some(p)
    }

    fn mover(&self) -> usize {
        self.plies % 2
    }

    fn is_legal(&self, p: Point) -> bool {
        let Point { x, y } = p;
        (0..self.spec.n).contains(&y)
            && x == self.top[y as usize] - 1
            && x >= 0
            && (x, y) != (self.spec.no_x, self.spec.no_y)
    }

    /// Places `mover`'s stone at a legal `(x, y)` and updates `top` as the course does.
    fn place(&mut self, mover: usize, x: i32, y: i32) {
        let i = (x * self.spec.n + y) as usize;
        self.boards[mover][i] = 2;
        self.boards[1 - mover][i] = 1;
        let y = y as usize;
        self.top[y] -= 1;
        if self.top[y] - 1 == self.spec.no_x && y as i32 == self.spec.no_y {
            self.top[y] -= 1;
        }
    }

    /// Does `mover`'s stone at `(x, y)` make a line of 4 or more?
    fn wins(&self, mover: usize, x: i32, y: i32) -> bool {
        makes_four(&self.boards[mover], self.spec, Point { x, y }, 2)
    }

    fn is_full(&self) -> bool {
        self.top.iter().all(|&t| t == 0)
    }
}

impl Game for Connect4 {
    type Setup = BoardSpec;
    type Position = Position;
    type Move = Point;
    /// The column played.
    type LoggedMove = i32;

    const PASSES: bool = false;
    const STONES_FLIP: bool = false;

    fn kind(&self) -> GameKind {
        GameKind::Connect4
    }

    fn setup(&self, board_seed: u64) -> BoardSpec {
        let mut rng = StdRng::seed_from_u64(board_seed);
        let m = rng.random_range(9..=12);
        let n = rng.random_range(9..=12);
        let no_x = rng.random_range(0..m);
        let no_y = rng.random_range(0..n);
        BoardSpec { m, n, no_x, no_y }
    }

    fn start(&self, setup: &BoardSpec) -> Position {
        Position::new(*setup)
    }

    fn to_move(&self, position: &Position) -> Side {
        if position.mover() == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    fn is_legal(&self, position: &Position, mv: Point) -> bool {
        position.is_legal(mv)
    }

    fn play(&self, position: &mut Position, mv: Point) -> i32 {
        let mover = position.mover();
        position.place(mover, mv.x, mv.y);
        position.won = position.wins(mover, mv.x, mv.y);
        position.last = Some(mv);
        position.plies += 1;
        mv.y
    }

    fn end(&self, position: &Position) -> Option<GameEnd> {
        if position.won {
            // The stone that won was the previous mover's.
            let winner = if position.mover() == 1 {
                Side::First
            } else {
                Side::Second
            };
            return Some(GameEnd {
                winner: Some(winner),
                termination: Termination::Four,
                margin: None,
            });
        }
        position.is_full().then_some(GameEnd {
            winner: None,
            termination: Termination::Full,
            margin: None,
        })
    }

    fn describe_illegal(&self, _position: &Position, mv: Point) -> (String, Option<[i32; 2]>) {
        (
            format!("illegal point ({}, {})", mv.x, mv.y),
            Some([mv.x, mv.y]),
        )
    }

    fn read_move(&self, position: &Position, column: i32) -> Option<Point> {
        position.drop_point(column)
    }

    fn legal_moves(&self, position: &Position) -> Vec<Point> {
        if self.end(position).is_some() {
            return Vec::new();
        }
        (0..position.spec.n)
            .filter_map(|y| position.drop_point(y))
            .collect()
    }

    fn move_at(&self, position: &Position, _x: i32, y: i32) -> Option<Point> {
        if self.end(position).is_some() {
            return None;
        }
        position.drop_point(y)
    }

    fn last_cell(&self, position: &Position) -> Option<(i32, i32)> {
        position.last().map(|p| (p.x, p.y))
    }

    fn move_cell(&self, _position: &Position, mv: Point) -> Option<(i32, i32)> {
        Some((mv.x, mv.y))
    }

    fn grid(&self, position: &Position) -> Grid {
        let spec = position.spec;
        let mut grid = Grid::new(spec.m, spec.n);
        grid.set(spec.no_x, spec.no_y, Cell::Blocked);
        for (i, &v) in position.boards[0].iter().enumerate() {
            let (x, y) = (i as i32 / spec.n, i as i32 % spec.n);
            match v {
                2 => grid.set(x, y, Cell::First),
                1 => grid.set(x, y, Cell::Second),
                _ => {}
            }
        }
        grid
    }

    fn winning_line(&self, position: &Position) -> Vec<(i32, i32)> {
        match (position.won, position.last) {
            (true, Some(p)) => line_through(&self.grid(position), p.x, p.y),
            _ => Vec::new(),
        }
    }
}

/// Whether a stone `v` at `p` makes a line of 4 or more (horizontal, vertical or diagonal)
/// with the stones `v` on `board` (`board[x * N + y]`, any values: a side's view or stones by
/// player), whatever `board` holds at `p` itself. The course's win test, which only the
/// stone just placed is put to; the rules that test and fuzz code check the library
/// against are this referee's, not the library's own.
pub fn makes_four(board: &[i32], spec: BoardSpec, p: Point, v: i32) -> bool {
    let at = |x: i32, y: i32| {
        (0..spec.m).contains(&x)
            && (0..spec.n).contains(&y)
            && board[(x * spec.n + y) as usize] == v
    };
    [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
        let run = |s: i32| {
            (1..)
                .take_while(|&k| at(p.x + s * k * dx, p.y + s * k * dy))
                .count()
        };
        1 + run(1) + run(-1) >= 4
    })
}

/// The cells of the longest line of 4 or more through `(x, y)` in `grid`, if there is one.
fn line_through(grid: &Grid, x: i32, y: i32) -> Vec<(i32, i32)> {
    let who = grid.get(x, y);
    if !matches!(who, Cell::First | Cell::Second) {
        return Vec::new();
    }
    [(0, 1), (1, 0), (1, 1), (1, -1)]
        .iter()
        .map(|&(dx, dy)| {
            let run = |s: i32| {
                (1..)
                    .take_while(|&k| {
                        let (a, b) = (x + s * k * dx, y + s * k * dy);
                        grid.contains(a, b) && grid.get(a, b) == who
                    })
                    .count() as i32
            };
            let (back, fwd) = (run(-1), run(1));
            (-back..=fwd)
                .map(|k| (x + k * dx, y + k * dy))
                .collect::<Vec<_>>()
        })
        .filter(|line| line.len() >= 4)
        .max_by_key(|line| line.len())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(m: i32, n: i32, no_x: i32, no_y: i32) -> BoardSpec {
        BoardSpec { m, n, no_x, no_y }
    }

    /// Plays columns alternately from the start.
    fn after(spec: BoardSpec, columns: &[i32]) -> Position {
        let mut p = Connect4.start(&spec);
        for &c in columns {
            let mv = p.drop_point(c).expect("legal column");
            Connect4.play(&mut p, mv);
        }
        p
    }

    #[test]
    fn boards_are_reproducible_and_in_range() {
        let mut sizes = std::collections::HashSet::new();
        let mut blocked_rows = std::collections::HashSet::new();
        for k in 0..2000u64 {
            let seed = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let b = Connect4.setup(seed);
            assert_eq!(Connect4.setup(seed), b);
            assert!((9..=12).contains(&b.m) && (9..=12).contains(&b.n));
            assert!((0..b.m).contains(&b.no_x) && (0..b.n).contains(&b.no_y));
            sizes.insert((b.m, b.n));
            if b.m == 9 {
                blocked_rows.insert(b.no_x);
            }
        }
        assert_eq!(sizes.len(), 16);
        assert_eq!(blocked_rows.len(), 9, "top and bottom rows included");
    }

    #[test]
    fn top_starts_one_higher_when_blocked_cell_on_bottom_row() {
        let g = Position::new(spec(9, 9, 8, 3));
        assert_eq!(g.top[3], 8);
        assert_eq!(g.top[2], 9);
        assert!(g.is_legal(Point { x: 7, y: 3 }));
        assert!(!g.is_legal(Point { x: 8, y: 3 }));
    }

    #[test]
    fn top_skips_blocked_cell_in_the_middle_and_top_row() {
        let mut g = Position::new(spec(9, 9, 5, 0));
        for x in (6..9).rev() {
            g.place(0, x, 0);
        }
        assert_eq!(g.top[0], 5, "row 5 is blocked, next stone goes to row 4");
        assert!(g.is_legal(Point { x: 4, y: 0 }));
        // Blocked cell in the top row: the column is full one stone early.
        let mut g = Position::new(spec(9, 9, 0, 2));
        for x in (1..9).rev() {
            g.place(0, x, 2);
        }
        assert_eq!(g.top[2], 0);
        assert!(!g.is_legal(Point { x: 0, y: 2 }) && !g.is_legal(Point { x: -1, y: 2 }));
    }

    #[test]
    fn blocked_cell_breaks_a_line() {
        let mut g = Position::new(spec(9, 9, 8, 3));
        for y in [0, 1, 2, 4] {
            g.place(0, 8, y);
        }
        assert!(!g.wins(0, 8, 4));
        g.place(0, 8, 5);
        g.place(0, 8, 6);
        assert!(!g.wins(0, 8, 6), "4, 5, 6 is only three");
        g.place(0, 8, 7);
        assert!(g.wins(0, 8, 7));
    }

    #[test]
    fn a_board_without_lines_fills_up_without_a_win() {
        // A 9x9 board coloured so that no line of 4 exists (colour = (y/2 + x) % 2):
        // filling it must never report a win, and must end full.
        let mut game = Position::new(spec(9, 9, 4, 4));
        for y in 0..9 {
            while game.top[y] > 0 {
                let x = game.top[y] - 1;
                let who = ((y as i32 / 2 + x) % 2) as usize;
                game.place(who, x, y as i32);
                assert!(!game.wins(who, x, y as i32), "false win at ({x}, {y})");
            }
        }
        assert!(game.is_full());
        assert_eq!(
            Connect4.end(&game).map(|e| (e.winner, e.termination)),
            Some((None, Termination::Full))
        );
    }

    #[test]
    fn ends_wins_and_views() {
        let p = after(spec(9, 9, 0, 8), &[0, 5, 0, 5, 0, 5]);
        assert_eq!(Connect4.end(&p), None);
        assert_eq!(Connect4.to_move(&p), Side::First);
        assert_eq!(p.board_for(Side::First)[8 * 9], 2);
        assert_eq!(p.board_for(Side::Second)[8 * 9], 1);
        let p = after(spec(9, 9, 0, 8), &[0, 5, 0, 5, 0, 5, 0]);
        let end = Connect4.end(&p).unwrap();
        assert_eq!(
            (end.winner, end.termination),
            (Some(Side::First), Termination::Four)
        );
        assert_eq!(
            Connect4.winning_line(&p),
            vec![(5, 0), (6, 0), (7, 0), (8, 0)]
        );
        let grid = Connect4.grid(&p);
        assert_eq!(grid.get(0, 8), Cell::Blocked);
        assert_eq!(grid.get(8, 5), Cell::Second);
    }

    #[test]
    fn replay_follows_the_rules_and_stops_at_bad_columns() {
        // Blocked cell on the bottom row of column 3: the first stone lands one higher.
        let (positions, cells) = Connect4.replay(&spec(9, 9, 8, 3), &[3, 3, 0]);
        assert_eq!(cells, vec![Some((7, 3)), Some((6, 3)), Some((8, 0))]);
        assert_eq!(positions.len(), 4);
        let (_, cells) = Connect4.replay(&spec(9, 9, 0, 8), &[0, 9, 0]);
        assert_eq!(cells, vec![Some((8, 0))], "column 9 does not exist");
        let (_, cells) = Connect4.replay(&spec(2, 3, 0, 0), &[0, 0, -1]);
        assert_eq!(
            cells,
            vec![Some((1, 0))],
            "column 0 is full after one stone"
        );
    }

    #[test]
    fn legal_moves_and_pointed_cells_follow_top_and_the_blocked_cell() {
        // The top row's blocked cell in column 2: once filled to row 1, column 2 is full.
        let g = spec(9, 9, 0, 2);
        let p = after(g, &[2, 2, 2, 2, 2, 2, 2]);
        assert_eq!(p.top()[2], 2);
        let p = after(g, &[2, 2, 2, 2, 2, 2, 2, 2]);
        assert_eq!(p.top()[2], 0);
        let moves = Connect4.legal_moves(&p);
        assert_eq!(moves.len(), 8);
        assert!(moves.iter().all(|m| m.y != 2 && m.x == 8));
        assert_eq!(Connect4.move_at(&p, 0, 2), None);
        // Any cell of a column means the drop into it.
        assert_eq!(Connect4.move_at(&p, 0, 4), Some(Point { x: 8, y: 4 }));
        assert_eq!(Connect4.move_at(&p, 3, 9), None);
        // A won game has no moves left.
        let won = after(g, &[0, 5, 0, 5, 0, 5, 0]);
        assert!(Connect4.end(&won).is_some());
        assert!(Connect4.legal_moves(&won).is_empty());
        assert_eq!(Connect4.move_at(&won, 8, 1), None);
    }

    #[test]
    fn winning_line_is_the_longest_through_the_last_stone() {
        let s = spec(6, 7, 0, 0);
        // First mover: bottom row columns 1..=4; second mover stacks on column 6.
        let p = after(s, &[1, 6, 2, 6, 3, 6, 4]);
        assert_eq!(
            Connect4.winning_line(&p),
            vec![(5, 1), (5, 2), (5, 3), (5, 4)]
        );
        assert!(line_through(&Connect4.grid(&p), 3, 6).is_empty());
        assert!(line_through(&Connect4.grid(&p), 0, 0).is_empty());
    }

    #[test]
    fn illegal_points() {
        let g = Position::new(spec(9, 9, 8, 3));
        // The blocked cell itself is illegal even if a broken top pointed at it.
        assert!(!g.is_legal(Point { x: 8, y: 3 }));
        assert!(!g.is_legal(Point { x: 8, y: 9 }) && !g.is_legal(Point { x: 8, y: -1 }));
        assert_eq!(
            Connect4.describe_illegal(&g, Point { x: 0, y: 16 }),
            ("illegal point (0, 16)".to_string(), Some([0, 16]))
        );
    }

    /// The referee's rules against the library's (`gravity4::position`, bitboards written
    /// separately), as the Reversi referee is checked against the `reversi` crate: random
    /// games on random course boards (sides 9..=12, the blocked cell anywhere, the top
    /// and bottom rows drawn often); after every move the same stones, `top`, legal
    /// points, win verdict and tie.
    mod against_the_library {
        use super::*;
        use gravity4::position::{Position as Library, Side as LibrarySide};
        use proptest::prelude::*;
        use proptest::sample::Index;

        /// A course board: sides 9..=12; the blocked cell's row the top one, the bottom
        /// one or any, its column any.
        fn boards() -> impl Strategy<Value = BoardSpec> {
            (9..=12i32, 9..=12i32).prop_flat_map(|(m, n)| {
                let row = prop_oneof![Just(0), Just(m - 1), 0..m];
                (row, 0..n).prop_map(move |(no_x, no_y)| BoardSpec { m, n, no_x, no_y })
            })
        }

        /// Asserts that the referee's position and the library's show the same game.
        fn agree(ours: &Position, theirs: &Library) -> Result<(), TestCaseError> {
            let BoardSpec { m, n, .. } = ours.spec();
            for y in 0..n {
                let col = y as usize;
                prop_assert_eq!(ours.top()[col], theirs.top(col) as i32, "top[{}]", y);
                for x in 0..m {
                    let stone = match theirs.stone(x as usize, col) {
                        Some(LibrarySide::Us) => 2,
                        Some(LibrarySide::Them) => 1,
                        None => 0,
                    };
                    let i = (x * n + y) as usize;
                    prop_assert_eq!(ours.board_for(Side::First)[i], stone, "({}, {})", x, y);
                    prop_assert_eq!(ours.board_for(Side::Second)[i], (3 - stone) % 3);
                }
            }
            // Every point, a row and a column past each edge included, while the game
            // is on (the library's position is not played on after a win).
            if Connect4.end(ours).is_none() {
                for y in -1..=n {
                    for x in -1..=m {
                        let col = y as usize;
                        let legal = (0..n).contains(&y)
                            && theirs.can_play(col)
                            && theirs.landing_row(col) as i32 == x;
                        prop_assert_eq!(Connect4.is_legal(ours, Point { x, y }), legal);
                    }
                }
            }
            Ok(())
        }

        proptest! {
            #[test]
            fn rules_agree_with_the_library(
                spec in boards(),
                picks in proptest::collection::vec(any::<Index>(), 144),
            ) {
                let mut ours = Connect4.start(&spec);
                let mut theirs = Library::new(
                    spec.m as usize,
                    spec.n as usize,
                    spec.no_x as usize,
                    spec.no_y as usize,
                )
                .expect("a course board");
                agree(&ours, &theirs)?;
                for pick in &picks {
                    let moves = Connect4.legal_moves(&ours);
                    let open = (0..spec.n).filter(|&y| theirs.can_play(y as usize)).count();
                    prop_assert_eq!(moves.len(), open);
                    let mover = Connect4.to_move(&ours);
                    let mv = *pick.get(&moves);
                    Connect4.play(&mut ours, mv);
                    let won = theirs.play(mv.y as usize);
                    agree(&ours, &theirs)?;
                    let end = Connect4.end(&ours).map(|e| (e.winner, e.termination));
                    if won {
                        prop_assert_eq!(end, Some((Some(mover), Termination::Four)));
                        break;
                    }
                    if theirs.empty_cells() == 0 {
                        prop_assert_eq!(theirs.open_columns(), 0);
                        prop_assert_eq!(end, Some((None, Termination::Full)));
                        break;
                    }
                    prop_assert_eq!(end, None);
                }
                prop_assert!(Connect4.end(&ours).is_some(), "144 moves end any game");
            }
        }
    }
}
