//! Plays strategies against each other in-process and prints the scores.
//!
//! ```text
//! GRAVITY4_MOVE_MS=100 cargo run --release --example arena -- [--pairs N] [--seed S]
//!     [--threads T] [LOWER HIGHER]...
//! ```
//! With no players, plays every rung against the one below it. Otherwise players come two by
//! two (lower first) and each is a rung number (`1`..`10`), `abD` (alpha-beta at depth `D`),
//! `uctP` (the library's search at `P` per mille of the budget) or `safeC` (greedy-safe, centre
//! weighted when `C` is 1).

use gravity4::request::Request;
use gravity4_ladder::arena::{Player, play_match};
use gravity4_ladder::{alphabeta, greedy, rung, uct};
use std::time::Instant;

fn player(name: &str) -> (String, Box<Player>) {
    if let Some(d) = name.strip_prefix("ab") {
        let depth: u32 = d.parse().expect("abD needs a depth");
        return (
            name.into(),
            Box::new(move |r: &Request| alphabeta::choose_at_depth(r, depth)),
        );
    }
    if let Some(p) = name.strip_prefix("uct") {
        let permille: u32 = p.parse().expect("uctP needs a per-mille share");
        return (
            name.into(),
            Box::new(move |r: &Request| uct::choose_with_share(r, permille)),
        );
    }
    if let Some(c) = name.strip_prefix("safe") {
        let centre = c == "1";
        return (
            name.into(),
            Box::new(move |r: &Request| {
                greedy::greedy_move(&r.position, true, centre, &mut gravity4_ladder::fresh_rng())
            }),
        );
    }
    let rung = rung(name.parse().expect("a rung number, abD, uctP or safeC"));
    (
        format!("{} {}", rung.number, rung.name),
        Box::new(rung.choose),
    )
}

fn main() {
    let mut pairs = 50;
    let mut seed = 1;
    let mut threads = 2;
    let mut names = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| -> u64 {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{name} needs a number"))
        };
        match arg.as_str() {
            "--pairs" => pairs = value("--pairs") as usize,
            "--seed" => seed = value("--seed"),
            "--threads" => threads = value("--threads") as usize,
            _ => names.push(arg),
        }
    }
    if names.is_empty() {
        for n in 1..10 {
            names.push(n.to_string());
            names.push((n + 1).to_string());
        }
    }
    println!("| higher | lower | W-L-T | score | time |");
    println!("|---|---|---|---|---|");
    for pair in names.chunks(2) {
        let (lo_name, lo) = player(&pair[0]);
        let (hi_name, hi) = player(&pair[1]);
        let start = Instant::now();
        let r = play_match(&*hi, &*lo, pairs, seed, threads);
        println!(
            "| {hi_name} | {lo_name} | {}-{}-{} | {:.1}% | {:.0}s |",
            r.wins,
            r.losses,
            r.ties,
            100.0 * r.score(),
            start.elapsed().as_secs_f64()
        );
    }
}
