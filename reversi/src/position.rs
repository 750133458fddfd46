//! The rules: a position (two bitboards, the side to move, the last move, the rule set), its
//! legal moves, playing a move or a pass, and the result.
//!
//! A `Position` can only be built valid: from the start, by legal moves, or through
//! [`Position::from_parts`], which checks its input. Everything a referee needs is here:
//! [`Position::legal_moves`], [`Position::play`], [`Position::is_game_over`],
//! [`Position::result`], and `Display` for a text board.

use std::fmt;

use crate::bitboard::{self, Square};

/// A side. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player ("X" on the text board).
    Black,
    /// The second player ("O" on the text board).
    White,
}

impl Color {
    /// The other side.
    pub fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// Parses `b`, `black`, `w`, `white` in any case, as GTP controllers send them.
    pub fn parse(text: &str) -> Option<Color> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// Which rule set the game is played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rule {
    /// Standard Othello.
    #[default]
    Standard,
    /// The course's house rule: a move may not be orthogonally adjacent (`|dr| + |dc| == 1`)
    /// to the opponent's last move; after a pass the rule does not apply; a player with no
    /// move under the rule passes; the game ends when neither side has a standard move.
    NoAdjacent,
}

impl Rule {
    /// Parses `standard` or `no-adjacent` (also `noadjacent`, `no_adjacent`).
    pub fn parse(text: &str) -> Option<Rule> {
        match text.to_ascii_lowercase().as_str() {
            "standard" => Some(Rule::Standard),
            "no-adjacent" | "noadjacent" | "no_adjacent" => Some(Rule::NoAdjacent),
            _ => None,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::Standard => "standard",
            Rule::NoAdjacent => "no-adjacent",
        })
    }
}

/// A move: a disc on a square, or a pass (legal only when no disc move is).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place a disc on this square.
    Play(Square),
    /// Pass the turn.
    Pass,
}

impl Move {
    /// Parses `pass` or a square in Othello notation (case-insensitive).
    pub fn parse(text: &str) -> Option<Move> {
        if text.eq_ignore_ascii_case("pass") {
            Some(Move::Pass)
        } else {
            Square::parse(text).map(Move::Play)
        }
    }
}

impl fmt::Display for Move {
    /// `d3`-style, or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => sq.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Why a move or a position was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// The move is not among the legal moves of the position.
    IllegalMove(Move),
    /// The game is over: nobody may move.
    GameOver,
    /// A square holds both a black and a white disc.
    Overlap(u64),
    /// The last move names an empty square, or one not holding a disc of the side that moved.
    BadLastMove(Square),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::IllegalMove(mv) => write!(f, "illegal move {mv}"),
            RulesError::GameOver => f.write_str("the game is over"),
            RulesError::Overlap(mask) => write!(f, "squares hold both colours: mask {mask:#018x}"),
            RulesError::BadLastMove(sq) => {
                write!(f, "last move {sq} is not a disc of the side that moved")
            }
        }
    }
}

impl std::error::Error for RulesError {}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Black discs on the board.
    pub black: u32,
    /// White discs on the board.
    pub white: u32,
}

impl GameResult {
    /// Black discs minus white discs (empty squares count for nobody).
    pub fn disc_difference(self) -> i32 {
        self.black as i32 - self.white as i32
    }

    /// The side with more discs, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self.black.cmp(&self.white) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The count the World Othello Federation's rules give a finished game: the empty
    /// squares go to the winner (split evenly in a draw, which leaves it a draw). GTP Othello
    /// engines (gtp-rhino, Edax) score a game that ended early this way.
    pub fn empties_to_winner(self) -> GameResult {
        let empties = 64 - self.black - self.white;
        match self.winner() {
            Some(Color::Black) => GameResult {
                black: self.black + empties,
                ..self
            },
            Some(Color::White) => GameResult {
                white: self.white + empties,
                ..self
            },
            None => self,
        }
    }

    /// GTP `final_score` form: `B+n`, `W+n` or `0`.
    pub fn score_string(self) -> String {
        let d = self.disc_difference();
        match d.cmp(&0) {
            std::cmp::Ordering::Greater => format!("B+{d}"),
            std::cmp::Ordering::Less => format!("W+{}", -d),
            std::cmp::Ordering::Equal => "0".to_string(),
        }
    }
}

/// A Reversi position.
///
/// Stored from the side to move: `own` are its discs, `opp` the opponent's (the bit layout is
/// drawn in [`crate::bitboard`]). The last move is kept because the `NoAdjacent` rule forbids
/// the four squares orthogonally next to it, and lifts that after a pass.
///
/// ```
/// use reversi::{Move, Position, Rule};
/// let start = Position::start(Rule::Standard);
/// assert_eq!(start.legal_moves().len(), 4);
/// let next = start.play(Move::parse("d3").unwrap()).unwrap();
/// assert_eq!((next.black_discs(), next.white_discs()), (4, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    own: u64,
    opp: u64,
    to_move: Color,
    last: Option<Move>,
    rule: Rule,
}

