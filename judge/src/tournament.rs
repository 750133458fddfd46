//! A tournament: the games a schedule asks for, played by a pool of workers, each game
//! refereed between two players, and every finished game handed to the observers.
//!
//! The tournament knows the schedule, the referee, the players (through the [`Lineup`]
//! and [`Player`] seams) and the results it needs to stop an SPRT; it does not know who
//! observes it (the game log, the progress bar, the report), nor how players run.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

use anyhow::Result;

use crate::clock::ClockSettings;
use crate::games::{Game, Side, Termination};
use crate::players::{Lineup, Player};
use crate::record::{GameRecord, GameResult, Observer, course_code, round_ms};
use crate::referee::{self, Outcome};
use crate::results;
use crate::schedule::{self, Colours, Entrant, Job, Pairing, Shard};
use crate::stats::{SprtDecision, SprtParams};

/// How games are played.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Wall-clock limit per move.
    pub move_limit: Duration,
    /// Each side's game clock, if the run has one (Go's `--main-time` and byo-yomi).
    pub clock: Option<ClockSettings>,
    /// Games played at once.
    pub concurrency: usize,
    /// Keep one player process per entrant per worker across games (the course runner's
    /// way); otherwise every game gets fresh players.
    pub reuse_process: bool,
    /// The run's seed (boards are drawn from it; recorded in every game).
    pub seed: u64,
    /// Boards per pairing.
    pub pairs: u32,
    /// Stop once this SPRT decides (on pairing 0). A shard of a bigger run has none: it
    /// cannot stop the other shards, so it plays its whole part and `judge status` reads
    /// the test over all of them.
    pub sprt: Option<SprtParams>,
    /// The part of the schedule this run plays (`Shard::WHOLE` unless `--shard`).
    pub shard: Shard,
    /// Colours swapped between a board's two games, or fixed (`--fixed-colours`).
    pub colours: Colours,
}

/// What is left to play of a run.
#[derive(Debug)]
pub struct Plan<G: Game> {
    /// The games still to play, in order.
    pub jobs: Vec<Job<G>>,
    /// The games already logged (a resumed run's whole pairs).
    pub logged: Vec<GameRecord<G>>,
}

impl<G: Game> Plan<G> {
    /// The games of `pairings` under `settings` that `logged` does not hold yet. A resumed
    /// run whose SPRT had already decided plays nothing more: the log is read as a
    /// sequential test (stopping at the first deciding prefix), like the final report.
    pub fn new(
        game: &G,
        pairings: &[Pairing],
        settings: &Settings,
        logged: Vec<GameRecord<G>>,
    ) -> Plan<G> {
        let done: HashSet<(usize, u32)> = logged.iter().map(|r| (r.pairing, r.pair)).collect();
        let decided_before = settings.sprt.as_ref().is_some_and(|p| {
            results::sequential_sprt(&logged, 0, p).decision != SprtDecision::Continue
        });
        let jobs = if decided_before {
            Vec::new()
        } else {
            schedule::jobs(
                game,
                pairings,
                settings.pairs,
                settings.seed,
                settings.shard,
                settings.colours,
                &done,
            )
        };
        Plan { jobs, logged }
    }
}

/// Plays `plan`, handing every finished game to each of `observers` in turn (on this
/// thread, in finishing order), then the whole run's records to their
/// `tournament_finished`. New games stop once the SPRT decides (live, on all complete
/// pairs so far), an observer fails or one wants to stop; games in flight still finish
/// and are handed on.
/// Returns every record of the run.
pub fn play<G: Game>(
    game: &G,
    settings: &Settings,
    entrants: &[Entrant],
    lineup: &dyn Lineup<G>,
    plan: Plan<G>,
    observers: &mut [&mut dyn Observer<G>],
) -> Result<Vec<GameRecord<G>>> {
    let Plan {
        jobs,
        logged: mut records,
    } = plan;
    let decided = |recs: &[GameRecord<G>]| {
        settings
            .sprt
            .as_ref()
            .is_some_and(|p| results::sprt_of(recs, 0, p).decision != SprtDecision::Continue)
    };
    run_pool(game, settings, entrants, lineup, jobs, |rec| {
        for o in observers.iter_mut() {
            o.game_finished(&rec)?;
        }
        records.push(rec);
        Ok(decided(&records) || observers.iter().any(|o| o.wants_stop()))
    })?;
    for o in observers.iter_mut() {
        o.tournament_finished(&records)?;
    }
    Ok(records)
}

