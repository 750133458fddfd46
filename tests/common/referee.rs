//! The slow, obviously correct rules: a plain array board kept exactly as the course's C++
//! judge keeps it. It is both the referee of the end-to-end games and the reference the
//! bitboard `Position` is checked against, so it shares no code with the library: its win
//! test is the judge's referee's ([`makes_four`]).

use gravity4_judge::games::connect4::{BoardSpec, Point, makes_four};
use std::fmt;

/// Player ids on the referee's absolute board: the first mover is 1, the second 2.
pub const FIRST: i32 = 1;
/// The second mover.
pub const SECOND: i32 = 2;

/// A board under the course rules.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    /// Rows (`M`).
    pub m: usize,
    /// Columns (`N`).
    pub n: usize,
    /// Blocked cell row (`noX`).
    pub no_x: usize,
    /// Blocked cell column (`noY`).
    pub no_y: usize,
    /// `cells[x * n + y]`: 0 empty, else the player id ([`FIRST`] or [`SECOND`]).
    pub cells: Vec<i32>,
    /// The course's `top[y]`, maintained exactly as the judge does.
    pub top: Vec<i32>,
    /// Moves played, as `(x, y)`.
    pub moves: Vec<(usize, usize)>,
}

impl Board {
    /// The empty board; `top` starts as the judge sets it up.
    pub fn new(m: usize, n: usize, no_x: usize, no_y: usize) -> Board {
        assert!(no_x < m && no_y < n, "blocked cell must be on the board");
        let mut top = vec![m as i32; n];
        if no_x == m - 1 {
            top[no_y] = m as i32 - 1;
        }
        Board {
            m,
            n,
            no_x,
            no_y,
            cells: vec![0; m * n],
            top,
            moves: Vec::new(),
        }
    }

    /// The player to move: [`FIRST`] after an even number of moves.
    pub fn to_move(&self) -> i32 {
        if self.moves.len().is_multiple_of(2) {
            FIRST
        } else {
            SECOND
        }
    }

    /// Who holds `(x, y)`: 0 if nobody.
    pub fn at(&self, x: usize, y: usize) -> i32 {
        self.cells[x * self.n + y]
    }

    /// The judge's legality test for the point `(x, y)`.
    pub fn is_legal(&self, x: i32, y: i32) -> bool {
        (0..self.n as i32).contains(&y)
            && x == self.top[y as usize] - 1
            && x >= 0
            && (x, y) != (self.no_x as i32, self.no_y as i32)
    }

    /// True iff a stone can go into column `y`.
    pub fn can_play(&self, y: usize) -> bool {
        y < self.n && self.is_legal(self.top[y] - 1, y as i32)
    }

    /// The legal columns, left to right.
    pub fn legal_cols(&self) -> Vec<usize> {
        (0..self.n).filter(|&y| self.can_play(y)).collect()
    }

    /// Drops a stone of the player to move in column `y`, updating `top` like the judge
    /// (once more when the next free cell would be the blocked one). Returns the cell.
    pub fn play(&mut self, y: usize) -> (usize, usize) {
        assert!(self.can_play(y), "illegal column {y}\n{self:?}");
        let x = (self.top[y] - 1) as usize;
        self.cells[x * self.n + y] = self.to_move();
        self.top[y] -= 1;
        if x as i32 - 1 == self.no_x as i32 && y == self.no_y {
            self.top[y] -= 1;
        }
        self.moves.push((x, y));
        (x, y)
    }

    /// The player holding four or more in a row anywhere on the board, by putting every
    /// stone to the judge's win test (slow and plainly right).
    pub fn winner(&self) -> Option<i32> {
        let spec = BoardSpec {
            m: self.m as i32,
            n: self.n as i32,
            no_x: self.no_x as i32,
            no_y: self.no_y as i32,
        };
        let stones = (0..self.m).flat_map(|x| (0..self.n).map(move |y| (x, y)));
        stones
            .map(|(x, y)| (self.at(x, y), x as i32, y as i32))
            .find(|&(p, x, y)| p != 0 && makes_four(&self.cells, spec, Point { x, y }, p))
            .map(|(p, _, _)| p)
    }

