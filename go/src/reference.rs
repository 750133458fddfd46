//! The reference rules: slow and obviously right, the oracle the property tests hold the fast
//! rules ([`crate::board`], [`crate::game`]) to.
//!
//! A plain grid of `Option<Color>`; groups and liberties by flood fill; a move is played on a
//! copy, the opponent's groups left without liberties are removed, and the move is refused if
//! its own group then has none; the whole grid of every earlier position is kept, so
//! positional superko is a set lookup of the grid itself, not of a hash. Nothing is kept
//! incrementally, so nothing can drift.

use std::collections::HashMap;

use crate::game::IllegalMove;
use crate::point::{Color, Move, Point};

/// A whole-board position: row by row from the top.
pub type Grid = Vec<Option<Color>>;

/// A game under the reference rules.
#[derive(Clone, Debug)]
pub struct Reference {
    size: usize,
    komi: f64,
    grid: Grid,
    /// Every position so far (after the setup, then after each move), and how often each
    /// occurred (undo decrements).
    history: Vec<Grid>,
    seen: HashMap<Grid, u32>,
    /// Moves so far with their colour.
    moves: Vec<(Color, Move)>,
    captures: [u32; 2],
    resigned: bool,
    /// States before each move, for undo.
    undo: Vec<(Grid, [u32; 2], bool)>,
}

impl Reference {
    /// An empty `size` x `size` board.
    pub fn new(size: usize, komi: f64) -> Reference {
        let grid = vec![None; size * size];
        let mut seen = HashMap::new();
        seen.insert(grid.clone(), 1);
        Reference {
            size,
            komi,
            history: vec![grid.clone()],
            grid,
            seen,
            moves: Vec::new(),
            captures: [0; 2],
            resigned: false,
            undo: Vec::new(),
        }
    }

    /// Puts a stone on an empty point before any move (handicap, setup): no capture, no check.
    pub fn place(&mut self, color: Color, p: Point) {
        assert!(self.moves.is_empty(), "setup before the first move");
        let i = self.at(p);
        self.grid[i] = Some(color);
        self.history = vec![self.grid.clone()];
        self.seen = HashMap::from([(self.grid.clone(), 1)]);
    }

    /// The stone on `p`.
    pub fn stone(&self, p: Point) -> Option<Color> {
        self.grid[self.at(p)]
    }

