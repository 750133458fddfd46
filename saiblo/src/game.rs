//! The program's own record of the game, kept from the moves alone on the library's
//! [`Position`].
//!
//! The platform may send only the opponent's last move, so the program must know the board
//! without it; when the platform does send `top` and the board, this record is what they are
//! checked against. The rules (where a stone lands, the blocked cell, four in a row, a full
//! board) are the library's; what is the program's own is checking the platform's move as
//! it writes it (`row col`, the landing cell of an open column in a game still going) and
//! showing the record as the course lays it out from our point of view: 0 empty, 1 the
//! opponent, 2 us; row 0 is the top row; `top[col] - 1` is the row the next stone in `col`
//! lands on, past the blocked cell.

use gravity4::position::{Position, PositionError, Side};
use std::fmt;

/// A stone's owner, as the course board writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The other program: 1 on the board.
    Opponent = 1,
    /// This program: 2 on the board.
    Us = 2,
}

impl Player {
    fn other(self) -> Player {
        match self {
            Player::Opponent => Player::Us,
            Player::Us => Player::Opponent,
        }
    }
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

/// The game so far: the library's position, who moved first, its moves, and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The stones, `top` and the win test. A new position has [`Side::Us`] to move, so its
    /// `Us` is whoever drops the first stone.
    position: Position,
    /// Who dropped the first stone, once someone has.
    first: Option<Player>,
    /// Every stone in the order played: who, row, column (for checking a game afterwards).
    history: Vec<(Player, usize, usize)>,
    ending: Option<Ending>,
}

impl Game {
    /// The empty board of the platform's first line `M N noX noY`; the error is the
    /// library's, naming the values as given.
    pub fn new(
        rows: i64,
        cols: i64,
        blocked_row: i64,
        blocked_col: i64,
    ) -> Result<Game, PositionError> {
        let size = |v: i64| usize::try_from(v).map_err(|_| PositionError::BadSize { rows, cols });
        // A negative coordinate is off the board like a large one; the library says so,
        // and the error then shows the coordinates the platform sent.
        let coordinate = |v: i64| usize::try_from(v).unwrap_or(usize::MAX);
        let position = Position::new(
            size(rows)?,
            size(cols)?,
            coordinate(blocked_row),
            coordinate(blocked_col),
        )
        .map_err(|error| match error {
            PositionError::BlockedOffBoard { rows, cols, .. } => PositionError::BlockedOffBoard {
                row: blocked_row,
                col: blocked_col,
                rows,
                cols,
            },
            other => other,
        })?;
        Ok(Game {
            position,
            first: None,
            history: Vec::new(),
            ending: None,
        })
    }

    /// Rows (`M`).
    pub fn rows(&self) -> usize {
        self.position.rows()
    }

    /// Columns (`N`).
    pub fn cols(&self) -> usize {
        self.position.cols()
    }

    /// The blocked cell `(noX, noY)`.
    pub fn blocked(&self) -> (usize, usize) {
        self.position.blocked()
    }

    /// Stones played so far.
    pub fn moves(&self) -> usize {
        self.position.ply()
    }

    /// Every stone in the order played: who, row, column.
    pub fn history(&self) -> &[(Player, usize, usize)] {
        &self.history
    }

    /// How the game ended, once it has.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The row a stone in `col` lands on, if the column has room.
    pub fn landing_row(&self, col: usize) -> Option<usize> {
        self.position
            .can_play(col)
            .then(|| self.position.landing_row(col))
    }

    /// Plays `player`'s stone at `(row, col)` after checking it is the landing cell of an
    /// open column in a game still going. The caller alternates the players.
    pub fn play(&mut self, player: Player, row: i64, col: i64) -> Result<(), MoveError> {
        if let Some(ending) = self.ending {
            return Err(MoveError::Over(ending));
        }
        if !(0..self.cols() as i64).contains(&col) {
            return Err(MoveError::ColumnOff {
                col,
                cols: self.cols(),
            });
        }
        let col = col as usize;
        let landing = self.landing_row(col).ok_or(MoveError::ColumnFull { col })?;
        if row != landing as i64 {
            return Err(MoveError::WrongRow { row, col, landing });
        }
        self.first.get_or_insert(player);
        assert_eq!(
            self.owner(self.position.to_move()),
            player,
            "the players alternate"
        );
        self.history.push((player, row as usize, col));
        if self.position.play(col) {
            self.ending = Some(Ending::Won(player));
        } else if self.position.open_columns() == 0 {
            self.ending = Some(Ending::Tie);
        }
        Ok(())
    }