/// The worker pool: `concurrency` threads, each playing one game at a time with its own
/// players, sending finished games back to this thread, which calls `on_game` for each.
/// When it returns `Ok(true)` (stop) no new game starts; games in flight still finish and
/// are reported. A worker starts its next game only once its last one has been handed on,
/// so a stop takes effect at once: with one worker, no game follows the one that stopped
/// the run.
fn run_pool<G: Game>(
    game: &G,
    settings: &Settings,
    entrants: &[Entrant],
    lineup: &dyn Lineup<G>,
    jobs: Vec<Job<G>>,
    mut on_game: impl FnMut(GameRecord<G>) -> Result<bool>,
) -> Result<()> {
    let queue = Mutex::new(VecDeque::from(jobs));
    let stop = AtomicBool::new(false);
    // Each record travels with its worker's acknowledgement, dropped once it is handled.
    let (tx, rx) = mpsc::channel::<(GameRecord<G>, mpsc::SyncSender<()>)>();
    std::thread::scope(|s| -> Result<()> {
        for _ in 0..settings.concurrency.max(1) {
            let tx = tx.clone();
            let (queue, stop) = (&queue, &stop);
            s.spawn(move || {
                let mut worker = Worker {
                    game,
                    settings,
                    entrants,
                    lineup,
                    players: HashMap::new(),
                };
                while !stop.load(Ordering::Relaxed) {
                    let job = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
                    let Some(job) = job else { break };
                    let (handled, wait) = mpsc::sync_channel(0);
                    if tx.send((worker.play(&job), handled)).is_err() {
                        break;
                    }
                    // Returns when the record has been handled (its sender dropped).
                    let _ = wait.recv();
                }
            });
        }
        drop(tx);
        let mut result = Ok(());
        for (rec, _handled) in rx {
            if result.is_err() {
                continue;
            }
            match on_game(rec) {
                Ok(false) => {}
                Ok(true) => stop.store(true, Ordering::Relaxed),
                Err(e) => {
                    // Cannot record games any more: stop scheduling, let workers drain.
                    stop.store(true, Ordering::Relaxed);
                    result = Err(e);
                }
            }
        }
        result
    })
}

/// One worker thread's state: its kept players when `--reuse-process` is on.
struct Worker<'a, G: Game> {
    game: &'a G,
    settings: &'a Settings,
    entrants: &'a [Entrant],
    lineup: &'a dyn Lineup<G>,
    /// Keyed by (entrant, slot): slot 1 only when an entrant plays itself.
    players: HashMap<(usize, u8), Box<dyn Player<G>>>,
}

