//! Trains the n-tuple evaluation of `src/search/ntuple.rs` by TD(lambda) self-play and
//! writes its weights file (the one the library compiles in is `src/search/ntuple.weights`).
//!
//! ```sh
//! cargo run --release --example train-ntuple -- --games 200000 --seed 51 --out src/search/ntuple.weights
//! # after a stop: the same command with --resume FILE --first-game K (K = games done)
//! ```
//!
//! Each game is on a board the course could draw (9..12 x 9..12, the blocked cell anywhere),
//! seeded from the seed and the game's number, so a run is the same on every machine. Both
//! sides play the same policy: a win is taken, a forced block played, a move that lets the
//! opponent win on top avoided (the library's tactics); the first 0..=6 plies and a share
//! `EPSILON` of the others are random among those moves, the rest greedy by the model (the
//! move after which the opponent's value is lowest). After each game every position's weights
//! move towards its lambda-return (offline TD(lambda), no discount; a won game is 1 for the
//! winner, a tie 1/2), each update applied to a weight and its mirror image.

use gravity4::position::Position;
use gravity4::search::ntuple::{Model, WEIGHTS, Windows, mirror_slot};
use gravity4::threats::ThreatPosition;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Share of the policy's moves (past the opening) played at random among the candidates.
const EPSILON: f32 = 0.1;
/// TD's lambda: how far each position's target looks down the game.
const LAMBDA: f32 = 0.7;
/// The step, divided by a position's number of windows, at the start of the run; it falls
/// linearly to a tenth of that by the last game.
const ALPHA: f32 = 0.05;
/// Games between checkpoints of the weights file.
const CHECKPOINT: u64 = 20_000;

struct Args {
    games: u64,
    first_game: u64,
    seed: u64,
    out: String,
    resume: Option<String>,
    evaluate: u64,
}

fn args() -> Args {
    let mut args = Args {
        games: 100_000,
        first_game: 0,
        seed: 51,
        out: "ntuple.weights".into(),
        resume: None,
        evaluate: 0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        let number = || value.parse().unwrap_or_else(|_| panic!("{flag}: {value}"));
        match flag.as_str() {
            "--games" => args.games = number(),
            "--first-game" => args.first_game = number(),
            "--seed" => args.seed = number(),
            "--out" => args.out = value,
            "--resume" => args.resume = Some(value),
            "--evaluate" => args.evaluate = number(),
            _ => panic!("unknown option {flag}"),
        }
    }
    args
}

/// A random column of the mask `cols` (not empty).
fn random_col(cols: u16, rng: &mut SmallRng) -> usize {
    let mut pick = rng.random_range(0..cols.count_ones());
    let mut m = cols;
    loop {
        let col = m.trailing_zeros() as usize;
        if pick == 0 {
            return col;
        }
        pick -= 1;
        m &= m - 1;
    }
}

/// The policy's move in `tp` (see the module docs).
fn choose(
    tp: &ThreatPosition,
    model: &Model,
    windows: &Windows,
    random: bool,
    rng: &mut SmallRng,
) -> usize {
    let tactics = tp.tactics();
    let candidates = match tactics.candidates() {
        0 => tactics.open,
        c => c,
    };
    if candidates.count_ones() == 1 || random {
        return random_col(candidates, rng);
    }
    let mut best = (f32::INFINITY, 0);
    let mut m = candidates;
    while m != 0 {
        let col = m.trailing_zeros() as usize;
        m &= m - 1;
        let mut after = tp.position().clone();
        let score = if after.play(col) {
            f32::NEG_INFINITY
        } else {
            model.score(windows, &after)
        };
        if score < best.0 {
            best = (score, col);
        }
    }
    best.1
}