    /// Stones captured so far by `color`.
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[color.index()]
    }

    fn at(&self, p: Point) -> usize {
        usize::from(p.y) * self.size + usize::from(p.x)
    }

    fn neighbors(&self, i: usize) -> Vec<usize> {
        let (x, y) = (i % self.size, i / self.size);
        let mut out = Vec::new();
        if x > 0 {
            out.push(i - 1);
        }
        if x + 1 < self.size {
            out.push(i + 1);
        }
        if y > 0 {
            out.push(i - self.size);
        }
        if y + 1 < self.size {
            out.push(i + self.size);
        }
        out
    }

    /// The stones of the group at `i` and its liberties, by flood fill over `grid`.
    fn flood(&self, grid: &Grid, i: usize) -> (Vec<usize>, Vec<usize>) {
        let color = grid[i];
        let mut stones = vec![i];
        let mut libs = Vec::new();
        let mut k = 0;
        while k < stones.len() {
            for n in self.neighbors(stones[k]) {
                if grid[n].is_none() {
                    if !libs.contains(&n) {
                        libs.push(n);
                    }
                } else if grid[n] == color && !stones.contains(&n) {
                    stones.push(n);
                }
            }
            k += 1;
        }
        (stones, libs)
    }

    /// The number of liberties of the group of the stone on `p`.
    pub fn liberties(&self, p: Point) -> usize {
        self.flood(&self.grid, self.at(p)).1.len()
    }

    /// The grid after `color` plays on the empty point `p` and the captures it makes, or the
    /// reason it is illegal.
    fn try_play(&self, color: Color, p: Point) -> Result<(Grid, u32), IllegalMove> {
        if self.resigned {
            return Err(IllegalMove::GameOver);
        }
        if !p.on_board(self.size) {
            return Err(IllegalMove::OffBoard(p));
        }
        let i = self.at(p);
        if self.grid[i].is_some() {
            return Err(IllegalMove::Occupied(p));
        }
        let mut grid = self.grid.clone();
        grid[i] = Some(color);
        let mut captured = 0;
        for n in self.neighbors(i) {
            if grid[n] == Some(color.opponent()) {
                let (stones, libs) = self.flood(&grid, n);
                if libs.is_empty() {
                    for s in stones {
                        grid[s] = None;
                        captured += 1;
                    }
                }
            }
        }
        if self.flood(&grid, i).1.is_empty() {
            return Err(IllegalMove::Suicide(p));
        }
        if self.seen.contains_key(&grid) {
            // Undoing the opponent's last stone is the simple-ko case; any other repeat is
            // positional superko.
            let undoes_last = matches!(self.moves.last(), Some(&(c, Move::Play(_))) if c != color)
                && self.history.len() >= 2
                && grid == self.history[self.history.len() - 2];
            return Err(if undoes_last {
                IllegalMove::Ko(p)
            } else {
                IllegalMove::Superko(p)
            });
        }
        Ok((grid, captured))
    }

    /// Whether `color` may make `mv`.
    pub fn check(&self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        match mv {
            Move::Play(p) => self.try_play(color, p).map(|_| ()),
            _ if self.resigned => Err(IllegalMove::GameOver),
            _ => Ok(()),
        }
    }

    /// Plays `mv` for `color`; returns the stones captured.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<u32, IllegalMove> {
        let (grid, captured) = match mv {
            Move::Play(p) => self.try_play(color, p)?,
            _ if self.resigned => return Err(IllegalMove::GameOver),
            _ => (self.grid.clone(), 0),
        };
        self.undo
            .push((self.grid.clone(), self.captures, self.resigned));
        self.resigned |= mv == Move::Resign;
        self.captures[color.index()] += captured;
        self.grid = grid;
        *self.seen.entry(self.grid.clone()).or_insert(0) += 1;
        self.history.push(self.grid.clone());
        self.moves.push((color, mv));
        Ok(captured)
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some((grid, captures, resigned)) = self.undo.pop() else {
            return false;
        };
        let gone = self.history.pop().expect("a position per move");
        let count = self.seen.get_mut(&gone).expect("a counted position");
        *count -= 1;
        if *count == 0 {
            self.seen.remove(&gone);
        }
        self.moves.pop();
        self.grid = grid;
        self.captures = captures;
        self.resigned = resigned;
        true
    }

    /// Tromp-Taylor: Black's area minus White's minus komi, each empty region flooded to see
    /// which colours it reaches.
    pub fn score(&self) -> f64 {
        let mut area = [0i64; 2];
        for i in 0..self.grid.len() {
            match self.grid[i] {
                Some(c) => area[c.index()] += 1,
                None => {
                    let mut region = vec![i];
                    let mut reach = [false; 2];
                    let mut k = 0;
                    while k < region.len() {
                        for n in self.neighbors(region[k]) {
                            match self.grid[n] {
                                None if !region.contains(&n) => region.push(n),
                                Some(c) => reach[c.index()] = true,
                                None => {}
                            }
                        }
                        k += 1;
                    }
                    // Counts this point only; the flood from each point of a region agrees.
                    match reach {
                        [true, false] => area[0] += 1,
                        [false, true] => area[1] += 1,
                        _ => {}
                    }
                }
            }
        }
        (area[0] - area[1]) as f64 - self.komi
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    fn at(x: usize, y: usize) -> Move {
        Move::Play(Point::new(x, y))
    }

    #[test]
    fn capture_suicide_and_superko_by_the_book() {
        let mut r = Reference::new(2, 0.5);
        assert_eq!(r.play(Black, at(0, 0)), Ok(0));
        assert_eq!(r.play(White, at(1, 1)), Ok(0));
        assert_eq!(r.play(Black, at(1, 0)), Ok(0));
        assert_eq!(r.play(White, at(0, 1)), Ok(2));
        assert_eq!(r.liberties(Point::new(0, 1)), 2);
        assert_eq!(r.play(Black, at(0, 0)), Ok(0));
        assert_eq!(r.play(White, at(1, 0)), Ok(1));
        assert_eq!(
            r.play(Black, at(0, 0)),
            Err(IllegalMove::Superko(Point::new(0, 0)))
        );
        assert!(r.undo());
        assert_eq!(r.stone(Point::new(1, 0)), None);
        assert_eq!(r.captures(White), 2);
        let mut r = Reference::new(3, 0.5);
        r.place(Black, Point::new(1, 0));
        r.place(Black, Point::new(0, 1));
        assert_eq!(
            r.play(White, at(0, 0)),
            Err(IllegalMove::Suicide(Point::new(0, 0)))
        );
        assert_eq!(r.score(), 9.0 - 0.5);
    }
}