impl<G: Game> Worker<'_, G> {
    /// A kept player that can play on, or a newly opened one (not yet waited for).
    fn player(&mut self, key: (usize, u8)) -> Box<dyn Player<G>> {
        match self.players.remove(&key) {
            Some(p) if p.reusable() => p,
            _ => self.lineup.open(key.0),
        }
    }

    fn play(&mut self, job: &Job<G>) -> GameRecord<G> {
        let keys = [
            (job.first, 0),
            (job.second, u8::from(job.first == job.second)),
        ];
        // Only the two players of this game are kept; others are closed.
        self.players.retain(|k, _| keys.contains(k));
        // Both are opened before either is started: the two loads overlap.
        let mut first = self.player(keys[0]);
        let mut second = self.player(keys[1]);
        let outcome = referee::play_on_clock(
            self.game,
            &job.board,
            [first.as_mut(), second.as_mut()],
            self.settings.move_limit,
            self.settings.clock,
        );
        for (key, p) in keys.into_iter().zip([first, second]) {
            if self.settings.reuse_process && p.reusable() {
                self.players.insert(key, p);
            }
        }
        self.record(job, outcome)
    }

    fn record(&self, job: &Job<G>, mut o: Outcome<G>) -> GameRecord<G> {
        let (a, b) = (&self.entrants[job.first], &self.entrants[job.second]);
        // The referee does not word verdicts; say what they mean in the log.
        o.detail = o.detail.or_else(|| match o.termination {
            Termination::Timeout => Some(format!(
                "no answer within {} ms",
                self.settings.move_limit.as_millis()
            )),
            Termination::Null => Some("getPoint returned NULL".into()),
            _ => None,
        });
        let loser = o.winner.map(Side::other);
        GameRecord {
            id: job.id(),
            pairing: job.pairing,
            pair: job.pair,
            game: job.game,
            first: a.name.clone(),
            second: b.name.clone(),
            first_path: a.path.clone(),
            second_path: b.path.clone(),
            result: GameResult::of(o.winner),
            termination: o.termination,
            course_code: course_code(o.termination, loser, o.detail.as_deref()),
            loser,
            detail: o.detail,
            illegal_point: o.illegal_point,
            board: job.board,
            moves: o.moves,
            move_ms: o.move_ms.iter().map(|&ms| round_ms(ms)).collect(),
            cpu_ms: o.cpu_ms.iter().map(|c| c.map(round_ms)).collect(),
            seed: self.settings.seed,
            board_seed: job.board_seed,
            margin: o.margin,
            peak_rss_kb: o.peak_kb,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect4::{BoardSpec, Connect4, Point, Position};
    use crate::players::{Answer, Fault};
    use crate::schedule::Mode;

    /// In-memory players: entrant 0 plays the leftmost column, entrant 1 crashes on its
    /// first move, entrant 2 cannot load.
    struct Fakes;

    struct Fake(usize);

    impl Player<Connect4> for Fake {
        fn start(&mut self, _: &Connect4, _: &BoardSpec, _: Side) -> Result<(), Fault> {
            match self.0 {
                2 => Err(Fault::MissingSymbol("missing symbol getPoint".into())),
                _ => Ok(()),
            }
        }
        fn next_move(
            &mut self,
            _: &Connect4,
            p: &Position,
            _: Option<Point>,
            _: Duration,
        ) -> Answer<Point> {
            // As slow as a quick library, so the pool's stop can overtake the queue.
            std::thread::sleep(Duration::from_millis(1));
            let reply = match self.0 {
                0 => Ok((0..p.spec().n).find_map(|y| p.drop_point(y)).unwrap()),
                _ => Err(Fault::Crash("SIGSEGV".into())),
            };
            Answer {
                reply,
                wall_ms: 0.0004,
                cpu_ms: None,
            }
        }
        fn reusable(&self) -> bool {
            true
        }
    }

    impl Lineup<Connect4> for Fakes {
        fn open(&self, who: usize) -> Box<dyn Player<Connect4>> {
            Box::new(Fake(who))
        }
    }

    /// Counts what it is handed.
    #[derive(Default)]
    struct Count {
        games: usize,
        finished_with: Option<usize>,
    }

    impl Observer<Connect4> for Count {
        fn game_finished(&mut self, _: &GameRecord<Connect4>) -> Result<()> {
            self.games += 1;
            Ok(())
        }
        fn tournament_finished(&mut self, records: &[GameRecord<Connect4>]) -> Result<()> {
            self.finished_with = Some(records.len());
            Ok(())
        }
    }

    #[test]
    fn a_round_robin_of_fake_players_gets_its_verdicts_and_observers_see_every_game() {
        let entrants =
            schedule::entrants(&["ok.so".into(), "crash.so".into(), "nosym.so".into()]).unwrap();
        let settings = Settings {
            move_limit: Duration::from_millis(100),
            clock: None,
            concurrency: 2,
            reuse_process: true,
            seed: 5,
            pairs: 2,
            sprt: None,
            shard: Shard::WHOLE,
            colours: Colours::Swapped,
        };
        let pairings = Mode::RoundRobin.pairings(3);
        let plan = Plan::new(&Connect4, &pairings, &settings, Vec::new());
        assert_eq!(plan.jobs.len(), 12);
        let mut count = Count::default();
        let mut records = play(
            &Connect4,
            &settings,
            &entrants,
            &Fakes,
            plan,
            &mut [&mut count],
        )
        .unwrap();
        assert_eq!((count.games, count.finished_with), (12, Some(12)));
        records.sort_by_key(|r| (r.pairing, r.pair, r.game));
        // ok vs crash, ok first: ok moves, crash crashes.
        let r = &records[0];
        assert_eq!((r.first.as_str(), r.second.as_str()), ("ok", "crash"));
        assert_eq!(
            (r.termination, r.loser),
            (Termination::Crash, Some(Side::Second))
        );
        assert_eq!((r.result, r.course_code), (GameResult::FirstWins, 5));
        assert_eq!(r.moves.len(), 1);
        assert_eq!(r.move_ms, vec![0.0, 0.0]);
        assert_eq!(r.board, schedule::board(&Connect4, 5, 0).0);
        // ok vs nosym, nosym first: it loses by load, missing symbol, without a move.
        let r = records.iter().find(|r| r.id == "1-1-1").unwrap();
        assert_eq!(r.first, "nosym");
        assert_eq!(
            (r.termination, r.course_code, r.detail.as_deref()),
            (Termination::Load, -3, Some("missing symbol getPoint"))
        );
        assert!(r.moves.is_empty());
    }

    #[test]
    fn a_decided_sprt_stops_new_games() {
        let entrants = schedule::entrants(&["ok.so".into(), "crash.so".into()]).unwrap();
        let settings = Settings {
            move_limit: Duration::from_millis(100),
            clock: None,
            concurrency: 1,
            reuse_process: false,
            seed: 1,
            pairs: 500,
            sprt: Some(crate::stats::parse_sprt("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap()),
            shard: Shard::WHOLE,
            colours: Colours::Swapped,
        };
        let pairings = Mode::Match.pairings(2);
        let plan = Plan::new(&Connect4, &pairings, &settings, Vec::new());
        let records = play(&Connect4, &settings, &entrants, &Fakes, plan, &mut []).unwrap();
        assert!(
            records.len() < 1000,
            "stopped after {} games",
            records.len()
        );
        // Resumed with those records, nothing is left to play.
        let again = Plan::new(&Connect4, &pairings, &settings, records);
        assert!(again.jobs.is_empty());
    }

    /// Wants the run stopped after its first game.
    struct StopAfterOne(usize);

    impl Observer<Connect4> for StopAfterOne {
        fn game_finished(&mut self, _: &GameRecord<Connect4>) -> Result<()> {
            self.0 += 1;
            Ok(())
        }
        fn wants_stop(&self) -> bool {
            self.0 >= 1
        }
    }

    #[test]
    fn an_observer_stops_a_run_and_one_worker_starts_no_game_after() {
        let entrants = schedule::entrants(&["ok.so".into(), "ok2.so".into()]).unwrap();
        let settings = Settings {
            move_limit: Duration::from_millis(100),
            clock: None,
            concurrency: 1,
            reuse_process: true,
            seed: 1,
            pairs: 50,
            sprt: None,
            shard: Shard::WHOLE,
            colours: Colours::Swapped,
        };
        let pairings = Mode::Match.pairings(2);
        let plan = Plan::new(&Connect4, &pairings, &settings, Vec::new());
        let mut stop = StopAfterOne(0);
        let records = play(
            &Connect4,
            &settings,
            &entrants,
            &Fakes,
            plan,
            &mut [&mut stop],
        )
        .unwrap();
        assert_eq!(records.len(), 1);
    }

    #[test]
    fn data_flows_one_way() {
        // The one-way flow, checked on the source: the tournament and everything it uses
        // never name the reporters, the views, the CLI or the process layer.
        let sources = [
            ("tournament.rs", include_str!("tournament.rs")),
            ("referee.rs", include_str!("referee.rs")),
            ("schedule.rs", include_str!("schedule.rs")),
            ("record.rs", include_str!("record.rs")),
            ("results.rs", include_str!("results.rs")),
            ("run_dir.rs", include_str!("run_dir.rs")),
            ("shards.rs", include_str!("shards.rs")),
            ("clock.rs", include_str!("clock.rs")),
        ];
        for (name, text) in sources {
            let code = text.split("#[cfg(test)]").next().unwrap_or(text);
            for forbidden in [
                "crate::report",
                "crate::view",
                "crate::commands",
                "players::process",
                "clap",
                "indicatif",
            ] {
                let hit = code.lines().any(|l| l.contains(forbidden));
                assert!(!hit, "{name} reaches {forbidden}");
            }
        }
        // Reporters and views sit at the end: they never call back into the tournament
        // or the commands that run it.
        let ends = [
            ("report/mod.rs", include_str!("report/mod.rs")),
            ("report/html.rs", include_str!("report/html.rs")),
            ("report/progress.rs", include_str!("report/progress.rs")),
            ("report/table.rs", include_str!("report/table.rs")),
            ("view/mod.rs", include_str!("view/mod.rs")),
            ("view/play.rs", include_str!("view/play.rs")),
            ("view/replay.rs", include_str!("view/replay.rs")),
            ("view/term.rs", include_str!("view/term.rs")),
        ];
        for (name, text) in ends {
            let code = text.split("#[cfg(test)]").next().unwrap_or(text);
            for forbidden in ["crate::tournament", "crate::commands", "clap"] {
                let hit = code.lines().any(|l| l.contains(forbidden));
                assert!(!hit, "{name} reaches {forbidden}");
            }
        }
    }
}
