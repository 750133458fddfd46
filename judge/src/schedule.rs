//! Who plays whom, on which boards, in which order.
//!
//! Every pairing plays `pairs` boards; board `k` is the same for every pairing (drawn
//! from the run seed and `k`, as the course draws them: `M`, `N` uniform in 9..=12, the
//! blocked cell uniform over the whole board), which makes pairings comparable. Each
//! board is played twice with colours swapped. Game ids are deterministic, so a resumed
//! run knows exactly which games are missing.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use rand::{Rng, SeedableRng, rngs::StdRng};

use crate::referee::BoardSpec;

/// A library taking part in the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    /// Unique display name (the file stem, disambiguated when stems repeat).
    pub name: String,
    /// The player as given on the command line (`LIB.so` or `LIB.so@KEY=VALUE,...`): what
    /// the game log records and `--resume` compares.
    pub path: PathBuf,
    /// The library file.
    pub library: PathBuf,
    /// Environment variables set for this player's host process only.
    pub env: Vec<(String, String)>,
}

/// Splits a player argument `LIB.so@KEY=VALUE[,KEY=VALUE...]` into the library and the
/// environment its process gets, so one file can play as several configurations (e.g.
/// `libgravity4.so@GRAVITY4_PROFILE=classic`). An argument naming an existing file, or
/// without `@`, is a plain library.
pub fn split_player(spec: &Path) -> Result<(PathBuf, Vec<(String, String)>)> {
    let text = spec.to_string_lossy();
    let Some((lib, assignments)) = text.rsplit_once('@').filter(|_| !spec.exists()) else {
        return Ok((spec.to_path_buf(), Vec::new()));
    };
    // A piece without `=` continues the previous value, so values may hold commas:
    // `@GRAVITY4_DISABLE=reuse,endgame,GRAVITY4_MOVE_MS=50`.
    let mut env: Vec<(String, String)> = Vec::new();
    for piece in assignments.split(',') {
        match (piece.split_once('='), env.last_mut()) {
            (Some((k, v)), _) if !k.is_empty() && !k.contains(char::is_whitespace) => {
                env.push((k.to_string(), v.to_string()));
            }
            (None, Some((_, value))) => {
                value.push(',');
                value.push_str(piece);
            }
            _ => bail!(
                "bad player {text:?}: expected LIB.so@KEY=VALUE[,KEY=VALUE...], got {piece:?}"
            ),
        }
    }
    Ok((PathBuf::from(lib), env))
}

/// Names players by file stem, plus `@` and their environment settings as `KEY=VALUE`
/// with the key's namespace word dropped (`GRAVITY4_DISABLE=reuse` shows as
/// `DISABLE=reuse`: the value alone would read the same for enabling and disabling);
/// repeated names get `#2`, `#3`...
pub fn entrants(paths: &[PathBuf]) -> Result<Vec<Entrant>> {
    let mut seen: Vec<String> = Vec::new();
    paths
        .iter()
        .map(|p| {
            let (library, env) = split_player(p)?;
            let mut stem = library
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| library.display().to_string());
            if !env.is_empty() {
                let settings: Vec<String> = env
                    .iter()
                    .map(|(k, v)| {
                        let key = k.split_once('_').map_or(k.as_str(), |(_, rest)| rest);
                        format!("{key}={v}")
                    })
                    .collect();
                stem = format!("{stem}@{}", settings.join(","));
            }
            let mut name = stem.clone();
            let mut k = 2;
            while seen.contains(&name) {
                name = format!("{stem}#{k}");
                k += 1;
            }
            seen.push(name.clone());
            Ok(Entrant {
                name,
                path: p.clone(),
                library,
                env,
            })
        })
        .collect()
}

/// Expands directories into their `*.so` files: numbered files in numeric order
/// (`2.so, 4.so, ..., 100.so`), then the others by name. Files are kept as given.
pub fn expand_pool(items: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for item in items {
        if !item.is_dir() {
            out.push(item.clone());
            continue;
        }
        let mut found: Vec<PathBuf> = std::fs::read_dir(item)
            .with_context(|| format!("reading directory {}", item.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "so") && !p.is_dir())
            .collect();
        if found.is_empty() {
            bail!("no *.so files in {}", item.display());
        }
        found.sort_by_key(|p| pool_order(p));
        out.extend(found);
    }
    Ok(out)
}

fn pool_order(p: &Path) -> (u8, u64, String) {
    let stem = p
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    match stem.parse::<u64>() {
        Ok(n) => (0, n, stem),
        Err(_) => (1, 0, stem),
    }
}

/// Two entrants meeting: `a` moves first on the first game of every pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pairing {
    /// Index of the first entrant.
    pub a: usize,
    /// Index of the second entrant.
    pub b: usize,
}

/// Everyone against everyone, each pairing once.
pub fn round_robin(n: usize) -> Vec<Pairing> {
    (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| Pairing { a, b }))
        .collect()
}

/// Entrant 0 against each of the others.
pub fn gauntlet(n: usize) -> Vec<Pairing> {
    (1..n).map(|b| Pairing { a: 0, b }).collect()
}

/// One game to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// Index into the pairing list.
    pub pairing: usize,
    /// Board number within the pairing.
    pub pair: u32,
    /// 0: the pairing's `a` moves first; 1: colours swapped.
    pub game: u8,
    /// Entrant moving first.
    pub first: usize,
    /// Entrant moving second.
    pub second: usize,
    /// The board.
    pub board: BoardSpec,
    /// The seed the board was drawn from.
    pub board_seed: u64,
}

