//! Times the exact solver (win/draw/loss window, as the strong engine's root solve uses it) on
//! random positions with 12..=20 empties, to set how early the root solve may start.
//!
//! `cargo run -p reversi --release --example endgame [positions per depth]`

use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use reversi::Rule;
use reversi::search::endgame::Solver;
use reversi::selfplay::random_opening;

fn main() {
    let per_depth: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let mut rng = SmallRng::seed_from_u64(42);
    let mut solver = Solver::new();
    for empties in (12..=20).step_by(2) {
        let (mut total_ms, mut worst_ms, mut nodes) = (0.0f64, 0.0f64, 0u64);
        let mut n = 0;
        while n < per_depth {
            let pos = random_opening(Rule::Standard, 60 - empties, &mut rng);
            if pos.is_game_over() || pos.empties() != empties {
                continue;
            }
            let start = Instant::now();
            solver.solve(&pos, -1, 1, None).expect("no deadline");
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            total_ms += ms;
            worst_ms = worst_ms.max(ms);
            nodes += solver.nodes();
            n += 1;
        }
        println!(
            "{empties} empties: mean {:.1} ms, worst {:.1} ms, mean {} nodes",
            total_ms / f64::from(n),
            worst_ms,
            nodes / u64::from(n)
        );
    }
}
