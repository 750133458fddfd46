//! Whole 9x9 games between our GMP driver and GNU Go 3.8 over a pair of pipes:
//!
//! ```text
//! /usr/games/gnugo --mode gmp --quiet --level 1 --chinese-rules -o FILE [--color C]
//! ```
//!
//! Our side is a move source that needs no rules: it plays points from a fixed list that no
//! stone has ever stood on and that have a neighbour no stone has ever stood on (so the new
//! stone has a liberty and the position is new: legal under any ko rule), then passes. Each
//! game must end in two passes with the moves our driver saw equal to the moves in GNU Go's
//! own SGF. `--chinese-rules` is needed because our driver answers GMP's rules query with
//! Chinese and GNU Go refuses a game whose rules disagree with its own (its default is
//! Japanese). The tests are skipped, saying so, when GNU Go is not installed, except under
//! `CI=true`, where they fail.

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::thread;
use std::time::Duration;

use go_engine::gmp::{GmpConfig, GmpOutcome, GmpPlayer, play_game};
use go_engine::point::{Color, Move, Point};
use go_engine::sgf::record::GameRecord;
use testkit::partner::{GNUGO, gnugo_missing};
use testkit::process::Reaper;

/// Plays listed points while they are safely legal, then passes.
struct SafePoints {
    size: usize,
    plan: Vec<Point>,
    /// Every point a stone has ever been played or placed on.
    used: HashSet<Point>,
    /// Fixed handicap stones to expect (GNU Go places them itself).
    handicap_stones: Vec<Point>,
    new_games: usize,
}

impl SafePoints {
    fn new(size: usize, plan: Vec<Point>) -> SafePoints {
        SafePoints {
            size,
            plan,
            used: HashSet::new(),
            handicap_stones: Vec::new(),
            new_games: 0,
        }
    }

    fn safe(&self, p: Point) -> bool {
        let (x, y) = (p.x as i32, p.y as i32);
        let n = self.size as i32;
        !self.used.contains(&p)
            && [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                .into_iter()
                .filter(|&(a, b)| a >= 0 && b >= 0 && a < n && b < n)
                .any(|(a, b)| !self.used.contains(&Point::new(a as usize, b as usize)))
    }
}

impl GmpPlayer for SafePoints {
    fn new_game(&mut self, _: &GmpConfig) {
        self.new_games += 1;
        self.used.extend(self.handicap_stones.iter().copied());
    }

    fn our_move(&mut self, _: Color) -> Move {
        while !self.plan.is_empty() {
            let p = self.plan.remove(0);
            if self.safe(p) {
                self.used.insert(p);
                return Move::Play(p);
            }
        }
        Move::Pass
    }

    fn their_move(&mut self, _: Color, mv: Move) -> Result<(), String> {
        if let Move::Play(p) = mv {
            self.used.insert(p);
        }
        Ok(())
    }

    fn undo(&mut self, _: usize) -> Result<(), String> {
        Err("GNU Go does not undo in GMP mode".into())
    }
}

fn plan_9x9() -> Vec<Point> {
    [
        (4, 4),
        (2, 2),
        (6, 6),
        (2, 6),
        (6, 2),
        (4, 2),
        (2, 4),
        (6, 4),
        (4, 6),
    ]
    .map(|(x, y)| Point::new(x, y))
    .to_vec()
}

fn sgf_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("gmp-{name}-{}.sgf", std::process::id()))
}

