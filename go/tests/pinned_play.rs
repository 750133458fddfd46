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
        "F6 D7 D5 C5 C4 C6 B4 B5 F8 D4 D3 E4 E5 F4 G4 G3 F5 E2 E3 F3 \
         C2 B3 C3 A4 B2 A3 A2 A5 D1 E1 D2 F2 H3 H2 H4 J2 B7 C7 B8 C8"
    );
}

#[test]
fn a_small_game_to_its_end_and_its_score_are_pinned() {
    let mut p = player(7, 7.5, 11, 300);
    let got = self_play(&mut p, 200, Generate::Play);
    assert_eq!(
        got,
        "E3 C3 C4 D4 D3 C5 B4 B5 B3 C2 E4 D5 B2 E5 F5 F6 F4 G6 A5 A4 \
         A6 B6 A3 C1 B1 A2 D1 G4 G5 E6 A4 B7 D2 F2 F1 G3 F3 E2 E1 G1 \
         G2 G3 G4 A7 F7 E7 D6 D7 C7 C6 C2 G7 E2 pass A1 pass pass"
    );
    assert!(p.engine().game().is_over());
    assert_eq!(dead_stones(&p), "");
    assert_eq!(p.final_score(), "B+5.5");
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
        "C5 E6 D4 E4 E3 D3 E5 F4 F5 G5 G4 F3 G6 F6 H5 D6 D5 E2 B7 B8"
    );
    let got = self_play(&mut p, 6, Generate::Cleanup);
    assert_eq!(got, "B6 F8 H7 H8 J8 H9");
    let regression = p.genmove(p.engine().game().to_move(), Generate::Regression);
    assert_eq!(vertex(regression, 9), "D8");
    assert_eq!(dead_stones(&p), "J8");
    assert_eq!(p.final_score(), "B+3.5");
}