impl Job {
    /// Deterministic id: pairing, board, game.
    pub fn id(&self) -> String {
        game_id(self.pairing, self.pair, self.game)
    }
}

/// The id of game `game` of board `pair` of pairing `pairing`.
pub fn game_id(pairing: usize, pair: u32, game: u8) -> String {
    format!("{pairing}-{pair}-{game}")
}

/// SplitMix64: turns (run seed, board number) into a well-mixed per-board seed.
fn mix(seed: u64, k: u64) -> u64 {
    let mut z = seed ^ k.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Board `pair` of a run with `seed`, drawn as the course draws boards.
pub fn board(seed: u64, pair: u32) -> (BoardSpec, u64) {
    let board_seed = mix(seed, pair as u64);
    let mut rng = StdRng::seed_from_u64(board_seed);
    let m = rng.random_range(9..=12);
    let n = rng.random_range(9..=12);
    let no_x = rng.random_range(0..m);
    let no_y = rng.random_range(0..n);
    (BoardSpec { m, n, no_x, no_y }, board_seed)
}

/// All games of the run except the pairs in `done` (pairing, pair), board by board so
/// that results arrive for every pairing evenly and pairs finish close together.
pub fn jobs(pairings: &[Pairing], pairs: u32, seed: u64, done: &HashSet<(usize, u32)>) -> Vec<Job> {
    let mut out = Vec::new();
    for pair in 0..pairs {
        let (spec, board_seed) = board(seed, pair);
        for (i, p) in pairings.iter().enumerate() {
            if done.contains(&(i, pair)) {
                continue;
            }
            for (game, first, second) in [(0, p.a, p.b), (1, p.b, p.a)] {
                out.push(Job {
                    pairing: i,
                    pair,
                    game,
                    first,
                    second,
                    board: spec,
                    board_seed,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_are_reproducible_and_in_range() {
        let mut sizes = HashSet::new();
        let mut blocked_rows = HashSet::new();
        for k in 0..2000 {
            let (b, s) = board(42, k);
            assert_eq!(board(42, k), (b, s));
            assert!((9..=12).contains(&b.m) && (9..=12).contains(&b.n));
            assert!((0..b.m).contains(&b.no_x) && (0..b.n).contains(&b.no_y));
            sizes.insert((b.m, b.n));
            if b.m == 9 {
                blocked_rows.insert(b.no_x);
            }
        }
        assert_eq!(sizes.len(), 16);
        assert_eq!(blocked_rows.len(), 9, "top and bottom rows included");
        assert_ne!(board(1, 0), board(2, 0));
    }

    #[test]
    fn pairings_and_jobs() {
        assert_eq!(round_robin(3).len(), 3);
        assert_eq!(
            gauntlet(4),
            vec![
                Pairing { a: 0, b: 1 },
                Pairing { a: 0, b: 2 },
                Pairing { a: 0, b: 3 }
            ]
        );
        let p = round_robin(3);
        let all = jobs(&p, 2, 7, &HashSet::new());
        assert_eq!(all.len(), 12);
        assert_eq!((all[0].first, all[0].second), (0, 1));
        assert_eq!((all[1].first, all[1].second), (1, 0));
        assert_eq!(all[0].board, all[1].board);
        let done: HashSet<_> = [(0, 0)].into();
        let rest = jobs(&p, 2, 7, &done);
        assert_eq!(rest.len(), 10);
        assert!(rest.iter().all(|j| (j.pairing, j.pair) != (0, 0)));
    }

    #[test]
    fn pool_is_numeric_then_named() {
        let dir = tempfile::tempdir().unwrap();
        for f in [
            "10.so",
            "2.so",
            "100.so",
            "4.so",
            "zeta.so",
            "alpha.so",
            "notes.txt",
        ] {
            std::fs::write(dir.path().join(f), "").unwrap();
        }
        let got: Vec<String> = expand_pool(&[dir.path().to_path_buf()])
            .unwrap()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            got,
            ["2.so", "4.so", "10.so", "100.so", "alpha.so", "zeta.so"]
        );
    }

    #[test]
    fn repeated_stems_get_unique_names() {
        let e = entrants(&["a/x.so".into(), "b/x.so".into(), "y.so".into()]).unwrap();
        let names: Vec<_> = e.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["x", "x#2", "y"]);
    }

    #[test]
    fn players_can_carry_their_own_environment() {
        let e = entrants(&[
            "lib/g.so@GRAVITY4_PROFILE=classic".into(),
            "lib/g.so@GRAVITY4_PROFILE=strong,GRAVITY4_MOVE_MS=50".into(),
            "lib/g.so".into(),
        ])
        .unwrap();
        let names: Vec<_> = e.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            ["g@PROFILE=classic", "g@PROFILE=strong,MOVE_MS=50", "g"]
        );
        assert_eq!(e[1].library, PathBuf::from("lib/g.so"));
        assert_eq!(
            e[1].env,
            [
                ("GRAVITY4_PROFILE".to_string(), "strong".to_string()),
                ("GRAVITY4_MOVE_MS".to_string(), "50".to_string())
            ]
        );
        assert!(e[2].env.is_empty());
        assert!(entrants(&["g.so@NOEQUALS".into()]).is_err());
        let e =
            entrants(&["g.so@GRAVITY4_DISABLE=reuse,endgame,GRAVITY4_MOVE_MS=5".into()]).unwrap();
        assert_eq!(e[0].env[0].1, "reuse,endgame");
        assert_eq!(
            e[0].env[1],
            ("GRAVITY4_MOVE_MS".to_string(), "5".to_string())
        );
    }
}
