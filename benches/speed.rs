//! Speed benchmark: UCT iterations per second and playouts per second.
//!
//! Run: `cargo bench --bench speed` (optionally `-- SECONDS`, default 3 per measurement).
//! One iteration = one selection, one expansion, exactly one playout, one backup.
//!
//! Options after `--`: `SECONDS`; `--profiles a,b` (rows to run, default the first three;
//! `strong-threads:2` is the default search on 2 threads);
//! `--position N` (only the Nth of [`positions`], from 0); `--tsv` (tab-separated rows
//! without a header, for `scripts/speed-vs.sh`).
//!
//! Each rate is given twice: per wall-clock second, and per second the thread actually ran
//! (its on-CPU time from `/proc/thread-self/schedstat`, where Linux provides it). On a
//! shared machine the second is the steadier: time spent waiting for a core does not count.
//!
//! `cargo bench --bench speed -- --fixed` does a fixed amount of work instead (20 000
//! playouts and 20 000 UCT iterations per position and profile) and prints plies, for
//! instruction counts under `valgrind --tool=callgrind`, which are stable on a shared
//! machine; its searches are classic and strong, or those `--profiles` names, on every
//! position or on the `--position` one. Then 20 000 of the default's playouts with its
//! learned policies, learning after each (`api::learned_playout` and `api::learn`, which
//! callgrind counts apart: instructions per learned playout ply, and per update).
//!
//! Every search and tactical playout goes through `speed/api.rs`, so `scripts/speed-vs.sh`
//! can build this same file against an older library (with the `api_before_36.rs` or
//! `api_before_18.rs` of commit e74af81 in its place) and compare the two side by side on
//! the same positions.

#[path = "speed/api.rs"]
mod api;

use gravity4::position::Position;
use gravity4::search::SearchLimits;
use gravity4::search::playout::random_playout;
use gravity4::threats::ThreatPosition;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The board after `moves` (none of which may win).
fn board(rows: usize, cols: usize, blocked: (usize, usize), moves: &[usize]) -> Position {
    let mut pos = Position::new(rows, cols, blocked.0, blocked.1).expect("valid board");
    for &col in moves {
        assert!(!pos.play(col), "a fixed position must not end early");
    }
    pos
}

/// The fixed positions the README quotes. The three middle games are undecided: a 30 000
/// iteration search proves nothing and rates the side to move between 0.25 and 0.75. The
/// 9x9 and 12x10 ones come from self-play of the strong search at 3 000 iterations a move.
fn positions() -> Vec<(&'static str, Position)> {
    vec![
        ("empty 12x12, blocked (7,4)", board(12, 12, (7, 4), &[])),
        (
            "mid-game 10x11, 16 stones",
            board(
                10,
                11,
                (9, 5),
                &[5, 4, 6, 5, 3, 6, 4, 2, 7, 8, 1, 0, 9, 10, 2, 3],
            ),
        ),
        (
            "mid-game 9x9, 20 stones",
            board(
                9,
                9,
                (3, 6),
                &[4, 3, 4, 4, 4, 7, 3, 3, 3, 3, 5, 2, 5, 2, 2, 3, 3, 4, 4, 4],
            ),
        ),
        (
            "mid-game 12x10, 30 stones",
            board(
                12,
                10,
                (6, 2),
                &[
                    3, 4, 4, 4, 4, 3, 3, 3, 5, 0, 3, 5, 6, 4, 5, 6, 8, 7, 2, 2, 8, 8, 5, 7, 2, 2,
                    2, 4, 4, 3,
                ],
            ),
        ),
    ]
}

/// Every row the bench knows. "classic" and "strong" are the profiles as they ship;
/// "strong-chains" is the strong one without threat sequences
/// (GRAVITY4_DISABLE=threat-sequences), to show what they cost; "strong-lgr" the strong
/// profile without learned playout policies
/// (GRAVITY4_DISABLE=last-good-reply,policy-adaptation, the default before step 22b),
/// "strong-ppa" without policy adaptation only (GRAVITY4_DISABLE=policy-adaptation, the
/// default of step 22b). "strong-switch:LIST" is the default with the `GRAVITY4_DISABLE`
/// list after the colon (a `+` between names, since rows are comma-separated), and
/// "strong-threads:N" the default on N threads (`GRAVITY4_THREADS=N`: its UCT rates are
/// the iterations of all threads per wall-clock second and per CPU second of all threads,
/// the latter from `/proc/self/stat` in 10 ms ticks; its playout columns are one
/// thread's, as in every row).
/// The last two run only when asked for with `--profiles`, as do the switch and thread rows.
const PROFILES: [&str; 5] = [
    "classic",
    "strong",
    "strong-chains",
    "strong-lgr",
    "strong-ppa",
];