    /// Empty cells other than the blocked one.
    pub fn empty_cells(&self) -> usize {
        self.cells.iter().filter(|&&c| c == 0).count() - 1
    }

    /// True iff no column takes a stone.
    pub fn is_full(&self) -> bool {
        self.legal_cols().is_empty()
    }

    /// The board as `player` is shown it: its own stones 2, the opponent's 1.
    pub fn view(&self, player: i32) -> Vec<i32> {
        self.cells
            .iter()
            .map(|&c| match c {
                0 => 0,
                c if c == player => 2,
                _ => 1,
            })
            .collect()
    }

    /// A board drawn row by row from the top: `X` the first mover, `O` the second, `#` the
    /// blocked cell, `.` empty. `top` is derived from the stones (which must not float);
    /// no move history is recorded, so `to_move` is [`FIRST`] and `last` is `(-1, -1)`.
    pub fn from_diagram(rows: &[&str]) -> Board {
        let (m, n) = (rows.len(), rows[0].len());
        let blocked = rows
            .iter()
            .enumerate()
            .find_map(|(x, r)| r.find('#').map(|y| (x, y)))
            .expect("the diagram marks the blocked cell with #");
        let mut board = Board::new(m, n, blocked.0, blocked.1);
        for (x, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), n, "ragged diagram");
            for (y, ch) in row.chars().enumerate() {
                board.cells[x * n + y] = match ch {
                    'X' => FIRST,
                    'O' => SECOND,
                    '.' | '#' => 0,
                    _ => panic!("unknown cell {ch:?}"),
                };
            }
        }
        for y in 0..n {
            let mut t = m;
            while t > 0 && (board.at(t - 1, y) != 0 || (t - 1, y) == blocked) {
                t -= 1;
            }
            assert!(
                (0..t).all(|x| board.at(x, y) == 0),
                "floating stone in column {y}"
            );
            board.top[y] = t as i32;
        }
        board
    }

    /// A board with every column but `open` full and `open` empty. The filler alternates
    /// colour every column and every two rows, which never lines up four in any direction.
    pub fn filled_except(m: usize, n: usize, no_x: usize, no_y: usize, open: usize) -> Board {
        let mut board = Board::new(m, n, no_x, no_y);
        for x in 0..m {
            for y in 0..n {
                if y != open && (x, y) != (no_x, no_y) {
                    board.cells[x * n + y] = if (x / 2 + y) % 2 == 0 { FIRST } else { SECOND };
                }
            }
        }
        for y in 0..n {
            if y != open {
                board.top[y] = 0;
            }
        }
        assert_eq!(
            board.winner(),
            None,
            "the filler must not hold a four\n{board:?}"
        );
        board
    }

    /// The last move as the judge passes it, or `(-1, -1)` before any move.
    pub fn last(&self) -> (i32, i32) {
        self.moves
            .last()
            .map_or((-1, -1), |&(x, y)| (x as i32, y as i32))
    }
}

impl fmt::Debug for Board {
    /// `X` first mover, `O` second, `#` blocked.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Board {}x{} blocked ({}, {}), top {:?}, moves {:?}",
            self.m, self.n, self.no_x, self.no_y, self.top, self.moves
        )?;
        for x in 0..self.m {
            for y in 0..self.n {
                let ch = match self.at(x, y) {
                    FIRST => 'X',
                    SECOND => 'O',
                    _ if (x, y) == (self.no_x, self.no_y) => '#',
                    _ => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Move paths of length `depth` from `board` (a won position has no moves), by cloning.
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    board
        .legal_cols()
        .into_iter()
        .map(|y| {
            let mut next = board.clone();
            next.play(y);
            if next.winner().is_some() {
                u64::from(depth == 1)
            } else {
                perft(&next, depth - 1)
            }
        })
        .sum()
}

/// The nine blocked-cell placements the tests cover: four corners, the middle of each of the
/// four edges, and the centre.
pub fn placements(m: usize, n: usize) -> [(usize, usize); 9] {
    let (cx, cy) = (m / 2, n / 2);
    [
        (0, 0),
        (0, n - 1),
        (m - 1, 0),
        (m - 1, n - 1),
        (0, cy),
        (m - 1, cy),
        (cx, 0),
        (cx, n - 1),
        (cx, cy),
    ]
}