impl Position {
    /// The standard start: black on e4 and d5, white on d4 and e5, black to move.
    pub fn start(rule: Rule) -> Position {
        let sq = |s| Square::parse(s).expect("fixed square").bit();
        Position {
            own: sq("e4") | sq("d5"),
            opp: sq("d4") | sq("e5"),
            to_move: Color::Black,
            last: None,
            rule,
        }
    }

    /// A position from its parts, checked: no square holds both colours, and a last move on a
    /// square holds a disc of the side that made it (the side not to move).
    pub fn from_parts(
        black: u64,
        white: u64,
        to_move: Color,
        last: Option<Move>,
        rule: Rule,
    ) -> Result<Position, RulesError> {
        if black & white != 0 {
            return Err(RulesError::Overlap(black & white));
        }
        let (own, opp) = match to_move {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        if let Some(Move::Play(sq)) = last
            && opp & sq.bit() == 0
        {
            return Err(RulesError::BadLastMove(sq));
        }
        Ok(Position {
            own,
            opp,
            to_move,
            last,
            rule,
        })
    }

    /// The rule set this game is played under.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The move that led here (`None` at the start or for a position built without one).
    pub fn last_move(&self) -> Option<Move> {
        self.last
    }

    /// Discs of the side to move.
    pub fn own(&self) -> u64 {
        self.own
    }

    /// Discs of the side not to move.
    pub fn opp(&self) -> u64 {
        self.opp
    }

    /// Black discs.
    pub fn black(&self) -> u64 {
        match self.to_move {
            Color::Black => self.own,
            Color::White => self.opp,
        }
    }

    /// White discs.
    pub fn white(&self) -> u64 {
        match self.to_move {
            Color::Black => self.opp,
            Color::White => self.own,
        }
    }

    /// Number of black discs.
    pub fn black_discs(&self) -> u32 {
        self.black().count_ones()
    }

    /// Number of white discs.
    pub fn white_discs(&self) -> u32 {
        self.white().count_ones()
    }

    /// Number of empty squares.
    pub fn empties(&self) -> u32 {
        64 - (self.own | self.opp).count_ones()
    }

    /// The squares the house rule forbids to the side to move now (0 under `Standard`, after a
    /// pass, and at the start).
    pub fn forbidden(&self) -> u64 {
        match (self.rule, self.last) {
            (Rule::NoAdjacent, Some(Move::Play(sq))) => sq.orthogonal_neighbours(),
            _ => 0,
        }
    }

    /// The squares the side to move may play on (a mask; empty means pass or game over).
    #[inline]
    pub fn move_mask(&self) -> u64 {
        bitboard::legal_moves(self.own, self.opp) & !self.forbidden()
    }

    /// True when neither side has a move under the standard rules: the game is over.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        bitboard::legal_moves(self.own, self.opp) == 0
            && bitboard::legal_moves(self.opp, self.own) == 0
    }

    /// True when the side to move has no square to play but the game goes on: it must pass.
    #[inline]
    pub fn must_pass(&self) -> bool {
        self.move_mask() == 0 && !self.is_game_over()
    }