/// The rows run when `--profiles` does not choose.
const DEFAULT_ROWS: usize = 3;

/// Fixed work per row for instruction counting.
const FIXED_WORK: u64 = 20_000;

/// The value after `flag` on the command line, if any.
fn option(args: &[String], flag: &str) -> Option<String> {
    let i = args.iter().position(|a| a == flag)?;
    args.get(i + 1).cloned()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--fixed") {
        let searches = option(&args, "--profiles");
        let searches: Vec<&str> = searches
            .as_deref()
            .map_or(vec!["classic", "strong"], |list| list.split(',').collect());
        let only = option(&args, "--position").map(|n| n.parse().expect("--position N"));
        return fixed_work(&searches, only);
    }
    let values: Vec<Option<String>> = ["--profiles", "--position"]
        .iter()
        .map(|f| option(&args, f))
        .collect();
    let seconds: f64 = args
        .iter()
        .filter(|a| !values.contains(&Some(a.to_string())))
        .find_map(|a| a.parse().ok())
        .unwrap_or(3.0);
    let profiles: Vec<String> = match &values[0] {
        Some(list) => list.split(',').map(str::to_string).collect(),
        None => PROFILES[..DEFAULT_ROWS]
            .iter()
            .map(|p| p.to_string())
            .collect(),
    };
    let only: Option<usize> = values[1].as_ref().map(|n| n.parse().expect("--position N"));
    let tsv = args.iter().any(|a| a == "--tsv");
    let budget = Duration::from_secs_f64(seconds);
    let mut tree = api::Arena::default();
    let mut rng = SmallRng::seed_from_u64(2026);
    if !tsv {
        println!(
            "{:<28} {:<24} {:>12} {:>12} {:>8} {:>14} {:>10}",
            "position", "profile", "UCT iter/s", "playouts/s", "ns/ply", "iter/CPU s", "CPU ns/ply"
        );
    }
    for (index, (name, pos)) in positions().into_iter().enumerate() {
        if only.is_some_and(|n| n != index) {
            continue;
        }
        for profile in &profiles {
            let profile = profile.as_str();
            assert!(
                PROFILES.contains(&profile)
                    || profile.starts_with("strong-switch:")
                    || profile.starts_with("strong-threads:"),
                "unknown profile {profile}"
            );
            let r = measure(&pos, profile, budget, &mut tree, &mut rng);
            if tsv {
                println!(
                    "{name}\t{profile}\t{:.0}\t{:.0}\t{:.2}\t{:.0}\t{:.2}",
                    r.uct_rate, r.playout_rate, r.ns_per_ply, r.uct_cpu_rate, r.cpu_ns_per_ply
                );
            } else {
                println!(
                    "{name:<28} {profile:<24} {:>12.0} {:>12.0} {:>8.2} {:>14.0} {:>10.2}",
                    r.uct_rate, r.playout_rate, r.ns_per_ply, r.uct_cpu_rate, r.cpu_ns_per_ply
                );
            }
        }
    }
}

/// One row's rates.
struct Rates {
    /// UCT iterations per wall-clock second.
    uct_rate: f64,
    /// Playouts per wall-clock second.
    playout_rate: f64,
    /// Wall-clock nanoseconds per playout ply.
    ns_per_ply: f64,
    /// UCT iterations per second on the CPU.
    uct_cpu_rate: f64,
    /// On-CPU nanoseconds per playout ply.
    cpu_ns_per_ply: f64,
}

/// Nanoseconds this thread has run on a CPU, if the kernel tells (`/proc/thread-self/
/// schedstat`, first field); `None` elsewhere, and the CPU rates then repeat the wall ones.
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Nanoseconds all threads of this process have run on a CPU, joined ones included, if the
/// kernel tells (`/proc/self/stat`, user and system time in ticks of 1/100 s, Linux's
/// `USER_HZ`): for the rows that search on several threads.
fn process_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's closing parenthesis start at the third, the state;
    // user and system time are the 14th and 15th.
    let mut fields = text.rsplit_once(')')?.1.split_whitespace().skip(11);
    let (user, system): (u64, u64) = (fields.next()?.parse().ok()?, fields.next()?.parse().ok()?);
    Some((user + system) * 10_000_000)
}

