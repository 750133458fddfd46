//! Play is pinned: the engine, at a fixed seed and a fixed number of playouts a move, on one
//! thread, makes exactly the moves recorded here (and scores the end as recorded). A
//! refactor that changes a move fails this test; a change meant to change play re-pins the
//! values and says so in its commit.
//!
//! The games go through [`Player`] (what GTP and GMP drive) over [`Settings`] read from an
//! empty environment, so that the settings, the front end (handicap, passes, resignation,
//! cleanup, scoring) and the search are all pinned. Run with no `GO_*` variable set.

use go_engine::player::{Generate, Player};
use go_engine::point::{Color, Move};
use go_engine::settings::Settings;
use go_engine::status::{Status, stones_with_status};

/// A player on a `size` board with `komi`, seed `seed`, `playouts` playouts a move.
fn player(size: usize, komi: f64, seed: u64, playouts: u64) -> Player {
    let mut settings = Settings::from_vars(|_| None).expect("an empty environment is valid");
    settings.config.seed = Some(seed);
    settings.config.threads = 1;
    settings.playouts = Some(playouts);
    Player::new(&settings, size, komi).expect("a valid size")
}

/// A move as GTP writes it (columns from A without I, rows from the bottom), written here so
/// that the test does not depend on the protocol modules.
fn vertex(mv: Move, size: usize) -> String {
    match mv {
        Move::Pass => "pass".into(),
        Move::Resign => "resign".into(),
        Move::Play(p) => {
            let column = b"ABCDEFGHJKLMNOPQRSTUVWXYZ"[usize::from(p.x)] as char;
            format!("{column}{}", size - usize::from(p.y))
        }
    }
}

/// Self-play of at most `plies` moves with `kind`, from whoever is to move, until the game
/// is over; the moves as a space-separated list.
fn self_play(p: &mut Player, plies: usize, kind: Generate) -> String {
    let size = p.engine().game().size();
    let mut moves = Vec::new();
    while moves.len() < plies && !p.engine().game().is_over() {
        let color = p.engine().game().to_move();
        moves.push(vertex(p.genmove(color, kind), size));
    }
    moves.join(" ")
}

/// The stones the engine calls dead, group by group.
fn dead_stones(p: &Player) -> String {
    let size = p.engine().game().size();
    let dead: Vec<String> = stones_with_status(p.engine(), Status::Dead)
        .concat()
        .into_iter()
        .map(|pt| vertex(Move::Play(pt), size))
        .collect();
    dead.join(" ")
}

#[test]
fn nine_by_nine_opening_is_pinned() {
    let mut p = player(9, 7.5, 7, 400);
    let got = self_play(&mut p, 40, Generate::Play);
    assert_eq!(
        got,
        "G7 C4 E6 C7 E3 G4 B6 C6 B5 F8 C5 D5 D4 B7 C3 B4 E5 D6 E8 F7 \
         E7 G6 A4 B3 B2 D9 E9 D8 H6 G8 H7 F6 G5 F5 H5 F4 E4 H4 H8 H2"
    );
}

#[test]
fn a_small_game_to_its_end_and_its_score_are_pinned() {
    let mut p = player(7, 7.5, 11, 300);
    let got = self_play(&mut p, 200, Generate::Play);
    assert_eq!(
        got,
        "F3 B4 C3 F5 C6 E3 E4 D4 D3 E2 F2 F1 D2 E1 E5 F4 E6 D1 C1 G2 \
         G1 F1 F6 G6 F7 G7 G5 G4 G3 G1 E1 C4 B3 A3 A2 A4 B2 G4 F4 E7 \
         D7 F1 G1 E2 E3 G7 G6 C7 B7 A7 A6 B6 B5 D6 D5 A1 B1 C5 A5 C5 \
         C4 A4 B4 pass A3 pass pass"
    );
    assert!(p.engine().game().is_over());
    assert_eq!(dead_stones(&p), "");
    assert_eq!(p.final_score(), "B+41.5");
}

#[test]
fn handicap_and_cleanup_are_pinned() {
    let mut p = player(9, 0.5, 5, 300);
    let stones: Vec<String> = p
        .fixed_handicap(3)
        .unwrap()
        .into_iter()
        .map(|pt| vertex(Move::Play(pt), 9))
        .collect();
    assert_eq!(stones.join(" "), "C7 G7 C3");
    assert_eq!(p.engine().game().to_move(), Color::White);
    let got = self_play(&mut p, 20, Generate::Play);
    assert_eq!(
        got,
        "F3 E5 F8 H6 F7 D6 F6 G8 G4 F5 G9 E2 H9 H8 J8 C8 D2 E3 E1 G5"
    );
    let got = self_play(&mut p, 6, Generate::Cleanup);
    assert_eq!(got, "D3 J7 C4 J9 C2 F9");
    let regression = p.genmove(p.engine().game().to_move(), Generate::Regression);
    assert_eq!(vertex(regression, 9), "E4");
    assert_eq!(dead_stones(&p), "F8 F7 F6 C3");
    assert_eq!(p.final_score(), "B+11.5");
}
