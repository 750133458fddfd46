//! The program's own record of the game, kept from the moves alone.
//!
//! The platform may send only the opponent's last move, so the program must know the board
//! without it; when the platform does send `top` and the board, this record is what they are
//! checked against. Values follow the course ABI from our point of view: 0 empty, 1 the
//! opponent, 2 us; row 0 is the top row; `top[col] - 1` is the row the next stone in `col`
//! lands on, and `top` skips the blocked cell.

use gravity4::position::{MAX_SIZE, MIN_SIZE};
use std::fmt;

/// A stone's owner, as the course board writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The other program: 1 on the board.
    Opponent = 1,
    /// This program: 2 on the board.
    Us = 2,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// This player made four in a row.
    Won(Player),
    /// The board filled up without four in a row.
    Tie,
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Won(Player::Us) => write!(f, "we won"),
            Ending::Won(Player::Opponent) => write!(f, "the opponent won"),
            Ending::Tie => write!(f, "a tie"),
        }
    }
}

/// Why the first line cannot start a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// `M` or `N` outside what the engine plays.
    #[error("board size {rows}x{cols} is outside {MIN_SIZE}..={MAX_SIZE}")]
    Size {
        /// Rows given.
        rows: i64,
        /// Columns given.
        cols: i64,
    },
    /// The blocked cell is off the board.
    #[error("blocked cell ({row}, {col}) is off the {rows}x{cols} board")]
    Blocked {
        /// Row given.
        row: i64,
        /// Column given.
        col: i64,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The column is not on the board.
    #[error("column {col} is off the board (0..{cols})")]
    ColumnOff {
        /// Column given.
        col: i64,
        /// Board columns.
        cols: usize,
    },
    /// The column has no free cell.
    #[error("column {col} is full")]
    ColumnFull {
        /// Column given.
        col: usize,
    },
    /// The row is not where a stone in that column lands.
    #[error("({row}, {col}) is not the landing cell of column {col}, which is row {landing}")]
    WrongRow {
        /// Row given.
        row: i64,
        /// Column given.
        col: usize,
        /// Where a stone in `col` lands now.
        landing: usize,
    },
    /// The game is already over.
    #[error("the game is already over ({0})")]
    Over(Ending),
}

/// The board as the course ABI lays it out, plus who won.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rows: usize,
    cols: usize,
    blocked: (usize, usize),
    top: Vec<i32>,
    board: Vec<i32>,
    moves: usize,
    ending: Option<Ending>,
}

impl Game {
    /// The empty board of the platform's first line `M N noX noY`.
    pub fn new(
        rows: i64,
        cols: i64,
        blocked_row: i64,
        blocked_col: i64,
    ) -> Result<Game, SetupError> {
        let size_ok = |v: i64| (MIN_SIZE as i64..=MAX_SIZE as i64).contains(&v);
        if !size_ok(rows) || !size_ok(cols) {
            return Err(SetupError::Size { rows, cols });
        }
        let (m, n) = (rows as usize, cols as usize);
        if !(0..rows).contains(&blocked_row) || !(0..cols).contains(&blocked_col) {
            return Err(SetupError::Blocked {
                row: blocked_row,
                col: blocked_col,
                rows: m,
                cols: n,
            });
        }
        let blocked = (blocked_row as usize, blocked_col as usize);
        // A blocked bottom cell is skipped from the start (docs/ABI.md).
        let top = (0..n)
            .map(|c| m as i32 - i32::from(blocked == (m - 1, c)))
            .collect();
        Ok(Game {
            rows: m,
            cols: n,
            blocked,
            top,
            board: vec![0; m * n],
            moves: 0,
            ending: None,
        })
    }

    /// Rows (`M`).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns (`N`).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The blocked cell `(noX, noY)`.
    pub fn blocked(&self) -> (usize, usize) {
        self.blocked
    }

    /// The course's `top` array.
    pub fn top(&self) -> &[i32] {
        &self.top
    }

    /// The course's board, row-major, from our point of view.
    pub fn board(&self) -> &[i32] {
        &self.board
    }

    /// Stones played so far.
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// How the game ended, once it has.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The row a stone in `col` lands on, if the column has room.
    pub fn landing_row(&self, col: usize) -> Option<usize> {
        (col < self.cols && self.top[col] > 0).then(|| self.top[col] as usize - 1)
    }

    /// Plays `player`'s stone at `(row, col)` after checking it is the landing cell of an
    /// open column in a game still going.
    pub fn play(&mut self, player: Player, row: i64, col: i64) -> Result<(), MoveError> {
        if let Some(ending) = self.ending {
            return Err(MoveError::Over(ending));
        }
        if !(0..self.cols as i64).contains(&col) {
            return Err(MoveError::ColumnOff {
                col,
                cols: self.cols,
            });
        }
        let col = col as usize;
        let landing = self.landing_row(col).ok_or(MoveError::ColumnFull { col })?;
        if row != landing as i64 {
            return Err(MoveError::WrongRow { row, col, landing });
        }
        self.board[landing * self.cols + col] = player as i32;
        // The next free cell is the one above, or the one above that past the blocked cell.
        let mut next = landing;
        if next > 0 && (next - 1, col) == self.blocked {
            next -= 1;
        }
        self.top[col] = next as i32;
        self.moves += 1;
        if self.makes_four(player, landing, col) {
            self.ending = Some(Ending::Won(player));
        } else if self.top.iter().all(|&t| t == 0) {
            self.ending = Some(Ending::Tie);
        }
        Ok(())
    }

