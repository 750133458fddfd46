//! `go-engine bench`: the engine's speed, measured in the shipped binary. Playouts a second
//! from the empty 9x9 and 19x19 boards with the light policy (uniform random, eye-aware) and
//! the heavy one (captures, atari escapes, 3x3 patterns), then whole searches (tree, RAVE,
//! playouts) with 1 and 2 threads.
//!
//! The machine this runs on is shared, so every line is timed twice: by the wall clock and by
//! the process's CPU time (`/proc/self/stat`, all threads). A line runs until it has used its
//! budget of CPU time, so a loaded machine slows the bench down without shrinking its sample;
//! playouts per CPU second is the figure that survives load (and with 2 threads, the work a
//! second thread adds less its locking), playouts per wall second the one a game feels. The
//! seeds are fixed: the playouts of a line are the same on every run, so two builds compare
//! on the same work. The load average is printed at the start and the end.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::board::Board;
use crate::engine::Engine;
use crate::point::Color;
use crate::search::playout::{Policy, Scratch, playout};
use crate::search::{Config, Limits};

/// The seed of the playout lines' generator.
pub const PLAYOUT_SEED: u64 = 1;

/// The seed of the searches.
pub const SEARCH_SEED: u64 = 7;

/// The board sizes measured.
pub const SIZES: [usize; 2] = [9, 19];

/// Komi of the measured positions (the engine's default).
const KOMI: f64 = 7.5;

/// Clock ticks a second of `/proc`'s CPU times (Linux's `USER_HZ`, 100 on every
/// architecture Linux exposes to user space as such).
const USER_HZ: f64 = 100.0;

/// What to measure.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// CPU time each line runs for.
    pub budget: Duration,
    /// The thread counts of the search lines (1 and 2 by default).
    pub threads: Vec<usize>,
    /// The search's configuration (the environment's knobs); its seed and threads are set
    /// per line.
    pub config: Config,
}

/// The CPU time (user and system) the process has used, all threads, dead ones included;
/// `None` where `/proc` is missing.
pub fn process_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    parse_cpu(&stat)
}

/// The user and system time of a `/proc/PID/stat` line: fields 14 and 15, counted after the
/// command's closing parenthesis (a command may itself contain spaces and parentheses).
fn parse_cpu(stat: &str) -> Option<Duration> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(Duration::from_secs_f64((utime + stime) as f64 / USER_HZ))
}

/// The load average (1, 5 and 15 minutes) as `/proc/loadavg` gives it, or `unknown`.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

/// A stopwatch of wall and CPU time.
struct Stopwatch {
    wall: Instant,
    cpu: Option<Duration>,
}

impl Stopwatch {
    fn start() -> Stopwatch {
        Stopwatch {
            wall: Instant::now(),
            cpu: process_cpu(),
        }
    }

    /// Wall time and CPU time since the start (CPU time is the wall time without `/proc`).
    fn read(&self) -> (Duration, Duration) {
        let wall = self.wall.elapsed();
        let cpu = match (self.cpu, process_cpu()) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => wall,
        };
        (wall, cpu)
    }
}

/// `count / time` a second (0 for no time).
fn rate(count: u64, time: Duration) -> f64 {
    let secs = time.as_secs_f64();
    if secs > 0.0 { count as f64 / secs } else { 0.0 }
}

/// One playout line: how many playouts, in what time.
#[derive(Clone, Copy, Debug)]
pub struct PlayoutLine {
    /// Playouts played.
    pub playouts: u64,
    /// Moves played in them.
    pub moves: u64,
    /// Those Black won with komi 7.5.
    pub black_wins: u64,
    /// Wall time.
    pub wall: Duration,
    /// CPU time.
    pub cpu: Duration,
}

/// Playouts from the empty `size` board with `policy` until `budget` of CPU time is used.
pub fn playouts(size: usize, policy: Policy, budget: Duration) -> PlayoutLine {
    let empty = Board::new(size).expect("a measured size");
    let mut board = empty.clone();
    let mut rng = SmallRng::seed_from_u64(PLAYOUT_SEED);
    let mut scratch = Scratch::default();
    let mut line = PlayoutLine {
        playouts: 0,
        moves: 0,
        black_wins: 0,
        wall: Duration::ZERO,
        cpu: Duration::ZERO,
    };
    // Batches of about a few milliseconds, so that reading the clocks costs nothing.
    let batch = if size <= 9 { 64 } else { 16 };
    let watch = Stopwatch::start();
    loop {
        for _ in 0..batch {
            board.copy_from(&empty);
            let score = playout(
                &mut board,
                Color::Black,
                0,
                policy,
                &mut rng,
                &mut scratch,
                |_, _| line.moves += 1,
            );
            line.black_wins += u64::from(f64::from(score) - KOMI > 0.0);
            line.playouts += 1;
        }
        (line.wall, line.cpu) = watch.read();
        if line.cpu >= budget {
            return line;
        }
    }
}

/// One search line.
#[derive(Clone, Debug)]
pub struct SearchLine {
    /// Playouts of the search.
    pub playouts: u64,
    /// Nodes of the tree at the end.
    pub nodes: usize,
    /// Wall time.
    pub wall: Duration,
    /// CPU time, all threads.
    pub cpu: Duration,
}

