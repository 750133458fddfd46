//! The worker pool: `concurrency` threads, each playing one game at a time with its own
//! library hosts, sending finished games back to the caller's thread in finishing order.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use anyhow::Result;

use crate::game_log::{GameRecord, course_code, result_string};
use crate::host::protocol::MoveRequest;
use crate::host::{Answer, Host, HostConfig, LogSink};
use crate::referee::{self, Outcome, Reply, Side, Termination, TimedReply, View};
use crate::schedule::{Entrant, Job};

/// How games are played.
#[derive(Debug, Clone)]
pub struct RunSettings {
    /// Wall-clock limit per move.
    pub move_limit: Duration,
    /// Games played at once.
    pub concurrency: usize,
    /// Keep one host per player per worker across games (the course runner's way).
    pub reuse_process: bool,
    /// How hosts are started.
    pub host: HostConfig,
    /// The run's seed (recorded in every game).
    pub seed: u64,
}

/// Plays `jobs`, calling `on_game` on this thread for every finished game. When it
/// returns `Ok(true)` (stop, e.g. SPRT decided) no new game starts; games in flight
/// still finish and are reported.
pub fn run(
    settings: &RunSettings,
    entrants: &[Entrant],
    logs: &[Arc<LogSink>],
    jobs: Vec<Job>,
    mut on_game: impl FnMut(GameRecord) -> Result<bool>,
) -> Result<()> {
    let queue = Mutex::new(VecDeque::from(jobs));
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<GameRecord>();
    std::thread::scope(|s| -> Result<()> {
        for _ in 0..settings.concurrency.max(1) {
            let tx = tx.clone();
            let (queue, stop) = (&queue, &stop);
            s.spawn(move || {
                let mut worker = Worker {
                    settings,
                    entrants,
                    logs,
                    hosts: HashMap::new(),
                };
                while !stop.load(Ordering::Relaxed) {
                    let job = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
                    let Some(job) = job else { break };
                    if tx.send(worker.play(&job)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut result = Ok(());
        for rec in rx {
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

/// One worker thread's state: its cached hosts when `--reuse-process` is on.
struct Worker<'a> {
    settings: &'a RunSettings,
    entrants: &'a [Entrant],
    logs: &'a [Arc<LogSink>],
    /// Keyed by (entrant, slot): slot 1 only when an entrant plays itself.
    hosts: HashMap<(usize, u8), Host>,
}

impl Worker<'_> {
    /// A cached live host, or a newly started one (not yet waited for).
    fn host(&mut self, key: (usize, u8)) -> Result<Host, String> {
        if let Some(h) = self.hosts.remove(&key)
            && !h.is_dead()
        {
            return Ok(h);
        }
        let who = key.0;
        let entrant = &self.entrants[who];
        Host::start(
            &self.settings.host,
            &entrant.library,
            &entrant.env,
            self.logs[who].clone(),
        )
    }

    fn play(&mut self, job: &Job) -> GameRecord {
        let keys = [
            (job.first, 0),
            (job.second, u8::from(job.first == job.second)),
        ];
        // Only the two players of this game keep a host; others are closed.
        self.hosts.retain(|k, _| keys.contains(k));
        // Both start before either is waited for: the two loads overlap.
        let first = self.host(keys[0]);
        let second = self.host(keys[1]);
        let ready = |h: Result<Host, String>| h.and_then(|mut h| h.wait_ready().map(|()| h));
        let (first, second) = (ready(first), ready(second));
        let limit = self.settings.move_limit;
        let outcome = match (first, second) {
            (Err(text), other) => {
                if let Ok(b) = other {
                    self.keep(keys[1], b);
                }
                Outcome::load_failure(Side::First, text)
            }
            (Ok(a), Err(text)) => {
                self.keep(keys[0], a);
                Outcome::load_failure(Side::Second, text)
            }
            (Ok(mut a), Ok(mut b)) => {
                let out = referee::play(
                    job.board,
                    [
                        &mut HostPlayer {
                            host: &mut a,
                            limit,
                        },
                        &mut HostPlayer {
                            host: &mut b,
                            limit,
                        },
                    ],
                );
                self.keep(keys[0], a);
                self.keep(keys[1], b);
                out
            }
        };
        self.record(job, outcome)
    }

    fn keep(&mut self, key: (usize, u8), host: Host) {
        if self.settings.reuse_process && !host.is_dead() {
            self.hosts.insert(key, host);
        }
    }

    fn record(&self, job: &Job, mut o: Outcome) -> GameRecord {
        let (a, b) = (&self.entrants[job.first], &self.entrants[job.second]);
        // The referee does not know the limit; say what the verdict means in the log.
        o.detail = o.detail.or_else(|| match o.termination {
            Termination::Timeout => Some(format!(
                "no answer within {} ms",
                self.settings.move_limit.as_millis()
            )),
            Termination::Null => Some("getPoint returned NULL".into()),
            _ => None,
        });
        GameRecord {
            id: job.id(),
            pairing: job.pairing,
            pair: job.pair,
            game: job.game,
            first: a.name.clone(),
            second: b.name.clone(),
            first_path: a.path.clone(),
            second_path: b.path.clone(),
            result: result_string(o.winner).to_string(),
            termination: o.termination,
            course_code: course_code(
                o.termination,
                o.winner.map(Side::other),
                o.detail.as_deref(),
            ),
            loser: o.winner.map(Side::other),
            detail: o.detail,
            illegal_point: o.illegal_point.map(|(x, y)| [x, y]),
            board: job.board,
            moves: o.moves,
            move_ms: o
                .move_ms
                .iter()
                .map(|ms| (ms * 1000.0).round() / 1000.0)
                .collect(),
            cpu_ms: o
                .cpu_ms
                .iter()
                .map(|c| c.map(|ms| (ms * 1000.0).round() / 1000.0))
                .collect(),
            seed: self.settings.seed,
            board_seed: job.board_seed,
        }
    }
}

/// Adapts a library host to the referee's [`referee::Player`] (also the AI side of
/// `judge play`).
pub struct HostPlayer<'a> {
    /// The library's host.
    pub host: &'a mut Host,
    /// Wall-clock limit per move.
    pub limit: Duration,
}

impl referee::Player for HostPlayer<'_> {
    fn get_point(&mut self, v: &View) -> TimedReply {
        let req = MoveRequest {
            m: v.spec.m,
            n: v.spec.n,
            top: v.top.to_vec(),
            board: v.board.to_vec(),
            last_x: v.last_x,
            last_y: v.last_y,
            no_x: v.spec.no_x,
            no_y: v.spec.no_y,
        };
        let t = self.host.get_point(&req, self.limit);
        let reply = match t.answer {
            Answer::Point { x, y } => Reply::Point(x, y),
            Answer::Null => Reply::Null,
            Answer::Timeout => Reply::Timeout,
            Answer::Crash(what) => Reply::Crash(what),
        };
        TimedReply {
            reply,
            wall_ms: t.wall_ms,
            cpu_ms: t.cpu_ms,
        }
    }
}
