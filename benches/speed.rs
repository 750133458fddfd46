//! Speed benchmark: UCT iterations per second and random playouts per second.
//!
//! Run: `cargo bench --bench speed` (optionally `-- SECONDS`, default 3 per measurement).
//! One iteration = one selection, one expansion, exactly one playout, one backup.
//!
//! `cargo bench --bench speed -- --fixed` does a fixed amount of work instead (20 000
//! playouts and 20 000 UCT iterations per row) and prints plies, for instruction counts
//! under `valgrind --tool=callgrind`, which are stable on a shared machine.

use gravity4::position::Position;
use gravity4::search::playout::random_playout;
use gravity4::search::solver::tactical_playout;
use gravity4::search::transpositions::Transpositions;
use gravity4::search::tree::Tree;
use gravity4::search::{SearchConfig, SearchLimits, solver, uct};
use gravity4::settings::DEFAULT_TABLE_BYTES;
use gravity4::threats::ThreatPosition;
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

/// Fixed work per row for instruction counting.
const FIXED_WORK: u64 = 20_000;

fn main() {
    if std::env::args().any(|a| a == "--fixed") {
        return fixed_work();
    }
    let seconds: f64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(3.0);
    let budget = Duration::from_secs_f64(seconds);
    let mut tree = Tree::default();
    let mut rng = SmallRng::seed_from_u64(2026);
    println!(
        "{:<28} {:<14} {:>12} {:>12} {:>8}",
        "position", "profile", "UCT iter/s", "playouts/s", "ns/ply"
    );
    for (name, pos) in positions() {
        // "strong" is the default profile (no transposition table); "strong-chains" is it
        // without threat sequences (GRAVITY4_DISABLE=threat-sequences), "strong+replies"
        // with reply sequences (GRAVITY4_ENABLE=reply-sequences) and "strong+table" with
        // the table (GRAVITY4_ENABLE=transpositions), to show what each costs.
        for profile in [
            "classic",
            "strong",
            "strong-chains",
            "strong+replies",
            "strong+table",
        ] {
            let limits = SearchLimits {
                max_iterations: None,
                ..SearchLimits::for_duration(budget, 256 << 20)
            };
            let config = SearchConfig {
                threat_sequences: profile != "strong-chains",
                reply_sequences: profile == "strong+replies",
                ..SearchConfig::default()
            };
            let start = Instant::now();
            let mut graph = Transpositions::default();
            if profile == "strong+table" {
                graph.prepare(&pos, DEFAULT_TABLE_BYTES);
            }
            tree.clear();
            let report = match profile {
                "classic" => uct::search(&pos, &mut tree, &config, &limits, &mut rng),
                _ => solver::search(&pos, &mut tree, &mut graph, &config, &limits, &mut rng),
            }
            .expect("positions have moves");
            let uct_rate = report.iterations as f64 / start.elapsed().as_secs_f64();

            let threat_root = ThreatPosition::new(pos.clone());
            let (mut playouts, mut plies) = (0u64, 0u64);
            let start = Instant::now();
            while start.elapsed() < budget {
                for _ in 0..1000 {
                    let ply = if profile == "classic" {
                        let mut scratch = pos.clone();
                        black_box(random_playout(&mut scratch, &mut rng));
                        scratch.ply()
                    } else {
                        let mut scratch = threat_root.clone();
                        black_box(tactical_playout(&mut scratch, true, &mut rng));
                        scratch.position().ply()
                    };
                    plies += (ply - pos.ply()) as u64;
                    playouts += 1;
                }
            }
            let elapsed = start.elapsed().as_secs_f64();
            println!(
                "{name:<28} {profile:<14} {uct_rate:>12.0} {:>12.0} {:>8.2}",
                playouts as f64 / elapsed,
                elapsed * 1e9 / plies as f64
            );
        }
    }
}

/// Runs a fixed number of playouts and iterations per position and profile, printing the
/// plies played, so `callgrind` totals can be divided into instructions per ply.
fn fixed_work() {
    let mut tree = Tree::default();
    let mut rng = SmallRng::seed_from_u64(2026);
    for (name, pos) in positions() {
        let threat_root = ThreatPosition::new(pos.clone());
        let (mut classic_plies, mut strong_plies) = (0, 0);
        for _ in 0..FIXED_WORK {
            let mut scratch = pos.clone();
            black_box(random_playout(&mut scratch, &mut rng));
            classic_plies += scratch.ply() - pos.ply();
            let mut scratch = threat_root.clone();
            black_box(tactical_playout(&mut scratch, true, &mut rng));
            strong_plies += scratch.position().ply() - pos.ply();
        }
        let limits = SearchLimits {
            max_iterations: Some(FIXED_WORK),
            ..SearchLimits::for_duration(Duration::from_secs(3600), 256 << 20)
        };
        let config = SearchConfig::default();
        uct::search(&pos, &mut tree, &config, &limits, &mut rng);
        // The default strong search: no transposition table.
        tree.clear();
        solver::search(
            &pos,
            &mut tree,
            &mut Transpositions::default(),
            &config,
            &limits,
            &mut rng,
        );
        println!(
            "{name}: classic playout plies {classic_plies}, strong playout plies {strong_plies}"
        );
    }
}