/// Wall-clock and on-CPU seconds since `start` and `cpu_start`.
fn elapsed(start: Instant, cpu_start: Option<u64>) -> (f64, f64) {
    let wall = start.elapsed().as_secs_f64();
    let cpu = match (cpu_start, cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 * 1e-9,
        _ => wall,
    };
    (wall, cpu)
}

/// One row: UCT iterations per second for `budget`, then playouts per second and
/// nanoseconds per playout ply for another `budget`.
fn measure(
    pos: &Position,
    profile: &str,
    budget: Duration,
    tree: &mut api::Arena,
    rng: &mut SmallRng,
) -> Rates {
    let limits = SearchLimits {
        max_iterations: None,
        ..SearchLimits::for_duration(budget, 256 << 20)
    };
    let threaded = profile.starts_with("strong-threads:");
    let (start, cpu_start) = (Instant::now(), cpu_ns());
    let process_start = process_cpu_ns();
    let iterations = api::search(pos, tree, profile, &limits, rng);
    let (wall, mut cpu) = elapsed(start, cpu_start);
    if let (true, Some(a), Some(b)) = (threaded, process_start, process_cpu_ns()) {
        cpu = (b - a) as f64 * 1e-9;
    }
    let (uct_rate, uct_cpu_rate) = (iterations as f64 / wall, iterations as f64 / cpu);

    let threat_root = ThreatPosition::new(pos.clone());
    let (mut playouts, mut plies) = (0u64, 0u64);
    let (start, cpu_start) = (Instant::now(), cpu_ns());
    while start.elapsed() < budget {
        for _ in 0..1000 {
            let ply = if profile == "classic" {
                let mut scratch = pos.clone();
                black_box(random_playout(&mut scratch, rng));
                scratch.ply()
            } else {
                let mut scratch = threat_root.clone();
                black_box(api::tactical(&mut scratch, rng));
                scratch.position().ply()
            };
            plies += (ply - pos.ply()) as u64;
            playouts += 1;
        }
    }
    let (wall, cpu) = elapsed(start, cpu_start);
    Rates {
        uct_rate,
        playout_rate: playouts as f64 / wall,
        ns_per_ply: wall * 1e9 / plies as f64,
        uct_cpu_rate,
        cpu_ns_per_ply: cpu * 1e9 / plies as f64,
    }
}

/// Runs a fixed number of playouts and iterations per position and profile, printing the
/// plies played, so `callgrind` totals can be divided into instructions per ply. The
/// searches are those of `profiles` (`--profiles`; classic and strong by default).
fn fixed_work(profiles: &[&str], only: Option<usize>) {
    let mut tree = api::Arena::default();
    let mut rng = SmallRng::seed_from_u64(2026);
    for (index, (name, pos)) in positions().into_iter().enumerate() {
        if only.is_some_and(|n| n != index) {
            continue;
        }
        let threat_root = ThreatPosition::new(pos.clone());
        let (mut classic_plies, mut strong_plies) = (0, 0);
        for _ in 0..FIXED_WORK {
            let mut scratch = pos.clone();
            black_box(random_playout(&mut scratch, &mut rng));
            classic_plies += scratch.ply() - pos.ply();
            let mut scratch = threat_root.clone();
            black_box(api::tactical(&mut scratch, &mut rng));
            strong_plies += scratch.position().ply() - pos.ply();
        }
        let limits = SearchLimits {
            max_iterations: Some(FIXED_WORK),
            ..SearchLimits::for_duration(Duration::from_secs(3600), 256 << 20)
        };
        for profile in profiles {
            api::search(&pos, &mut tree, profile, &limits, &mut rng);
        }
        println!(
            "{name}: classic playout plies {classic_plies}, strong playout plies {strong_plies}"
        );
        // The default's playouts with their learned policies, each learned from as the
        // search learns from its iterations: a generator of their own, so the rows above
        // do the same work with or without them.
        if let Some(mut policy) = api::policy() {
            let mut rng = SmallRng::seed_from_u64(2027);
            let mut plies = 0;
            for _ in 0..FIXED_WORK {
                let mut scratch = threat_root.clone();
                let outcome = api::learned_playout(&mut scratch, &mut policy, &mut rng);
                plies += scratch.position().ply() - pos.ply();
                api::learn(&mut policy, outcome);
            }
            println!("{name}: learned playout plies {plies}");
        }
    }
}
