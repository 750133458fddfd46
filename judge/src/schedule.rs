//! Who plays whom, on which boards, in which order.
//!
//! Every pairing plays `pairs` boards; board `k` is the same for every pairing (the game
//! draws it from a seed mixed from the run seed and `k`), which makes pairings comparable. Each
//! board is played twice, colours swapped (or, under [`Colours::Fixed`], twice with the
//! same colours). Game ids are deterministic, so a resumed run knows exactly which games
//! are missing.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::games::Game;
use crate::players::PlayerSpec;

/// The kind of tournament: who meets whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Two players.
    Match,
    /// Everyone against everyone.
    RoundRobin,
    /// The first player against each of the others.
    Gauntlet,
}

impl Mode {
    /// The command's name, as run.json and summary.json record it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Match => "match",
            Mode::RoundRobin => "round-robin",
            Mode::Gauntlet => "gauntlet",
        }
    }

    /// The pairings this mode plays among `n` entrants.
    pub fn pairings(self, n: usize) -> Vec<Pairing> {
        match self {
            Mode::Match => vec![Pairing { a: 0, b: 1 }],
            Mode::RoundRobin => round_robin(n),
            Mode::Gauntlet => gauntlet(n),
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A player taking part in the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    /// Unique display name (the file stem, disambiguated when stems repeat).
    pub name: String,
    /// The player as given on the command line (`LIB.so` or `LIB.so@KEY=VALUE,...`): what
    /// the game log records and `--resume` compares.
    pub path: PathBuf,
    /// What the argument names.
    pub spec: PlayerSpec,
}

/// Names players by [`PlayerSpec::base_name`]; repeated names get `#2`, `#3`...
pub fn entrants(paths: &[PathBuf]) -> Result<Vec<Entrant>> {
    let mut seen: Vec<String> = Vec::new();
    paths
        .iter()
        .map(|p| {
            let spec = PlayerSpec::parse(p)?;
            let stem = spec.base_name();
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
                spec,
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

/// Who takes which colour in the two games of a board.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Colours {
    /// The pairing's `a` first in game 0, `b` first in game 1: the pentanomial pairs.
    #[default]
    Swapped,
    /// The pairing's `a` first in both games (`--fixed-colours`: a handicap match, the
    /// first player Black every game); no pentanomial pair is formed.
    Fixed,
}

impl Colours {
    /// Whether colours swap between the two games of a board (the default).
    pub fn is_swapped(&self) -> bool {
        *self == Colours::Swapped
    }

    /// `swapped` or `fixed`, as run.json records it.
    pub fn name(self) -> &'static str {
        match self {
            Colours::Swapped => "swapped",
            Colours::Fixed => "fixed",
        }
    }

    /// The two games of a board of pairing `p`: (game number, first mover, second mover).
    pub fn games(self, p: Pairing) -> [(u8, usize, usize); 2] {
        match self {
            Colours::Swapped => [(0, p.a, p.b), (1, p.b, p.a)],
            Colours::Fixed => [(0, p.a, p.b), (1, p.a, p.b)],
        }
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
#[derive(Debug, Clone, PartialEq)]
pub struct Job<G: Game> {
    /// Index into the pairing list.
    pub pairing: usize,
    /// Board number within the pairing.
    pub pair: u32,
    /// 0: the pairing's `a` moves first; 1: colours swapped (unless they are fixed).
    pub game: u8,
    /// Entrant moving first.
    pub first: usize,
    /// Entrant moving second.
    pub second: usize,
    /// The board.
    pub board: G::Setup,
    /// The seed the board was drawn from.
    pub board_seed: u64,
}

impl<G: Game> Job<G> {
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

/// The seed board `pair` of a run with `seed` is drawn from.
pub fn board_seed(seed: u64, pair: u32) -> u64 {
    mix(seed, pair as u64)
}

/// Board `pair` of a run with `seed`, drawn by the game's rules, with its seed.
pub fn board<G: Game>(game: &G, seed: u64, pair: u32) -> (G::Setup, u64) {
    let board_seed = board_seed(seed, pair);
    (game.setup(board_seed), board_seed)
}

/// Part `index` of `count` of a run's schedule (`--shard I/N`, 1-based). A shard owns
/// whole boards of a pairing, never one colour of a board without the other, so each
/// shard's pairs are complete and paired statistics stay paired when shards are merged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    /// 1..=count.
    index: u32,
    /// How many shards the schedule is split into (at least 1).
    count: u32,
}

impl Shard {
    /// The whole schedule: shard 1 of 1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Shard `index` of `count`; `index` must be in 1..=count.
    pub fn new(index: u32, count: u32) -> Result<Shard> {
        if count == 0 || index == 0 || index > count {
            bail!("shard {index}/{count}: expected I/N with N >= 1 and I in 1..=N");
        }
        Ok(Shard { index, count })
    }

    /// This shard's number, 1..=count.
    pub fn index(self) -> u32 {
        self.index
    }

    /// How many shards there are.
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether this is the whole schedule (N = 1).
    pub fn is_whole(self) -> bool {
        self.count == 1
    }

    /// Whether board `pair` of pairing `pairing` (of `n_pairings`) is this shard's. Boards
    /// are dealt round the shards in schedule order (board by board, pairing by pairing),
    /// so every shard gets an even share of every pairing and of the early boards, and an
    /// SPRT read over shards still in progress sees every pairing.
    pub fn owns(self, pairing: usize, pair: u32, n_pairings: usize) -> bool {
        let unit = pair as u64 * n_pairings as u64 + pairing as u64;
        unit % self.count as u64 == (self.index - 1) as u64
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = anyhow::Error;

    /// `I/N`, as `--shard` takes it and run.json records it.
    fn from_str(s: &str) -> Result<Shard> {
        let (i, n) = s
            .split_once('/')
            .with_context(|| format!("shard {s:?}: expected I/N, e.g. 2/4"))?;
        let num = |t: &str| {
            t.trim()
                .parse::<u32>()
                .with_context(|| format!("shard {s:?}: expected I/N, e.g. 2/4"))
        };
        Shard::new(num(i)?, num(n)?)
    }
}

impl Serialize for Shard {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Shard, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(|e: anyhow::Error| serde::de::Error::custom(e))
    }
}

/// The identity of a run's full schedule: SHA-256 (hex) over every game it plans, in
/// order (pairing, board, board seed, colours, both players' names and paths), plus the
/// mode (and fixed colours, when they are). Shards of one run agree on it; a shard drawn
/// from another seed, with other players, another number of boards or other colours does
/// not. A run with colours swapped has the digest it had before colours could be fixed.
pub fn schedule_digest(
    mode: Mode,
    entrants: &[Entrant],
    pairings: &[Pairing],
    pairs: u32,
    seed: u64,
    colours: Colours,
) -> String {
    let mut h = Sha256::new();
    h.update(format!("{mode} seed {seed} pairs {pairs}\n"));
    if colours == Colours::Fixed {
        h.update("colours fixed\n");
    }
    for pair in 0..pairs {
        let board_seed = board_seed(seed, pair);
        for (i, p) in pairings.iter().enumerate() {
            for (game, first, second) in colours.games(*p) {
                let (f, s) = (&entrants[first], &entrants[second]);
                // One line per game; paths are debug-quoted so no name can forge a line.
                h.update(format!(
                    "{i} {pair} {board_seed} {game} {:?} {:?} {:?} {:?}\n",
                    f.name, f.path, s.name, s.path
                ));
            }
        }
    }
    hex(&h.finalize())
}

/// Lower-case hex of a digest.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Number of games shard `shard` of a schedule with `n_pairings` pairings and `pairs`
/// boards plays (two per board it owns).
pub fn shard_games(shard: Shard, n_pairings: usize, pairs: u32) -> u64 {
    let units = pairs as u64 * n_pairings as u64;
    let (n, i) = (shard.count as u64, (shard.index - 1) as u64);
    // Units i, i + n, i + 2n, ... below `units`.
    2 * (units.saturating_sub(i).div_ceil(n))
}

/// The games of `shard` of the run, in `colours`, except the pairs in `done` (pairing,
/// pair), board by board so that results arrive for every pairing evenly and pairs finish close together.
pub fn jobs<G: Game>(
    game: &G,
    pairings: &[Pairing],
    pairs: u32,
    seed: u64,
    shard: Shard,
    colours: Colours,
    done: &HashSet<(usize, u32)>,
) -> Vec<Job<G>> {
    let mut out = Vec::new();
    for pair in 0..pairs {
        let (spec, board_seed) = board(game, seed, pair);
        for (i, p) in pairings.iter().enumerate() {
            if done.contains(&(i, pair)) || !shard.owns(i, pair, pairings.len()) {
                continue;
            }
            for (game, first, second) in colours.games(*p) {
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
    use crate::games::connect4::Connect4;

    #[test]
    fn boards_are_reproducible_and_differ_by_seed() {
        for k in 0..200 {
            assert_eq!(board(&Connect4, 42, k), board(&Connect4, 42, k));
        }
        assert_ne!(board(&Connect4, 1, 0), board(&Connect4, 2, 0));
        // The very first board of seed 5 (what a seeded run plays first).
        let (b, s) = board(&Connect4, 5, 0);
        assert_eq!(s, board_seed(5, 0));
        assert_eq!(b, Connect4.setup(s));
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
        assert_eq!(Mode::Gauntlet.pairings(4), gauntlet(4));
        assert_eq!(Mode::Match.pairings(2), vec![Pairing { a: 0, b: 1 }]);
        assert_eq!(
            serde_json::to_string(&Mode::RoundRobin).unwrap(),
            "\"round-robin\""
        );
        let p = Mode::RoundRobin.pairings(3);
        let all = jobs(
            &Connect4,
            &p,
            2,
            7,
            Shard::WHOLE,
            Colours::Swapped,
            &HashSet::new(),
        );
        assert_eq!(all.len(), 12);
        assert_eq!((all[0].first, all[0].second), (0, 1));
        assert_eq!((all[1].first, all[1].second), (1, 0));
        assert_eq!(all[0].board, all[1].board);
        let done: HashSet<_> = [(0, 0)].into();
        let rest = jobs(&Connect4, &p, 2, 7, Shard::WHOLE, Colours::Swapped, &done);
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
        assert_eq!(e[1].spec.file(), Path::new("lib/g.so"));
        assert_eq!(
            e[1].path,
            PathBuf::from("lib/g.so@GRAVITY4_PROFILE=strong,GRAVITY4_MOVE_MS=50")
        );
        assert!(entrants(&["g.so@NOEQUALS".into()]).is_err());
        let e =
            entrants(&["g.so@GRAVITY4_DISABLE=reuse,endgame,GRAVITY4_MOVE_MS=5".into()]).unwrap();
        assert_eq!(e[0].name, "g@DISABLE=reuse,endgame,MOVE_MS=5");
    }

    #[test]
    fn shards_split_the_schedule_into_disjoint_whole_boards() {
        // For several modes, sizes, seeds and shard counts: the union of shards 1..N is
        // exactly the full schedule, no game is in two shards, both colours of a board are
        // in the same shard, and each shard plays what `shard_games` says.
        for (mode, n) in [(Mode::Match, 2), (Mode::RoundRobin, 4), (Mode::Gauntlet, 5)] {
            let p = mode.pairings(n);
            for seed in [0, 7, u64::MAX] {
                for pairs in [1, 5, 13] {
                    let full = jobs(
                        &Connect4,
                        &p,
                        pairs,
                        seed,
                        Shard::WHOLE,
                        Colours::Swapped,
                        &HashSet::new(),
                    );
                    assert_eq!(full.len(), p.len() * 2 * pairs as usize);
                    for count in [1, 2, 3, 4, 7, 40] {
                        let mut union = Vec::new();
                        for index in 1..=count {
                            let shard = Shard::new(index, count).unwrap();
                            let part = jobs(
                                &Connect4,
                                &p,
                                pairs,
                                seed,
                                shard,
                                Colours::Swapped,
                                &HashSet::new(),
                            );
                            assert_eq!(
                                part.len() as u64,
                                shard_games(shard, p.len(), pairs),
                                "{mode} {shard}"
                            );
                            let ids: HashSet<_> = part.iter().map(|j| j.id()).collect();
                            for j in &part {
                                let other = game_id(j.pairing, j.pair, 1 - j.game);
                                assert!(ids.contains(&other), "{shard} splits board {}", j.id());
                            }
                            union.extend(part);
                        }
                        let key = |j: &Job<Connect4>| {
                            (j.pairing, j.pair, j.game, j.first, j.second, j.board_seed)
                        };
                        let mut got: Vec<_> = union.iter().map(key).collect();
                        got.sort();
                        let before = got.len();
                        got.dedup();
                        assert_eq!(got.len(), before, "a game in two shards");
                        let mut want: Vec<_> = full.iter().map(key).collect();
                        want.sort();
                        assert_eq!(got, want, "{mode} seed {seed} pairs {pairs} /{count}");
                    }
                }
            }
        }
    }

    #[test]
    fn shards_parse_and_print() {
        let s: Shard = "2/4".parse().unwrap();
        assert_eq!((s.index(), s.count(), s.to_string()), (2, 4, "2/4".into()));
        assert_eq!(serde_json::to_string(&s).unwrap(), "\"2/4\"");
        assert_eq!(serde_json::from_str::<Shard>("\"2/4\"").unwrap(), s);
        assert!("1/1".parse::<Shard>().unwrap().is_whole());
        for bad in ["0/4", "5/4", "1/0", "2", "a/b", "-1/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_schedule_digest_names_seed_players_and_boards() {
        let e = entrants(&["a.so".into(), "b.so".into()]).unwrap();
        let p = Mode::Match.pairings(2);
        let d = schedule_digest(Mode::Match, &e, &p, 4, 7, Colours::Swapped);
        assert_eq!(d.len(), 64);
        assert_eq!(
            d,
            schedule_digest(Mode::Match, &e, &p, 4, 7, Colours::Swapped)
        );
        assert_ne!(
            d,
            schedule_digest(Mode::Match, &e, &p, 4, 8, Colours::Swapped)
        );
        assert_ne!(
            d,
            schedule_digest(Mode::Match, &e, &p, 5, 7, Colours::Swapped)
        );
        let other = entrants(&["a.so".into(), "c.so".into()]).unwrap();
        assert_ne!(
            d,
            schedule_digest(Mode::Match, &other, &p, 4, 7, Colours::Swapped)
        );
        assert_ne!(
            d,
            schedule_digest(Mode::Gauntlet, &e, &p, 4, 7, Colours::Swapped)
        );
    }

    #[test]
    fn fixed_colours_keep_each_player_s_colour_on_whole_boards() {
        // Under --fixed-colours the pairing's `a` moves first in both games of every
        // board; the boards, ids and shards are those of the swapped schedule.
        let p = Mode::Gauntlet.pairings(3);
        let none = HashSet::new();
        let swapped = jobs(&Connect4, &p, 3, 7, Shard::WHOLE, Colours::Swapped, &none);
        let fixed = jobs(&Connect4, &p, 3, 7, Shard::WHOLE, Colours::Fixed, &none);
        assert_eq!(fixed.len(), swapped.len());
        for (f, s) in fixed.iter().zip(&swapped) {
            assert_eq!((f.id(), f.board_seed), (s.id(), s.board_seed));
            let pairing = p[f.pairing];
            assert_eq!((f.first, f.second), (pairing.a, pairing.b), "{}", f.id());
        }
        let shard = Shard::new(2, 3).unwrap();
        let part = jobs(&Connect4, &p, 3, 7, shard, Colours::Fixed, &none);
        assert_eq!(part.len() as u64, shard_games(shard, p.len(), 3));
        // Fixed colours are another schedule: shards of the two never merge, and a
        // swapped run keeps the digest it had before.
        let e = entrants(&["a.so".into(), "b.so".into(), "c.so".into()]).unwrap();
        let d = |c| schedule_digest(Mode::Gauntlet, &e, &p, 3, 7, c);
        assert_ne!(d(Colours::Fixed), d(Colours::Swapped));
        assert!(Colours::default().is_swapped());
        assert_eq!(serde_json::to_string(&Colours::Fixed).unwrap(), "\"fixed\"");
    }
}
