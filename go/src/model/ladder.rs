//! Ladders: whether a group with two liberties, its opponent to move, is caught by a run of
//! ataris. The reading is the textbook one: the attacker ataris on one of the two liberties
//! (a stone that is not itself left in atari), the defender extends on the last liberty or
//! captures an attacking stone in atari; the group is caught when an extension leaves it one
//! liberty, escapes when it leaves three, and the reading goes on at two. A node budget keeps
//! the worst case short; running out counts as an escape.

use crate::board::{Board, stone};
use crate::point::Color;

/// Positions read at most by one ladder question.
const NODE_BUDGET: u32 = 200;

/// True when the group at `prey` (two liberties, its owner's opponent to move) is caught in
/// a ladder.
pub fn caught(board: &Board, prey: usize) -> bool {
    let mut budget = NODE_BUDGET;
    attack(board, prey, &mut budget)
}

/// True when the group at `prey` (in atari, its owner to move) cannot run: extending on its
/// last liberty leaves it caught, and no attacking stone next to it is in atari.
pub fn cannot_run(board: &Board, prey: usize) -> bool {
    let mut budget = NODE_BUDGET;
    !defend(board, prey, &mut budget)
}

/// The attacker to move against the two-liberty group at `prey`: true when an atari wins.
fn attack(board: &Board, prey: usize, budget: &mut u32) -> bool {
    let Some(owner) = crate::board::stone_color(board.at(prey)) else {
        return false;
    };
    let attacker = owner.opponent();
    let head = board.group(prey);
    let libs: Vec<usize> = board.group_libs(head).collect();
    if libs.len() != 2 {
        return libs.len() < 2;
    }
    for &lib in &libs {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        // The atari's stone must keep two liberties, or the defender takes it.
        if !board.is_legal(attacker, lib) || board.libs_after(attacker, lib, 2) < 2 {
            continue;
        }
        let mut next = board.clone();
        next.play(attacker, lib);
        if next.libs(prey) == 1 && !defend(&next, prey, budget) {
            return true;
        }
    }
    false
}

/// The defender to move with the group at `prey` in atari: true when it gets out.
fn defend(board: &Board, prey: usize, budget: &mut u32) -> bool {
    if *budget == 0 {
        return true;
    }
    *budget -= 1;
    let Some(owner) = crate::board::stone_color(board.at(prey)) else {
        return false;
    };
    if captures_attacker(board, prey, owner) {
        return true;
    }
    let head = board.group(prey);
    let lib = board.first_lib(head);
    if !board.is_legal(owner, lib) {
        return false;
    }
    let mut next = board.clone();
    next.play(owner, lib);
    match next.libs(prey) {
        0 | 1 => false,
        2 => !attack(&next, prey, budget),
        _ => true,
    }
}

/// True when a stone of the attacker next to the group at `prey` is in atari (the defender
/// takes it and the ladder breaks).
fn captures_attacker(board: &Board, prey: usize, owner: Color) -> bool {
    let attacker = stone(owner.opponent());
    board.group_stones(board.group(prey)).any(|s| {
        board
            .neighbors(s)
            .iter()
            .any(|&n| board.at(n) == attacker && board.libs(n) == 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tests::board;
    use crate::point::Point;

    #[test]
    fn a_ladder_towards_an_empty_corner_works_and_a_breaker_stops_it() {
        // The white stone at (3, 4) with two liberties, right and below: an atari on either
        // starts a ladder (down and left, or up and right).
        let mut rows = [
            ".........",
            ".........",
            ".........",
            "...X.....",
            "..XO.....",
            "....X....",
            ".........",
            ".........",
            ".........",
        ];
        let b = board(&rows);
        let prey = b.index(Point::new(3, 4));
        assert_eq!(b.libs(prey), 2);
        assert!(caught(&b, prey), "the ladder runs to the edge");
        // White stones on the paths of both ataris break it.
        rows[1] = "......O..";
        rows[7] = ".O.......";
        let b = board(&rows);
        assert!(!caught(&b, prey));
    }

    #[test]
    fn a_group_in_atari_runs_unless_surrounded_and_captures_its_way_out() {
        let b = board(&["XXX..", "XO.X.", "XX.X.", ".....", "....."]);
        let prey = b.index(Point::new(1, 1));
        assert_eq!(b.libs(prey), 1);
        assert!(
            cannot_run(&b, prey),
            "surrounded: extending gives one liberty"
        );
        // The attacking stone at (2, 1) is itself in atari: the prey takes it.
        let b = board(&[".XO..", "XOXO.", ".....", ".....", "....."]);
        let prey = b.index(Point::new(1, 1));
        assert_eq!(b.libs(prey), 1);
        assert!(!cannot_run(&b, prey));
    }
}