    /// The legal moves, squares in index order; `[Pass]` when passing is forced; empty when
    /// the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mask = self.move_mask();
        if mask != 0 {
            bitboard::squares(mask).map(Move::Play).collect()
        } else if self.is_game_over() {
            Vec::new()
        } else {
            vec![Move::Pass]
        }
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        match mv {
            Move::Play(sq) => self.move_mask() & sq.bit() != 0,
            Move::Pass => self.must_pass(),
        }
    }

    /// The position after `mv`, or why it is not legal.
    pub fn play(&self, mv: Move) -> Result<Position, RulesError> {
        if self.is_game_over() {
            return Err(RulesError::GameOver);
        }
        if !self.is_legal(mv) {
            return Err(RulesError::IllegalMove(mv));
        }
        Ok(self.play_unchecked(mv))
    }

    /// The position after `mv`, which the caller knows to be legal (search uses this; an
    /// illegal square still gives a valid position, just not one the rules reach).
    #[inline]
    pub fn play_unchecked(&self, mv: Move) -> Position {
        match mv {
            Move::Play(sq) => {
                let flipped = bitboard::flips(self.own, self.opp, sq);
                Position {
                    own: self.opp & !flipped,
                    opp: self.own | flipped | sq.bit(),
                    to_move: self.to_move.other(),
                    last: Some(mv),
                    rule: self.rule,
                }
            }
            Move::Pass => Position {
                own: self.opp,
                opp: self.own,
                to_move: self.to_move.other(),
                last: Some(Move::Pass),
                rule: self.rule,
            },
        }
    }

    /// The disc counts once the game is over, `None` before.
    pub fn result(&self) -> Option<GameResult> {
        self.is_game_over().then(|| self.score())
    }

    /// The disc counts now, whether or not the game is over.
    pub fn score(&self) -> GameResult {
        GameResult {
            black: self.black_discs(),
            white: self.white_discs(),
        }
    }

    /// Own discs minus opponent discs, from the side to move.
    pub fn disc_margin(&self) -> i32 {
        self.own.count_ones() as i32 - self.opp.count_ones() as i32
    }

    /// The board as 8 rows of `X` (black), `O` (white), `.`, one line each, no labels: the
    /// compact form for logs and tests.
    pub fn board_string(&self) -> String {
        let (black, white) = (self.black(), self.white());
        let mut out = String::with_capacity(72);
        for row in 0..8 {
            for col in 0..8 {
                let bit = 1u64 << (row * 8 + col);
                out.push(if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else {
                    '.'
                });
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Position {
    /// A labelled text board (`X` black, `O` white), then the side to move and the counts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "   a b c d e f g h")?;
        for (row, line) in self.board_string().lines().enumerate() {
            write!(f, "{} ", row + 1)?;
            for c in line.chars() {
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(
            f,
            "{} to move; black (X) {}, white (O) {}; rule {}",
            self.to_move,
            self.black_discs(),
            self.white_discs(),
            self.rule
        )
    }
}

/// Counts the move paths of length `depth` from `pos` (a forced pass counts as a move; a
/// finished game is a leaf), the standard check of move generation against published counts.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mask = pos.move_mask();
    if mask == 0 {
        if pos.is_game_over() {
            return 1;
        }
        return perft(&pos.play_unchecked(Move::Pass), depth - 1);
    }
    if depth == 1 {
        return u64::from(mask.count_ones());
    }
    bitboard::squares(mask)
        .map(|sq| perft(&pos.play_unchecked(Move::Play(sq)), depth - 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_has_four_moves_and_four_discs() {
        let p = Position::start(Rule::Standard);
        let moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["d3", "c4", "f5", "e6"]);
        assert_eq!((p.black_discs(), p.white_discs(), p.empties()), (2, 2, 60));
    }

    #[test]
    fn perft_matches_published_counts_to_depth_6() {
        let p = Position::start(Rule::Standard);
        let expected = [1, 4, 12, 56, 244, 1396, 8200];
        for (depth, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&p, depth as u32), n, "depth {depth}");
        }
    }

    #[test]
    fn no_adjacent_forbids_the_four_neighbours_of_the_last_move() {
        let p = Position::start(Rule::NoAdjacent)
            .play(Move::parse("d3").unwrap())
            .unwrap();
        // White's standard replies are c3, e3, c5; e3 and c3 touch d3 orthogonally.
        let moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["c5"]);
        assert!(p.play(Move::parse("e3").unwrap()).is_err());
    }

    #[test]
    fn from_parts_rejects_overlap_and_bad_last_move() {
        assert!(matches!(
            Position::from_parts(1, 1, Color::Black, None, Rule::Standard),
            Err(RulesError::Overlap(1))
        ));
        let sq = Square::new(5).unwrap();
        assert!(matches!(
            Position::from_parts(1, 2, Color::Black, Some(Move::Play(sq)), Rule::Standard),
            Err(RulesError::BadLastMove(_))
        ));
    }

    #[test]
    fn score_strings() {
        let r = GameResult {
            black: 40,
            white: 24,
        };
        assert_eq!(r.score_string(), "B+16");
        assert_eq!(
            GameResult {
                black: 20,
                white: 30
            }
            .score_string(),
            "W+10"
        );
        assert_eq!(
            GameResult {
                black: 32,
                white: 32
            }
            .score_string(),
            "0"
        );
    }

    #[test]
    fn empty_squares_go_to_the_winner() {
        // A wipe-out after nine moves: 13 black discs, 51 empty squares.
        let wipe_out = GameResult {
            black: 13,
            white: 0,
        };
        assert_eq!(wipe_out.empties_to_winner().score_string(), "B+64");
        let close = GameResult {
            black: 30,
            white: 31,
        };
        assert_eq!(
            close.empties_to_winner(),
            GameResult {
                black: 30,
                white: 34
            }
        );
        let drawn = GameResult {
            black: 30,
            white: 30,
        };
        assert_eq!(drawn.empties_to_winner().score_string(), "0");
    }
}
