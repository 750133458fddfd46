//! Playouts per second from the empty 9x9 and 19x19 boards, with the light policy (uniform
//! random, eye-aware) and the heavy one (captures, atari escapes, 3x3 patterns), and whole
//! searches (tree, RAVE, playouts) for a fixed time.
//!
//! `cargo bench -p go-engine --bench speed` (`-- SECONDS` to change the 2 s per line).

use std::time::{Duration, Instant};

use go_engine::board::Board;
use go_engine::point::Color;
use go_engine::search::playout::{Policy, Scratch, playout};
use go_engine::search::{Config, Engine, Limits};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn main() {
    let seconds: f64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(2.0);
    let budget = Duration::from_secs_f64(seconds);
    println!(
        "{:<8} {:<7} {:>12} {:>12} {:>9}",
        "board", "policy", "playouts/s", "moves/po", "black %"
    );
    for size in [9, 19] {
        for policy in [Policy::Light, Policy::Heavy] {
            let empty = Board::new(size).unwrap();
            let mut board = empty.clone();
            let mut rng = SmallRng::seed_from_u64(1);
            let mut scratch = Scratch::default();
            let (mut n, mut moves, mut black_wins) = (0u64, 0u64, 0u64);
            let start = Instant::now();
            while start.elapsed() < budget {
                for _ in 0..64 {
                    board.copy_from(&empty);
                    let score = playout(
                        &mut board,
                        Color::Black,
                        0,
                        policy,
                        &mut rng,
                        &mut scratch,
                        |_, _| moves += 1,
                    );
                    black_wins += u64::from(f64::from(score) - 7.5 > 0.0);
                    n += 1;
                }
            }
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{:<8} {:<7} {:>12.0} {:>12.1} {:>9.1}",
                format!("{size}x{size}"),
                format!("{policy:?}").to_lowercase(),
                n as f64 / secs,
                moves as f64 / n as f64,
                100.0 * black_wins as f64 / n as f64
            );
        }
    }
    println!();
    println!(
        "{:<8} {:<8} {:>12} {:>10}",
        "board", "threads", "playouts/s", "nodes"
    );
    for size in [9, 19] {
        for threads in [1, 2] {
            let config = Config {
                threads,
                seed: Some(7),
                ..Config::default()
            };
            let mut engine = Engine::with_config(size, 7.5, config).unwrap();
            let start = Instant::now();
            engine.reg_genmove(Color::Black, &Limits::time(budget));
            let secs = start.elapsed().as_secs_f64();
            let stats = engine.last_stats().expect("a search ran");
            println!(
                "{:<8} {:<8} {:>12.0} {:>10}",
                format!("{size}x{size}"),
                threads,
                stats.playouts as f64 / secs,
                stats.nodes
            );
        }
    }
}