    /// True iff `player`'s stone at `(row, col)` is part of four or more in a line.
    fn makes_four(&self, player: Player, row: usize, col: usize) -> bool {
        let value = player as i32;
        let owns = |r: i64, c: i64| {
            (0..self.rows as i64).contains(&r)
                && (0..self.cols as i64).contains(&c)
                && self.board[r as usize * self.cols + c as usize] == value
        };
        [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
            let run = |sign: i64| {
                (1..4)
                    .take_while(|&k| owns(row as i64 + sign * k * dr, col as i64 + sign * k * dc))
                    .count()
            };
            1 + run(1) + run(-1) >= 4
        })
    }

    /// The first difference between the platform's `top` and board and this record, as a
    /// sentence; `None` when they agree.
    pub fn contradiction(&self, top: &[i64], board: &[i64]) -> Option<String> {
        debug_assert!(top.len() == self.cols && board.len() == self.rows * self.cols);
        if let Some(i) = (0..self.rows * self.cols).find(|&i| board[i] != i64::from(self.board[i]))
        {
            let (row, col) = (i / self.cols, i % self.cols);
            return Some(format!(
                "the platform's board has {} at ({row}, {col}) where the {} moves so far put {}",
                board[i], self.moves, self.board[i]
            ));
        }
        if let Some(col) = (0..self.cols).find(|&c| top[c] != i64::from(self.top[c])) {
            return Some(format!(
                "the platform's top[{col}] is {} where the {} moves so far give {}",
                top[col], self.moves, self.top[col]
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_skips_the_blocked_cell() {
        let mut game = Game::new(5, 4, 3, 1).unwrap();
        assert_eq!(game.top(), &[5, 5, 5, 5]);
        game.play(Player::Us, 4, 1).unwrap();
        assert_eq!(
            game.top()[1],
            3,
            "row 3 is blocked: the next stone lands on row 2"
        );
        game.play(Player::Opponent, 2, 1).unwrap();
        assert_eq!(game.board()[2 * 4 + 1], 1);
        assert_eq!(game.board()[3 * 4 + 1], 0);
        let bottom = Game::new(5, 4, 4, 2).unwrap();
        assert_eq!(bottom.top(), &[5, 5, 4, 5]);
    }

    #[test]
    fn rejects_illegal_moves() {
        let mut game = Game::new(4, 4, 0, 0).unwrap();
        assert_eq!(
            game.play(Player::Us, 3, 4),
            Err(MoveError::ColumnOff { col: 4, cols: 4 })
        );
        assert_eq!(
            game.play(Player::Us, 2, 0),
            Err(MoveError::WrongRow {
                row: 2,
                col: 0,
                landing: 3
            })
        );
        for row in [3, 2, 1] {
            game.play(Player::Us, row, 0).unwrap();
            if row > 1 {
                game.play(Player::Opponent, row, 3).unwrap();
            }
        }
        assert_eq!(game.top()[0], 0, "row 0 of column 0 is blocked");
        assert_eq!(
            game.play(Player::Opponent, 0, 0),
            Err(MoveError::ColumnFull { col: 0 })
        );
    }

    #[test]
    fn sees_wins_in_every_direction_and_ties() {
        let mut across = Game::new(6, 7, 0, 6).unwrap();
        for col in 0..3 {
            across.play(Player::Us, 5, col).unwrap();
            across.play(Player::Opponent, 4, col).unwrap();
        }
        across.play(Player::Us, 5, 3).unwrap();
        assert_eq!(across.ending(), Some(Ending::Won(Player::Us)));
        assert!(matches!(
            across.play(Player::Opponent, 4, 3),
            Err(MoveError::Over(_))
        ));

        // An anti-diagonal for the opponent: (5,0) (4,1) (3,2) (2,3).
        let mut diagonal = Game::new(6, 7, 0, 6).unwrap();
        let moves = [
            (Player::Opponent, 0),
            (Player::Us, 1),
            (Player::Opponent, 1),
            (Player::Us, 2),
            (Player::Us, 2),
            (Player::Opponent, 2),
            (Player::Us, 3),
            (Player::Us, 3),
            (Player::Us, 3),
            (Player::Opponent, 3),
        ];
        for (player, col) in moves {
            let row = diagonal.landing_row(col).unwrap() as i64;
            diagonal.play(player, row, col as i64).unwrap();
        }
        assert_eq!(diagonal.ending(), Some(Ending::Won(Player::Opponent)));

        let mut tie = Game::new(4, 4, 0, 0).unwrap();
        // Columns filled in pairs so that no line of four forms: 1 1 2 2 / 2 2 1 1 per row.
        let order = [0, 1, 2, 3, 0, 1, 2, 3, 1, 0, 3, 2, 1, 2, 3];
        let mut player = Player::Us;
        for col in order {
            assert_eq!(tie.ending(), None);
            let row = tie.landing_row(col).unwrap() as i64;
            tie.play(player, row, col as i64).unwrap();
            player = match player {
                Player::Us => Player::Opponent,
                Player::Opponent => Player::Us,
            };
        }
        assert_eq!(tie.ending(), Some(Ending::Tie), "{:?}", tie.board());
    }

    #[test]
    fn reports_the_first_contradiction() {
        let mut game = Game::new(4, 4, 0, 3).unwrap();
        game.play(Player::Opponent, 3, 1).unwrap();
        let top: Vec<i64> = game.top().iter().map(|&t| t.into()).collect();
        let mut board: Vec<i64> = game.board().iter().map(|&v| v.into()).collect();
        assert_eq!(game.contradiction(&top, &board), None);
        board[3 * 4 + 1] = 2;
        let message = game.contradiction(&top, &board).unwrap();
        assert!(message.contains("(3, 1)"), "{message}");
        board[3 * 4 + 1] = 1;
        let mut wrong_top = top.clone();
        wrong_top[0] = 3;
        assert!(
            game.contradiction(&wrong_top, &board)
                .unwrap()
                .contains("top[0]")
        );
    }
}
