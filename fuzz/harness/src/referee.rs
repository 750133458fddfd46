//! The referee's side of a move a player proposed: the judge checks it with the game's
//! rules, plays it or describes why it is illegal, and looks for the end of the game.

use gravity4_judge::games::Game;

/// Judges `mv` in `position` as the referee does, playing it when it is legal; returns
/// whether it was. Panics only if the rules do.
pub fn judge<G: Game>(game: &G, position: &mut G::Position, mv: G::Move) -> bool {
    if !game.is_legal(position, mv) {
        let (text, _point) = game.describe_illegal(position, mv);
        assert!(!text.is_empty(), "an illegal move described by nothing");
        return false;
    }
    let cell = game.move_cell(position, mv);
    game.play(position, mv);
    if let Some((x, y)) = cell {
        assert!(
            game.grid(position).contains(x, y),
            "a legal move marked ({x}, {y}), off the grid"
        );
    }
    if game.end(position).is_some() {
        let _ = game.winning_line(position);
    }
    true
}
