//! A/B self-play: two search configurations play each other on one board size, colours
//! alternating, each move limited by playouts (machine load does not bias it) or by time.
//!
//! `cargo run --profile ci -p go-engine --example ab -- GAMES LIMIT A B [SIZE]`, with LIMIT a
//! playout count (`3000`) or milliseconds (`500ms`), and A, B comma-separated settings:
//! `c=0.1`, `k=2000`, `prior=10`, `expand=2`, `rave=0`, `light`, `threads=2` (empty: the
//! defaults). Prints each game and the score of A.

use std::time::Duration;

use go_engine::engine::Engine;
use go_engine::point::{Color, Move};
use go_engine::search::playout::Policy;
use go_engine::search::{Config, Limits};

fn config(spec: &str, seed: u64) -> Config {
    let mut c = Config {
        seed: Some(seed),
        resign_threshold: 0.0,
        ..Config::default()
    };
    for kv in spec.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        match k {
            "c" => c.exploration = v.parse().unwrap(),
            "k" => c.rave_equivalence = v.parse().unwrap(),
            "prior" => c.prior_even = v.parse().unwrap(),
            "expand" => c.expand_visits = v.parse().unwrap(),
            "rave" => c.rave = v != "0",
            "reuse" => c.reuse = v != "0",
            "light" => c.policy = Policy::Light,
            "threads" => c.threads = v.parse().unwrap(),
            _ => panic!("unknown setting {k}"),
        }
    }
    c
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args[0].parse().unwrap();
    let limits = |spec: &str| match spec.strip_suffix("ms") {
        Some(ms) => Limits::time(Duration::from_millis(ms.parse().unwrap())),
        None => Limits::playouts(spec.parse().unwrap()),
    };
    let size: usize = args.get(4).map_or(9, |s| s.parse().unwrap());
    let komi = 7.5;
    let mut score_a = 0.0;
    for g in 0..games {
        let seed = 1000 + g as u64;
        let mut a = Engine::with_config(size, komi, config(&args[2], seed)).unwrap();
        let mut b = Engine::with_config(size, komi, config(&args[3], seed + 7)).unwrap();
        let a_color = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut color = Color::Black;
        let mut moves = 0;
        while !a.game().is_over() && moves < 3 * size * size {
            let (mover, other) = if color == a_color {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            let mv = mover.genmove(color, &limits(&args[1]));
            other
                .play(color, mv)
                .expect("both engines agree on the rules");
            if mv == Move::Resign {
                break;
            }
            color = color.opponent();
            moves += 1;
        }
        let winner = match a.game().resigned() {
            Some(c) => Some(c.opponent()),
            None => {
                let s = a.final_score();
                (s != 0.0).then_some(if s > 0.0 { Color::Black } else { Color::White })
            }
        };
        let points = match winner {
            Some(c) if c == a_color => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        score_a += points;
        println!(
            "game {g}: A {a_color}, {moves} moves, winner {winner:?}, A {score_a}/{}",
            g + 1
        );
    }
    println!("A scored {score_a} of {games}");
}
