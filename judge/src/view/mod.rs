//! Views of games for people: `judge play` (a person against a library, in the
//! terminal), `judge replay` (step through a logged game) and `report.html` (results,
//! Elo chart and a game viewer in one self-contained file).
//!
//! Views sit at the end of the judge's data flow: they read the game log and summary,
//! and play through the same referee and library host as tournaments. Nothing upstream
//! knows about them.

pub mod html;
pub mod play;
pub mod replay;
mod term;

use crate::referee::BoardSpec;

/// Who owns a cell, for drawing: stones by mover, independent of any side's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    Empty,
    First,
    Second,
}

/// A board to draw: `cells[x * N + y]`, row 0 on top, as in the course ABI.
struct Grid {
    spec: BoardSpec,
    cells: Vec<Cell>,
}

impl Grid {
    /// The position after the stones `landed` (cells in move order, first mover first).
    fn from_moves(spec: BoardSpec, landed: &[(i32, i32)]) -> Grid {
        let mut g = Grid {
            spec,
            cells: vec![Cell::Empty; (spec.m * spec.n).max(0) as usize],
        };
        for (ply, &(x, y)) in landed.iter().enumerate() {
            let who = if ply % 2 == 0 {
                Cell::First
            } else {
                Cell::Second
            };
            g.set(x, y, who);
        }
        g
    }

    fn set(&mut self, x: i32, y: i32, who: Cell) {
        if let Some(c) = self.index(x, y).and_then(|i| self.cells.get_mut(i)) {
            *c = who;
        }
    }

    fn get(&self, x: i32, y: i32) -> Cell {
        self.index(x, y)
            .and_then(|i| self.cells.get(i).copied())
            .unwrap_or(Cell::Empty)
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        ((0..self.spec.m).contains(&x) && (0..self.spec.n).contains(&y))
            .then(|| (x * self.spec.n + y) as usize)
    }

    /// The cells of the longest line of 4 or more through `(x, y)`, if there is one.
    fn line_through(&self, x: i32, y: i32) -> Vec<(i32, i32)> {
        let who = self.get(x, y);
        if who == Cell::Empty {
            return Vec::new();
        }
        [(0, 1), (1, 0), (1, 1), (1, -1)]
            .iter()
            .map(|&(dx, dy)| {
                let run = |s: i32| {
                    (1..)
                        .take_while(|&k| {
                            let (a, b) = (x + s * k * dx, y + s * k * dy);
                            self.index(a, b).is_some() && self.get(a, b) == who
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
}

/// The key of column `y` (columns 0..11: `0`-`9`, then `a`, `b`).
fn column_key(y: i32) -> char {
    std::char::from_digit(y as u32, 36).unwrap_or('?')
}

/// The column a key names, if any (`0`-`9`, `a`-`z` for 10 and up).
fn key_column(c: char) -> Option<i32> {
    c.to_digit(36).map(|d| d as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_columns_round_trip() {
        for y in 0..12 {
            assert_eq!(key_column(column_key(y)), Some(y));
        }
        assert_eq!(column_key(10), 'a');
        assert_eq!(key_column('B'), Some(11));
        assert_eq!(key_column('!'), None);
    }

    #[test]
    fn winning_line_is_found_through_the_last_stone() {
        let spec = BoardSpec {
            m: 6,
            n: 7,
            no_x: 0,
            no_y: 0,
        };
        // First mover: bottom row columns 1..=4; second mover stacks on column 6.
        let landed = [(5, 1), (5, 6), (5, 2), (4, 6), (5, 3), (3, 6), (5, 4)];
        let g = Grid::from_moves(spec, &landed);
        assert_eq!(g.line_through(5, 4), vec![(5, 1), (5, 2), (5, 3), (5, 4)]);
        assert!(g.line_through(3, 6).is_empty());
        assert!(g.line_through(0, 0).is_empty());
    }
}