/// Runs GNU Go with `args` against our driver; returns our outcome, GNU Go's SGF and stderr.
fn play(
    name: &str,
    mode: &str,
    args: &[&str],
    config: GmpConfig,
    mut player: SafePoints,
) -> (GmpOutcome, GameRecord, String, SafePoints) {
    let sgf = sgf_path(name);
    let mut child = Command::new(GNUGO)
        .args([
            "--mode",
            mode,
            "--quiet",
            "--level",
            "1",
            "--chinese-rules",
            "-o",
        ])
        .arg(&sgf)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("GNU Go starts");
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let mut reaper = Reaper(child);
    let (tx, rx) = channel();
    thread::spawn(move || {
        let outcome = play_game(stdout, stdin, &config, &mut player);
        // Dropping stdin (inside play_game's writer) tells GNU Go the session is over.
        tx.send((outcome, player)).unwrap();
    });
    let (outcome, player) = match rx.recv_timeout(Duration::from_secs(120)) {
        Ok(done) => done,
        Err(_) => panic!("{name}: the game did not finish in 120 s"),
    };
    let status = reaper.0.wait().expect("GNU Go exits");
    let mut log = String::new();
    stderr.read_to_string(&mut log).unwrap();
    let outcome = outcome.unwrap_or_else(|e| panic!("{name}: {e}\nGNU Go said:\n{log}"));
    assert!(
        status.code().is_some(),
        "{name}: GNU Go died: {status}\n{log}"
    );
    let text = std::fs::read(&sgf).expect("GNU Go wrote its SGF");
    let record = GameRecord::from_sgf(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let _ = std::fs::remove_file(&sgf);
    (outcome, record, log, player)
}

fn assert_same_game(name: &str, ours: &GmpOutcome, theirs: &GameRecord) {
    let n = ours.moves.len();
    assert!(n >= 2, "{name}: {:?}", ours.moves);
    assert_eq!(
        ours.moves[n - 2..].iter().map(|m| m.1).collect::<Vec<_>>(),
        [Move::Pass, Move::Pass],
        "{name}: the game ends in two passes"
    );
    assert_eq!(ours.resigned, None);
    assert_eq!(theirs.move_list(), ours.moves, "{name}: both sides' moves");
}

#[test]
fn we_play_white_against_gnu_go_black_which_starts_the_game() {
    if gnugo_missing() {
        return;
    }
    let config = GmpConfig::new(9, Color::White);
    let player = SafePoints::new(9, plan_9x9());
    let (ours, theirs, log, player) = play("white", "gmp", &["--color", "black"], config, player);
    assert_same_game("white", &ours, &theirs);
    assert_eq!(ours.moves[0].0, Color::Black);
    assert_eq!(theirs.size, 9);
    assert_eq!(player.new_games, 1);
    // GMP carries no komi: GNU Go's --mode gmp plays 5.5.
    assert_eq!(theirs.komi, Some(5.5), "{log}");
}

#[test]
fn we_play_black_and_start_the_game_when_gnu_go_waits_as_white() {
    if gnugo_missing() {
        return;
    }
    let config = GmpConfig {
        newgame_wait: Duration::from_millis(500),
        ..GmpConfig::new(9, Color::Black)
    };
    let player = SafePoints::new(9, plan_9x9());
    let (ours, theirs, _, _) = play("black", "gmp", &["--color", "white"], config, player);
    assert_same_game("black", &ours, &theirs);
    assert_eq!(ours.moves[0], (Color::Black, Move::Play(Point::new(4, 4))));
}

#[test]
fn both_sides_sending_newgame_at_once_still_makes_a_game() {
    if gnugo_missing() {
        return;
    }
    // GNU Go without --color sends NEWGAME at once, and so do we as Black with no wait:
    // the conflict resolves (GNU Go gives way to our repeated NEWGAME).
    let config = GmpConfig {
        newgame_wait: Duration::ZERO,
        retry: Duration::from_millis(300),
        ..GmpConfig::new(9, Color::Black)
    };
    let player = SafePoints::new(9, plan_9x9());
    let (ours, theirs, _, _) = play("conflict", "gmp", &[], config, player);
    assert_same_game("conflict", &ours, &theirs);
}

#[test]
fn a_handicap_game_starts_with_white_after_gnu_go_places_the_stones() {
    if gnugo_missing() {
        return;
    }
    let config = GmpConfig {
        handicap: 2,
        ..GmpConfig::new(9, Color::White)
    };
    let mut player = SafePoints::new(9, plan_9x9());
    // GNU Go's (and GTP's) fixed handicap 2 on 9x9: C3 and G7.
    let stones = [Point::new(2, 6), Point::new(6, 2)];
    player.handicap_stones = stones.to_vec();
    let (ours, theirs, _, _) = play("handicap", "gmp", &["--color", "black"], config, player);
    assert_same_game("handicap", &ours, &theirs);
    assert_eq!(ours.moves[0].0, Color::White);
    assert_eq!(theirs.handicap, 2);
    let mut setup: Vec<Point> = theirs.setup.iter().map(|&(_, p)| p).collect();
    setup.sort();
    assert_eq!(setup, stones);
    assert!(theirs.setup.iter().all(|&(c, _)| c == Color::Black));
}

#[test]
fn simplified_gmp_plays_too() {
    if gnugo_missing() {
        return;
    }
    // --mode sgmp: GNU Go takes the size from --boardsize and only asks colour and handicap.
    let config = GmpConfig::new(9, Color::White);
    let player = SafePoints::new(9, plan_9x9());
    let args = ["--color", "black", "--boardsize", "9", "--komi", "7.5"];
    let (ours, theirs, _, _) = play("sgmp", "sgmp", &args, config, player);
    assert_same_game("sgmp", &ours, &theirs);
    assert_eq!(theirs.komi, Some(7.5));
}
