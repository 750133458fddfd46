//! Speed benchmark: UCT iterations per second and playouts per second, for the profiles as
//! they ship.
//!
//! Run: `cargo bench --bench speed` (optionally `-- SECONDS`, default 3 per measurement).
//! One iteration = one selection, one expansion, exactly one playout, one backup.
//!
//! The rows `classic` and `strong` run [`SearchConfig::classic`] and [`SearchConfig::strong`]
//! (the shipped default) unchanged; the rows after them are ablations, the default with one
//! technique switched, to show what it costs.
//!
//! `cargo bench --bench speed -- --fixed` does a fixed amount of work instead (20 000
//! playouts and 20 000 UCT iterations per row) and prints plies, for instruction counts
//! under `valgrind --tool=callgrind`, which are stable on a shared machine.

use gravity4::position::Position;
use gravity4::search::playout::{random_playout, tactical_playout};
use gravity4::search::transpositions::Transpositions;
use gravity4::search::tree::Tree;
use gravity4::search::{Profile, SearchConfig, SearchLimits, Techniques, strong, uct};
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

/// The rows: the two profiles as they ship, then ablations of the default, each with the
/// switch it flips (as `GRAVITY4_DISABLE` / `GRAVITY4_ENABLE` would).
fn rows() -> Vec<(&'static str, SearchConfig)> {
    let ablation = |flip: fn(&mut Techniques)| {
        let mut config = SearchConfig::strong();
        flip(&mut config.techniques);
        config
    };
    vec![
        ("classic", SearchConfig::classic()),
        ("strong", SearchConfig::strong()),
        // Ablations: without threat sequences, with reply sequences, with the table.
        ("strong-chains", ablation(|t| t.threat_sequences = false)),
        ("strong+replies", ablation(|t| t.reply_sequences = true)),
        ("strong+table", ablation(|t| t.transpositions = true)),
    ]
}

/// Runs `config`'s search from `pos`, with a transposition table when it asks for one.
fn run(
    pos: &Position,
    tree: &mut Tree,
    config: &SearchConfig,
    limits: &SearchLimits,
    rng: &mut SmallRng,
) -> u64 {
    tree.clear();
    let report = match config.profile {
        Profile::Classic => uct::search(pos, tree, config, limits, rng),
        Profile::Strong => {
            let mut graph = Transpositions::default();
            if config.techniques.transpositions {
                graph.prepare(pos, DEFAULT_TABLE_BYTES);
            }
            strong::search(pos, 0, tree, &mut graph, config, limits, rng)
        }
    };
    report.expect("positions have moves").iterations
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
    println!("(rows after `strong`, the shipped default, are ablations of it: one switch each)");
    for (name, pos) in positions() {
        for (row, config) in rows() {
            let limits = SearchLimits {
                max_iterations: None,
                ..SearchLimits::for_duration(budget, 256 << 20)
            };
            let start = Instant::now();
            let iterations = run(&pos, &mut tree, &config, &limits, &mut rng);
            let uct_rate = iterations as f64 / start.elapsed().as_secs_f64();

            let threat_root = ThreatPosition::new(pos.clone());
            let (mut playouts, mut plies) = (0u64, 0u64);
            let start = Instant::now();
            while start.elapsed() < budget {
                for _ in 0..1000 {
                    let ply = if config.profile == Profile::Classic {
                        let mut scratch = pos.clone();
                        black_box(random_playout(&mut scratch, &mut rng));
                        scratch.ply()
                    } else {
                        let mut scratch = threat_root.clone();
                        let keep_threats = config.techniques.keep_threats;
                        black_box(tactical_playout(&mut scratch, keep_threats, &mut rng));
                        scratch.position().ply()
                    };
                    plies += (ply - pos.ply()) as u64;
                    playouts += 1;
                }
            }
            let elapsed = start.elapsed().as_secs_f64();
            println!(
                "{name:<28} {row:<14} {uct_rate:>12.0} {:>12.0} {:>8.2}",
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
        run(&pos, &mut tree, &SearchConfig::classic(), &limits, &mut rng);
        run(&pos, &mut tree, &SearchConfig::strong(), &limits, &mut rng);
        println!(
            "{name}: classic playout plies {classic_plies}, strong playout plies {strong_plies}"
        );
    }
}