/// A search for Black on the empty `size` board of `playouts` playouts, with `config`.
pub fn search(size: usize, config: &Config, playouts: u64) -> SearchLine {
    let mut engine = Engine::with_config(size, KOMI, config.clone()).expect("a measured size");
    let watch = Stopwatch::start();
    engine.reg_genmove(Color::Black, &Limits::playouts(playouts));
    let (wall, cpu) = watch.read();
    let stats = engine.last_stats().expect("a search ran");
    SearchLine {
        playouts: stats.playouts,
        nodes: stats.nodes,
        wall,
        cpu,
    }
}

/// Runs the bench, printing a table to `out`: the header, the playouts a second, then the
/// searches (sized by the heavy playouts' rate).
pub fn run(options: &BenchOptions, out: &mut impl Write) -> io::Result<()> {
    header(options, out)?;
    let heavy_rate = playout_table(options, out)?;
    writeln!(out)?;
    search_table(options, &heavy_rate, out)?;
    writeln!(out)?;
    writeln!(out, "load average {} at the end", load_average())
}

/// The bench's first lines: version, budget, load, and whether CPU time can be read.
fn header(options: &BenchOptions, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "go-engine {} bench: empty boards, komi {KOMI}, {} CPU s a line; load average {} at the start",
        env!("CARGO_PKG_VERSION"),
        options.budget.as_secs_f64(),
        load_average()
    )?;
    if process_cpu().is_none() {
        writeln!(out, "(no /proc/self/stat here: CPU time is wall time)")?;
    }
    writeln!(out)
}

/// The playouts table, light and heavy on each size; returns the heavy policy's rate (CPU
/// playouts a second) on each size.
fn playout_table(options: &BenchOptions, out: &mut impl Write) -> io::Result<Vec<f64>> {
    writeln!(
        out,
        "playouts (seed {PLAYOUT_SEED})\n{:<6} {:<6} {:>9} {:>7} {:>7} {:>10} {:>10} {:>8} {:>7}",
        "board",
        "policy",
        "playouts",
        "CPU s",
        "wall s",
        "po/CPU s",
        "po/wall s",
        "moves/po",
        "B win%"
    )?;
    let mut heavy_rate = Vec::new();
    for size in SIZES {
        for policy in [Policy::Light, Policy::Heavy] {
            let line = playouts(size, policy, options.budget);
            if policy == Policy::Heavy {
                heavy_rate.push(rate(line.playouts, line.cpu));
            }
            writeln!(
                out,
                "{:<6} {:<6} {:>9} {:>7.2} {:>7.2} {:>10.0} {:>10.0} {:>8.1} {:>7.1}",
                format!("{size}x{size}"),
                format!("{policy:?}").to_lowercase(),
                line.playouts,
                line.cpu.as_secs_f64(),
                line.wall.as_secs_f64(),
                rate(line.playouts, line.cpu),
                rate(line.playouts, line.wall),
                line.moves as f64 / line.playouts as f64,
                100.0 * line.black_wins as f64 / line.playouts as f64,
            )?;
            out.flush()?;
        }
    }
    Ok(heavy_rate)
}

/// The searches table: on each size, about a budget of playouts (from `heavy_rate`, the
/// heavy playouts' rate on each size), the same count for every thread count.
fn search_table(
    options: &BenchOptions,
    heavy_rate: &[f64],
    out: &mut impl Write,
) -> io::Result<()> {
    writeln!(
        out,
        "searches for Black (seed {SEARCH_SEED}, {} playouts, the same count for every thread count)\n{:<6} {:>7} {:>9} {:>7} {:>7} {:>10} {:>10} {:>8}",
        format!("{:?}", options.config.policy).to_lowercase(),
        "board",
        "threads",
        "playouts",
        "CPU s",
        "wall s",
        "po/CPU s",
        "po/wall s",
        "nodes"
    )?;
    for (k, size) in SIZES.into_iter().enumerate() {
        let count = ((heavy_rate[k] * options.budget.as_secs_f64()) as u64).max(100);
        for &threads in &options.threads {
            let config = Config {
                threads,
                seed: Some(SEARCH_SEED),
                ..options.config.clone()
            };
            let line = search(size, &config, count);
            writeln!(
                out,
                "{:<6} {:>7} {:>9} {:>7.2} {:>7.2} {:>10.0} {:>10.0} {:>8}",
                format!("{size}x{size}"),
                threads,
                line.playouts,
                line.cpu.as_secs_f64(),
                line.wall.as_secs_f64(),
                rate(line.playouts, line.cpu),
                rate(line.playouts, line.wall),
                line.nodes
            )?;
            out.flush()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_is_read_after_the_command() {
        // A command with a space and a parenthesis in it; utime 250 and stime 50 ticks.
        let stat = "4242 (go (x) y) R 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 1 0 100";
        assert_eq!(parse_cpu(stat), Some(Duration::from_secs(3)));
        assert_eq!(parse_cpu("4242 (go) R 1 2"), None);
        assert_eq!(parse_cpu("garbage"), None);
    }

    #[test]
    fn the_process_cpu_time_grows_with_work() {
        let Some(before) = process_cpu() else {
            return; // no /proc: nothing to read
        };
        let line = playouts(9, Policy::Light, Duration::from_millis(50));
        let after = process_cpu().unwrap();
        assert!(line.cpu >= Duration::from_millis(50));
        assert!(after - before >= line.cpu);
        assert!(line.playouts > 0 && line.moves >= line.playouts);
    }

    #[test]
    fn a_search_line_plays_its_count_with_two_threads() {
        let config = Config {
            threads: 2,
            seed: Some(SEARCH_SEED),
            ..Config::default()
        };
        let line = search(9, &config, 300);
        assert_eq!(line.playouts, 300);
        assert!(line.nodes > 1);
    }
}
