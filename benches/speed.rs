//! Speed benchmark: UCT iterations per second and random playouts per second.
//!
//! Run: `cargo bench --bench speed` (optionally `-- SECONDS`, default 3 per measurement).
//! One iteration = one selection, one expansion, exactly one playout, one backup.

use gravity4::position::Position;
use gravity4::search::playout::random_playout;
use gravity4::search::tree::Tree;
use gravity4::search::{SearchConfig, SearchLimits, search};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The fixed positions the README quotes.
fn positions() -> Vec<(&'static str, Position)> {
    let empty = Position::new(12, 12, 7, 4).expect("valid board");
    let mut mid = Position::new(10, 11, 9, 5).expect("valid board");
    // A quiet middle game: 16 stones, nobody has won.
    for col in [5, 4, 6, 5, 3, 6, 4, 2, 7, 8, 1, 0, 9, 10, 2, 3] {
        assert!(!mid.play(col), "the fixed mid-game must not end early");
    }
    vec![
        ("empty 12x12, blocked (7,4)", empty),
        ("mid-game 10x11, 16 stones", mid),
    ]
}

fn main() {
    let seconds: f64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(3.0);
    let budget = Duration::from_secs_f64(seconds);
    let mut tree = Tree::default();
    let mut rng = SmallRng::seed_from_u64(2026);
    println!(
        "{:<28} {:>16} {:>16} {:>12}",
        "position", "UCT iter/s", "playouts/s", "ns/ply"
    );
    for (name, pos) in positions() {
        let limits = SearchLimits::for_duration(budget, 256 << 20);
        let start = Instant::now();
        let report = search(&pos, &mut tree, &SearchConfig::default(), &limits, &mut rng)
            .expect("positions have moves");
        let uct_rate = report.iterations as f64 / start.elapsed().as_secs_f64();

        let (mut playouts, mut plies) = (0u64, 0u64);
        let start = Instant::now();
        while start.elapsed() < budget {
            for _ in 0..1000 {
                let mut scratch = pos.clone();
                black_box(random_playout(&mut scratch, &mut rng));
                plies += (scratch.ply() - pos.ply()) as u64;
                playouts += 1;
            }
        }
        let elapsed = start.elapsed().as_secs_f64();
        println!(
            "{name:<28} {uct_rate:>16.0} {:>16.0} {:>12.2}",
            playouts as f64 / elapsed,
            elapsed * 1e9 / plies as f64
        );
    }
}
