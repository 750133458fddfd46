//! Worst-case thinking time of the alpha-beta rungs: self-play on 12x12 boards, printing the
//! slowest move per depth (they must stay far below the course's 3 s).
//!
//! ```text
//! cargo run --release --example timing -- [games]
//! ```

use gravity4_ladder::alphabeta::best_move;
use gravity4_ladder::arena::Board;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

fn main() {
    let games: usize = std::env::args()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    let mut rng = SmallRng::seed_from_u64(7);
    for depth in [2, 3, 5, 7] {
        let mut slowest = Duration::ZERO;
        let mut most_nodes = 0;
        let mut moves = 0u64;
        let start = Instant::now();
        for _ in 0..games {
            let board = Board {
                rows: 12,
                cols: 12,
                blocked_row: rng.random_range(0..12),
                blocked_col: rng.random_range(0..12),
            };
            let mut pos = board.position();
            loop {
                let t = Instant::now();
                let far = t + Duration::from_secs(60);
                let result = best_move(&pos, depth, far, &mut rng);
                slowest = slowest.max(t.elapsed());
                most_nodes = most_nodes.max(result.nodes);
                moves += 1;
                if pos.play(result.col) || pos.empty_cells() == 0 {
                    break;
                }
            }
        }
        println!(
            "depth {depth}: {moves} moves, mean {:.2} ms, slowest {:.1} ms, most nodes {most_nodes}",
            start.elapsed().as_secs_f64() * 1e3 / moves as f64,
            slowest.as_secs_f64() * 1e3
        );
    }
}
