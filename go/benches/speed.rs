//! Playouts per second from the empty 9x9 and 19x19 boards, light and heavy, and whole
//! searches with 1 and 2 threads: `go-engine bench` ([`go_engine::bench`]) under Cargo's
//! bench profile.
//!
//! `cargo bench -p go-engine --bench speed` (`-- SECONDS` to change the 2 CPU s a line).

use std::time::Duration;

use go_engine::bench::{BenchOptions, run};
use go_engine::search::Config;

fn main() {
    let seconds: f64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(2.0);
    let options = BenchOptions {
        budget: Duration::from_secs_f64(seconds),
        threads: vec![1, 2],
        config: Config::default(),
    };
    run(&options, &mut std::io::stdout().lock()).expect("stdout");
}