    /// Who plays `side` of the position (called once a stone is down).
    fn owner(&self, side: Side) -> Player {
        let first = self.first.expect("the first stone is down");
        match side {
            Side::Us => first,
            Side::Them => first.other(),
        }
    }

    /// The course's `top` array.
    pub fn top(&self) -> Vec<i32> {
        (0..self.cols())
            .map(|col| self.position.top(col) as i32)
            .collect()
    }

    /// The course's board, row-major, from our point of view.
    pub fn board(&self) -> Vec<i32> {
        let cols = self.cols();
        (0..self.rows() * cols)
            .map(|i| match self.position.stone(i / cols, i % cols) {
                Some(side) => self.owner(side) as i32,
                None => 0,
            })
            .collect()
    }

    /// The position with us to move, as the library's search takes it (`Side::Us` to
    /// move, whoever moved first): built from the course's arrays, as the C ABI builds it.
    pub fn for_search(&self) -> Result<Position, PositionError> {
        let (blocked_row, blocked_col) = self.blocked();
        Position::from_course(
            self.rows() as i64,
            self.cols() as i64,
            &self.top(),
            &self.board(),
            blocked_row as i64,
            blocked_col as i64,
        )
    }

    /// The first difference between the platform's `top` and board and this record, as a
    /// sentence; `None` when they agree.
    pub fn contradiction(&self, top: &[i64], board: &[i64]) -> Option<String> {
        let (ours_top, ours_board) = (self.top(), self.board());
        debug_assert!(top.len() == ours_top.len() && board.len() == ours_board.len());
        let moves = self.moves();
        if let Some(i) = (0..board.len()).find(|&i| board[i] != i64::from(ours_board[i])) {
            let (row, col) = (i / self.cols(), i % self.cols());
            return Some(format!(
                "the platform's board has {} at ({row}, {col}) where the {moves} moves so far put {}",
                board[i], ours_board[i]
            ));
        }
        if let Some(col) = (0..top.len()).find(|&c| top[c] != i64::from(ours_top[c])) {
            return Some(format!(
                "the platform's top[{col}] is {} where the {moves} moves so far give {}",
                top[col], ours_top[col]
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_bad_first_lines_with_the_values_sent() {
        let error = |m, n, x, y| Game::new(m, n, x, y).unwrap_err().to_string();
        assert_eq!(error(3, 9, 0, 0), "board size 3x9 is outside 4..=12");
        assert_eq!(error(-5, 9, 0, 0), "board size -5x9 is outside 4..=12");
        assert_eq!(error(9, 13, -1, 0), "board size 9x13 is outside 4..=12");
        assert_eq!(
            error(9, 9, 9, 0),
            "blocked cell (9, 0) is off the 9x9 board"
        );
        assert_eq!(
            error(9, 9, 2, -3),
            "blocked cell (2, -3) is off the 9x9 board"
        );
    }

    #[test]
    fn top_skips_the_blocked_cell() {
        let mut game = Game::new(5, 4, 3, 1).unwrap();
        assert_eq!(game.top(), [5, 5, 5, 5]);
        game.play(Player::Us, 4, 1).unwrap();
        assert_eq!(
            game.top()[1],
            3,
            "row 3 is blocked: the next stone lands on row 2"
        );
        game.play(Player::Opponent, 2, 1).unwrap();
        assert_eq!(game.board()[2 * 4 + 1], 1);
        assert_eq!(game.board()[3 * 4 + 1], 0);
        assert_eq!(game.board()[4 * 4 + 1], 2);
        assert_eq!(
            game.history(),
            [(Player::Us, 4, 1), (Player::Opponent, 2, 1)]
        );
        let bottom = Game::new(5, 4, 4, 2).unwrap();
        assert_eq!(bottom.top(), [5, 5, 4, 5]);
    }

    #[test]
    fn rejects_illegal_moves() {
        let mut game = Game::new(4, 4, 0, 0).unwrap();
        assert_eq!(
            game.play(Player::Us, 3, 4),
            Err(MoveError::ColumnOff { col: 4, cols: 4 })
        );
        assert_eq!(
            game.play(Player::Us, 2, -1),
            Err(MoveError::ColumnOff { col: -1, cols: 4 })
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
            game.play(Player::Opponent, row, 3).unwrap();
        }
        assert_eq!(game.top()[0], 0, "row 0 of column 0 is blocked");
        assert_eq!(
            game.play(Player::Us, 0, 0),
            Err(MoveError::ColumnFull { col: 0 })
        );
    }

    #[test]
    fn sees_wins_for_either_player_and_ties() {
        // The opponent moves first and wins across the bottom row.
        let mut across = Game::new(6, 7, 0, 6).unwrap();
        for col in 0..3 {
            across.play(Player::Opponent, 5, col).unwrap();
            across.play(Player::Us, 4, col).unwrap();
        }
        across.play(Player::Opponent, 5, 3).unwrap();
        assert_eq!(across.ending(), Some(Ending::Won(Player::Opponent)));
        assert_eq!(across.board()[5 * 7], 1, "the first mover's stones are 1");
        assert!(matches!(
            across.play(Player::Us, 4, 3),
            Err(MoveError::Over(Ending::Won(Player::Opponent)))
        ));

        // We move first and win up the anti-diagonal (5,0) (4,1) (3,2) (2,3).
        let mut diagonal = Game::new(6, 7, 0, 6).unwrap();
        let mut player = Player::Us;
        for col in [0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3] {
            let row = diagonal.landing_row(col).unwrap() as i64;
            diagonal.play(player, row, col as i64).unwrap();
            player = player.other();
        }
        assert_eq!(diagonal.ending(), Some(Ending::Won(Player::Us)));
        assert_eq!(diagonal.board()[2 * 7 + 3], 2);

        let mut tie = Game::new(4, 4, 0, 0).unwrap();
        // Columns filled in pairs so that no line of four forms: 1 1 2 2 / 2 2 1 1 per row.
        let order = [0, 1, 2, 3, 0, 1, 2, 3, 1, 0, 3, 2, 1, 2, 3];
        let mut player = Player::Us;
        for col in order {
            assert_eq!(tie.ending(), None);
            let row = tie.landing_row(col).unwrap() as i64;
            tie.play(player, row, col as i64).unwrap();
            player = player.other();
        }
        assert_eq!(tie.ending(), Some(Ending::Tie), "{:?}", tie.board());
    }

    #[test]
    fn the_search_gets_us_to_move_whoever_started() {
        let mut game = Game::new(6, 7, 0, 6).unwrap();
        game.play(Player::Opponent, 5, 3).unwrap();
        let position = game.for_search().unwrap();
        assert_eq!(position.to_move(), Side::Us);
        assert_eq!(position.stone(5, 3), Some(Side::Them));
        game.play(Player::Us, 4, 3).unwrap();
        game.play(Player::Opponent, 5, 2).unwrap();
        let position = game.for_search().unwrap();
        assert_eq!(position.stone(4, 3), Some(Side::Us));
        assert_eq!(position.ply(), 3);
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
        assert_eq!(
            message,
            "the platform's board has 2 at (3, 1) where the 1 moves so far put 1"
        );
        board[3 * 4 + 1] = 1;
        let mut wrong_top = top.clone();
        wrong_top[0] = 3;
        assert_eq!(
            game.contradiction(&wrong_top, &board).unwrap(),
            "the platform's top[0] is 3 where the 1 moves so far give 4"
        );
    }
}
