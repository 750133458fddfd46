//! `judge play --web`: a board to play on in the browser.
//!
//! A small synchronous HTTP server ([`tiny_http`]), bound to 127.0.0.1 only, serves one
//! self-contained page and a JSON API ([`api`]). The game itself runs as in the terminal
//! and in tournaments: the referee drives it, the AI is opened as a tournament opens a
//! player (its own process, the same time limit and verdicts, a fresh process per game),
//! and the person is one more player whose moves arrive from HTTP requests over a channel
//! ([`live`]). Finished games can be saved as games.jsonl records for `judge replay`.

mod api;
mod live;

use std::io::Read;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use anyhow::{Result, anyhow};

use super::Shown;
use super::versus::{self, Opponent, PlayOptions, Sitting};
use crate::games::Side;
use crate::players::person::{Person, Watched};
use crate::players::{Lineup, Player, Roster};
use crate::referee::Outcome;
use live::{Command, Page, Table};

/// A request body larger than this is not a move: the page's are a few dozen bytes.
const MAX_BODY: u64 = 64 * 1024;

/// How to serve the page.
#[derive(Debug, Clone)]
pub struct WebOptions {
    /// The port on 127.0.0.1 (0: any free port; the URL is printed).
    pub port: u16,
    /// Try to open the page with `xdg-open`.
    pub open: bool,
}

/// `judge play --web`: serves the board until the page's Stop button or Ctrl-C.
pub fn run(args: &PlayOptions, web: &WebOptions) -> Result<()> {
    versus::sit_down(args, Browser { args, web })
}

/// The person at the page.
struct Browser<'a> {
    args: &'a PlayOptions,
    web: &'a WebOptions,
}

impl Sitting for Browser<'_> {
    fn sit<G: Shown>(self, game: &G, setup: G::Setup, seed: u64, board_seed: u64) -> Result<()>
    where
        Roster: Lineup<G>,
        G::Position: Send,
        G::Move: Send,
    {
        let Browser { args, web } = self;
        let opponent = Opponent::new(&args.lib, game.kind(), args.memory_limit_mb)?;
        let human = if args.ai_first {
            Side::Second
        } else {
            Side::First
        };
        // Loaded before the page is served, so a player that cannot play at all is a
        // one-line error here, as in the terminal.
        let first_ai = opponent.start(game, &setup, human.other())?;
        let server = tiny_http::Server::http(("127.0.0.1", web.port))
            .map_err(|e| anyhow!("cannot serve on 127.0.0.1:{}: {e}", web.port))?;
        let addr = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| anyhow!("the server has no IP address"))?;
        let url = format!("http://{addr}/");
        let (commands, inbox) = mpsc::channel();
        let table = Arc::new(Table::new(
            game.clone(),
            setup,
            &opponent.name,
            args.move_limit_ms,
            human,
            commands,
        ));
        serve(server, table.clone());
        println!(
            "judge play --web: you ({}) against {}, {}, seed {seed}",
            human.name(),
            opponent.name,
            game.setup_line(&setup),
        );
        println!("Open {url} in a browser; its Stop button or Ctrl-C stops the judge.");
        if web.open {
            open_in_browser(&url);
        }
        let save = |outcome: &Outcome<G>, human: Side| match &args.save {
            Some(path) => {
                let record = versus::record(outcome, setup, human, &opponent, seed, board_seed);
                Ok(Some(versus::saved_text(
                    path,
                    versus::save_game(path, record)?,
                )))
            }
            None => Ok(None),
        };
        play_games(
            game,
            &setup,
            &table,
            &inbox,
            Duration::from_millis(args.move_limit_ms),
            first_ai,
            &|| opponent.open::<G>(),
            save,
        )
    }
}

/// Tries `xdg-open URL`; the URL is printed either way.
fn open_in_browser(url: &str) {
    let opened = std::process::Command::new("xdg-open")
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = opened {
        eprintln!("judge play --web: could not run xdg-open ({e}); open the URL yourself.");
    }
}

/// Answers requests on a thread of their own, one thread per request (a long poll waits
/// without holding up the others).
fn serve<G: Shown>(server: tiny_http::Server, table: Arc<Table<G>>)
where
    G::Position: Send,
    G::Move: Send,
{
    std::thread::spawn(move || {
        for request in server.incoming_requests() {
            let table = table.clone();
            std::thread::spawn(move || answer(request, &table));
        }
    });
}

/// Answers one request, then hands its command (if any) to the game loop.
fn answer<G: Shown>(mut request: tiny_http::Request, table: &Table<G>) {
    let mut body = String::new();
    let read = request.as_reader().take(MAX_BODY).read_to_string(&mut body);
    let (reply, command) = match read {
        Ok(_) => api::handle(table, request.method().as_str(), request.url(), &body),
        Err(_) => (api::Reply::error(400, "the body is not UTF-8 text"), None),
    };
    let header = |name: &str, value: &str| {
        tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes())
            .expect("ASCII header names and values")
    };
    let response = tiny_http::Response::from_string(reply.body)
        .with_status_code(reply.status)
        .with_header(header("Content-Type", reply.content_type))
        .with_header(header("Cache-Control", "no-store"));
    // The page may have gone away meanwhile; the game does not care.
    let _ = request.respond(response);
    if let Some(command) = command {
        table.send(command);
    }
}

/// Plays games on `setup` until the person quits: each game a fresh AI process
/// (`first_ai`, already loaded, for the first), the person starting on the side chosen,
/// swapped when a new game asks for it. `finished` saves a game that was played out and
/// says where; a game the person left for a new one is not saved.
#[allow(clippy::too_many_arguments)]
fn play_games<G: Shown>(
    game: &G,
    setup: &G::Setup,
    table: &Table<G>,
    inbox: &Receiver<Command<G::Move>>,
    limit: Duration,
    first_ai: Box<dyn Player<G>>,
    open_ai: &dyn Fn() -> Box<dyn Player<G>>,
    mut finished: impl FnMut(&Outcome<G>, Side) -> Result<Option<String>>,
) -> Result<()> {
    let mut ai = Some(first_ai);
    let mut human = table.human();
    loop {
        table.begin(human);
        let mut machine = ai.take().unwrap_or_else(open_ai);
        let mut person = Person(Page {
            commands: inbox,
            left_for: None,
        });
        let outcome = {
            let mut you = Watched {
                player: &mut person,
                side: human,
                watcher: table,
            };
            let mut it = Watched {
                player: &mut *machine,
                side: human.other(),
                watcher: table,
            };
            versus::play_against(game, setup, human, &mut you, &mut it, limit)
        };
        drop(machine); // its process ends before the next one starts
        let next = match person.0.left_for.take() {
            Some(command) => command,
            None => {
                let saved = finished(&outcome, human)?;
                table.finish(&outcome, saved);
                // Moves cannot arrive once the game is over (the table refuses them).
                loop {
                    match inbox.recv() {
                        Ok(Command::Move(_)) => continue,
                        Ok(command) => break command,
                        Err(_) => break Command::Quit,
                    }
                }
            }
        };
        match next {
            Command::New { swap: true } => human = human.other(),
            Command::New { swap: false } | Command::Move(_) => {}
            Command::Quit => return Ok(()),
        }
    }
}