/// Plays one game with `model` and learns from it at step `alpha`; returns the positions'
/// mean squared error before the update and the game's length.
fn train_game(
    model: &mut Model,
    rng: &mut SmallRng,
    alpha: f32,
    states: &mut Vec<Position>,
) -> (f32, usize) {
    let (rows, cols) = (rng.random_range(9..=12), rng.random_range(9..=12));
    let blocked = (rng.random_range(0..rows), rng.random_range(0..cols));
    let mut tp =
        ThreatPosition::new(Position::new(rows, cols, blocked.0, blocked.1).expect("course board"));
    let windows = Windows::new(tp.position().geometry());
    let opening = rng.random_range(0..=6);
    states.clear();
    // The result for the mover of the last position: 1 a win, 1/2 a tie.
    let last = loop {
        states.push(tp.position().clone());
        let random = states.len() <= opening || rng.random::<f32>() < EPSILON;
        let col = choose(&tp, model, &windows, random, rng);
        if tp.play(col) {
            break 1.0;
        }
        if tp.position().empty_cells() == 0 {
            break 0.5;
        }
    };
    let values: Vec<f32> = states.iter().map(|p| model.value(&windows, p)).collect();
    let mut target = last;
    let mut error = 0.0;
    for t in (0..states.len()).rev() {
        if t + 1 < states.len() {
            target = (1.0 - LAMBDA) * (1.0 - values[t + 1]) + LAMBDA * (1.0 - target);
        }
        let delta = target - model.value(&windows, &states[t]);
        error += (target - values[t]).powi(2);
        let mut slots = Vec::with_capacity(400);
        windows.for_each_slot(&states[t], |s| slots.push(s));
        let step = alpha * delta / slots.len() as f32;
        let weights = model.weights_mut();
        for slot in slots {
            weights[slot] += step;
            let mirror = mirror_slot(slot);
            if mirror != slot {
                weights[mirror] += step;
            }
        }
    }
    (error / states.len() as f32, states.len())
}

/// The score of the greedy policy (no random moves past the opening) against the same
/// tactics choosing at random, over `games` pairs of games on shared boards, colours swapped:
/// how much the weights know beyond the tactics.
fn evaluate(model: &Model, games: u64, seed: u64) -> f32 {
    let mut points = 0.0;
    for game in 0..2 * games {
        let mut rng = SmallRng::seed_from_u64(seed ^ (game / 2) << 1);
        let (rows, cols) = (rng.random_range(9..=12), rng.random_range(9..=12));
        let blocked = (rng.random_range(0..rows), rng.random_range(0..cols));
        let mut tp = ThreatPosition::new(
            Position::new(rows, cols, blocked.0, blocked.1).expect("course board"),
        );
        let windows = Windows::new(tp.position().geometry());
        let greedy_moves_first = game % 2 == 0;
        let mut ply = 0;
        points += loop {
            let greedy = (ply % 2 == 0) == greedy_moves_first;
            let col = choose(&tp, model, &windows, !greedy || ply < 2, &mut rng);
            ply += 1;
            if tp.play(col) {
                break if greedy { 1.0 } else { 0.0 };
            }
            if tp.position().empty_cells() == 0 {
                break 0.5;
            }
        };
    }
    points / (2 * games) as f32
}

fn save(model: &Model, path: &str) {
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, model.to_bytes()).expect("write the weights");
    std::fs::rename(&tmp, path).expect("replace the weights");
}

fn main() {
    let args = args();
    let mut model = match &args.resume {
        Some(path) => {
            Model::from_bytes(&std::fs::read(path).expect("read --resume")).expect("a weights file")
        }
        None => Model::new(vec![0.0; WEIGHTS].into_boxed_slice()),
    };
    if args.evaluate > 0 {
        println!(
            "greedy vs random tactics: {:.3}",
            evaluate(&model, args.evaluate, args.seed)
        );
        return;
    }
    let start = Instant::now();
    let (mut error, mut plies, mut count) = (0.0, 0, 0);
    let mut states = Vec::with_capacity(160);
    for game in args.first_game..args.games {
        let mut rng = SmallRng::seed_from_u64(args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ game);
        let progress = game as f32 / args.games as f32;
        let alpha = ALPHA * (1.0 - 0.9 * progress);
        let (e, n) = train_game(&mut model, &mut rng, alpha, &mut states);
        error += e;
        plies += n;
        count += 1;
        if (game + 1) % CHECKPOINT == 0 || game + 1 == args.games {
            save(&model, &args.out);
            eprintln!(
                "games {} mse {:.4} plies/game {:.1} {:.0} s",
                game + 1,
                error / count as f32,
                plies as f32 / count as f32,
                start.elapsed().as_secs_f32(),
            );
            (error, plies, count) = (0.0, 0, 0);
        }
    }
    save(&model, &args.out);
}
