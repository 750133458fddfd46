//! A whole GMP game over a byte stream pair, as GNU Go's `--mode gmp` and `--mode sgmp`
//! play it (`interface/play_gmp.c` and `interface/gmp.c` in GNU Go 3.8).
//!
//! The usage protocol of the Standard Go Modem Protocol, as this driver follows it:
//! - Every command but OK toggles the sender's sequence bit and waits for an acknowledgement:
//!   an OK, or any command of the other side whose `ack` bit matches. Unacknowledged
//!   commands are sent again every [`GmpConfig::retry`]; a repeated command of the other
//!   side is acknowledged again but not obeyed twice. When both sides send at once (a
//!   conflict), this side keeps its command and ignores the other's; GNU Go gives way in
//!   that case, and this side's repetition gets through.
//! - Start: the side that wants a game sends NEWGAME; the other acknowledges it. Either side
//!   may then QUERY the other about the game (rules, board size, handicap, colour), one
//!   question at a time. GNU Go sends NEWGAME itself unless `--color white` is given, and then
//!   asks its four questions; this driver never asks, it knows the game from its
//!   [`GmpConfig`] and answers. As White it waits for the NEWGAME; as Black it waits
//!   [`GmpConfig::newgame_wait`] for one and then sends its own.
//! - The game is agreed when the other side acknowledges our NEWGAME or our last ANSWER with
//!   an explicit OK (GNU Go's "new game ready"), or when its first move arrives.
//! - Play: Black moves first, White after a handicap (GNU Go places fixed handicap stones,
//!   as GTP's `fixed_handicap` does). MOVE carries the colour and the point; a pass is a
//!   MOVE of location 0. UNDO takes back moves. Two passes in a row end the game; GNU Go
//!   then sends one more pass, which this driver acknowledges for [`GmpConfig::linger`]
//!   before returning. GMP has no resignation and no komi: GNU Go forbids itself to resign
//!   in GMP mode, and in `--mode gmp` plays komi 5.5 whatever its `--komi` says (`--mode
//!   sgmp` keeps `--komi`).

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use super::packet::{Command, Decoder, GMP_MAX_SIZE, Packet, Query, decode_move, encode_move};
use crate::point::{Color, MIN_SIZE, Move};

/// The rule set GMP can name (the answer to the rules query).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// Japanese rules (answer 1). GNU Go's default.
    Japanese,
    /// Chinese rules (answer 2): area scoring, this engine's rules. GNU Go accepts them when
    /// started with `--chinese-rules`, and refuses the game otherwise.
    Chinese,
}

/// The game this side wants, and the driver's timings.
#[derive(Clone, Debug)]
pub struct GmpConfig {
    /// Board side, 2..=22.
    pub size: usize,
    /// Handicap stones: 0, or 2 and more (GMP's answer 1 means no handicap).
    pub handicap: usize,
    /// Komi, for the player only: GMP cannot tell it to the other side.
    pub komi: f64,
    /// Our colour.
    pub color: Color,
    /// The rules we answer.
    pub rules: Rules,
    /// As Black: how long to wait for the other side's NEWGAME before sending ours.
    pub newgame_wait: Duration,
    /// How long to wait for an acknowledgement before sending a command again.
    pub retry: Duration,
    /// How many times to send a command again before giving up.
    pub max_retries: u32,
    /// After the game, how long to acknowledge the other side's last packets.
    pub linger: Duration,
    /// Print every packet on standard error.
    pub trace: bool,
}

impl GmpConfig {
    /// A game on a `size` board with us as `color`: no handicap, komi 7.5, Chinese rules.
    pub fn new(size: usize, color: Color) -> GmpConfig {
        GmpConfig {
            size,
            handicap: 0,
            komi: 7.5,
            color,
            rules: Rules::Chinese,
            newgame_wait: Duration::from_secs(2),
            retry: Duration::from_secs(2),
            max_retries: 30,
            linger: Duration::from_secs(1),
            trace: false,
        }
    }

    /// Who moves first: White after a handicap, Black otherwise.
    pub fn first_to_move(&self) -> Color {
        if self.handicap >= 2 {
            Color::White
        } else {
            Color::Black
        }
    }
}

/// What the driver asks of the engine.
pub trait GmpPlayer {
    /// The game is agreed: clear the board, place `config.handicap` fixed handicap stones,
    /// set the komi.
    fn new_game(&mut self, config: &GmpConfig);
    /// Choose and play our move for `color`. A resignation ends the session (GMP cannot
    /// send one).
    fn our_move(&mut self, color: Color) -> Move;
    /// The other side played `mv`; an `Err` (an illegal move) ends the session.
    fn their_move(&mut self, color: Color, mv: Move) -> Result<(), String>;
    /// The other side takes back the last `moves` moves (its own and ours).
    fn undo(&mut self, moves: usize) -> Result<(), String>;
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GmpOutcome {
    /// The moves played, in order (after undos).
    pub moves: Vec<(Color, Move)>,
    /// Set when our player resigned (the game then ends without two passes).
    pub resigned: Option<Color>,
}

/// Why a GMP session failed.
#[derive(Debug)]
pub enum GmpError {
    /// Reading or writing failed.
    Io(io::Error),
    /// The other side closed the connection.
    Closed,
    /// A command was never acknowledged.
    Timeout(String),
    /// The other side refused a command of ours.
    Denied,
    /// The other side broke the protocol (a move out of turn, off the board...).
    Protocol(String),
    /// Our player refused the other side's move or undo.
    Player(String),
    /// The configuration cannot be played over GMP.
    Config(String),
}

impl fmt::Display for GmpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GmpError::Io(e) => write!(f, "GMP connection: {e}"),
            GmpError::Closed => f.write_str("GMP connection closed by the other side"),
            GmpError::Timeout(what) => write!(f, "GMP timeout: {what} never acknowledged"),
            GmpError::Denied => f.write_str("GMP: the other side denied our command"),
            GmpError::Protocol(what) => write!(f, "GMP protocol error: {what}"),
            GmpError::Player(what) => write!(f, "GMP: our player refused: {what}"),
            GmpError::Config(what) => write!(f, "GMP configuration: {what}"),
        }
    }
}

impl std::error::Error for GmpError {}

impl From<io::Error> for GmpError {
    fn from(e: io::Error) -> GmpError {
        GmpError::Io(e)
    }
}

/// Plays one game over `reader`/`writer` (e.g. a child's stdout and stdin). The reader is
/// read by a thread of its own so that waits can time out; that thread ends when the reader
/// does.
pub fn play_game<R, W, P>(
    reader: R,
    writer: W,
    config: &GmpConfig,
    player: &mut P,
) -> Result<GmpOutcome, GmpError>
where
    R: Read + Send + 'static,
    W: Write,
    P: GmpPlayer + ?Sized,
{
    if !(MIN_SIZE..=GMP_MAX_SIZE).contains(&config.size) {
        return Err(GmpError::Config(format!(
            "board size {} outside GMP's {MIN_SIZE}..={GMP_MAX_SIZE}",
            config.size
        )));
    }
    if config.handicap == 1 || config.handicap > 0x1ff {
        return Err(GmpError::Config(format!(
            "GMP cannot give a handicap of {}",
            config.handicap
        )));
    }
    let mut link = Link::new(reader, writer, config)?;
    Game {
        link: &mut link,
        config,
        player,
        agreed: false,
        turn: config.first_to_move(),
        moves: Vec::new(),
    }
    .play()
}

/// The game logic on top of the link.
struct Game<'a, W, P: ?Sized> {
    link: &'a mut Link<W>,
    config: &'a GmpConfig,
    player: &'a mut P,
    agreed: bool,
    turn: Color,
    moves: Vec<(Color, Move)>,
}

impl<W: Write, P: GmpPlayer + ?Sized> Game<'_, W, P> {
    fn play(mut self) -> Result<GmpOutcome, GmpError> {
        let mut first = None;
        if self.config.color == Color::Black {
            let deadline = Instant::now() + self.config.newgame_wait;
            match self.link.next_event(Some(deadline))? {
                None => self.link.send_command(Command::NewGame)?,
                Some(event) => first = Some(event),
            }
        }
        loop {
            if self.agreed && self.game_over() {
                self.linger()?;
                return Ok(self.outcome(None));
            }
            if self.agreed && self.turn == self.config.color && self.link.idle() {
                let color = self.config.color;
                let mv = self.player.our_move(color);
                if mv == Move::Resign {
                    return Ok(self.outcome(Some(color)));
                }
                let value = encode_move(color, mv, self.config.size)
                    .ok_or_else(|| GmpError::Protocol(format!("our move {mv:?} cannot be sent")))?;
                self.link.send_command(Command::Move(value))?;
                self.played(color, mv);
                continue;
            }
            let event = match first.take() {
                Some(event) => event,
                None => match self.link.next_event(None)? {
                    Some(event) => event,
                    None => continue,
                },
            };
            self.handle(event)?;
        }
    }

    fn handle(&mut self, event: Event) -> Result<(), GmpError> {
        match event {
            Event::Acked(Command::NewGame | Command::Answer(_)) if !self.agreed => self.agree(),
            Event::Acked(_) => {}
            Event::Command(command) => match command {
                Command::NewGame if !self.agreed => self.link.send_ok()?,
                Command::NewGame => {
                    return Err(GmpError::Protocol("NEWGAME in the middle of a game".into()));
                }
                Command::Query(query) => {
                    let answer = self.answer(query);
                    self.link.send_command(Command::Answer(answer))?;
                }
                Command::Move(value) => {
                    let acked = self.link.send_ok();
                    if !self.agreed {
                        self.agree();
                    }
                    self.their_move(value)?;
                    match acked {
                        // GNU Go in --mode sgmp may exit as soon as it has sent the game's
                        // last pass, before our acknowledgement reaches it.
                        Err(GmpError::Closed) if self.game_over() => {}
                        other => other?,
                    }
                }
                Command::Undo(n) => {
                    self.link.send_ok()?;
                    self.undo(usize::from(n))?;
                }
                Command::Answer(_) => self.link.send_ok()?,
                Command::Deny => return Err(GmpError::Denied),
                Command::Extended(_) => self.link.send_command(Command::Deny)?,
                Command::Ok => {}
            },
        }
        Ok(())
    }

    fn agree(&mut self) {
        self.agreed = true;
        self.player.new_game(self.config);
    }

    /// Our answer to a query, from the configuration (0 = "don't know").
    fn answer(&self, query: Query) -> u16 {
        let c = self.config;
        match query {
            Query::Game => 1,
            Query::Rules => match c.rules {
                Rules::Japanese => 1,
                Rules::Chinese => 2,
            },
            Query::Handicap => c.handicap.max(1) as u16,
            Query::BoardSize => c.size as u16,
            Query::Color => match c.color {
                Color::White => 1,
                Color::Black => 2,
            },
            _ => 0,
        }
    }

    fn their_move(&mut self, value: u16) -> Result<(), GmpError> {
        let (color, mv) = decode_move(value, self.config.size)
            .ok_or_else(|| GmpError::Protocol(format!("move value {value:#x} is off the board")))?;
        if color == self.config.color {
            return Err(GmpError::Protocol(format!(
                "the other side sent a move for our colour {color}"
            )));
        }
        if self.turn != color {
            return Err(GmpError::Protocol(format!("{color} moved out of turn")));
        }
        self.player
            .their_move(color, mv)
            .map_err(GmpError::Player)?;
        self.played(color, mv);
        Ok(())
    }

    fn undo(&mut self, n: usize) -> Result<(), GmpError> {
        if n > self.moves.len() {
            return Err(GmpError::Protocol(format!(
                "undo of {n} moves after {}",
                self.moves.len()
            )));
        }
        self.player.undo(n).map_err(GmpError::Player)?;
        for _ in 0..n {
            if let Some((color, _)) = self.moves.pop() {
                self.turn = color;
            }
        }
        Ok(())
    }

    fn played(&mut self, color: Color, mv: Move) {
        self.moves.push((color, mv));
        self.turn = color.opponent();
    }

    fn game_over(&self) -> bool {
        let n = self.moves.len();
        n >= 2 && self.moves[n - 2..].iter().all(|&(_, mv)| mv == Move::Pass)
    }

    /// Acknowledges what the other side still sends after the game (GNU Go's extra pass),
    /// until it has sent something and is acknowledged, the connection closes, or time is up.
    fn linger(&mut self) -> Result<(), GmpError> {
        let deadline = Instant::now() + self.config.linger;
        loop {
            match self.link.next_event(Some(deadline)) {
                Ok(None) | Err(GmpError::Closed) => return Ok(()),
                Ok(Some(Event::Acked(_))) => {}
                Ok(Some(Event::Command(command))) => {
                    let sent = match command {
                        Command::Query(query) => {
                            let answer = self.answer(query);
                            self.link.send_command(Command::Answer(answer))
                        }
                        Command::Extended(_) => self.link.send_command(Command::Deny),
                        _ => self.link.send_ok(),
                    };
                    match sent {
                        // The game is over: the other side may go at any time.
                        Err(GmpError::Closed) => return Ok(()),
                        other => other?,
                    }
                    if self.link.idle() {
                        return Ok(());
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }

    fn outcome(&self, resigned: Option<Color>) -> GmpOutcome {
        GmpOutcome {
            moves: self.moves.clone(),
            resigned,
        }
    }
}

/// What the link passes up to the game.
#[derive(Debug)]
enum Event {
    /// The other side acknowledged our command (with an explicit OK).
    Acked(Command),
    /// A new command of the other side (an implicit acknowledgement already applied).
    Command(Command),
}

/// What the reader thread sends.
enum Input {
    Bytes(Vec<u8>),
    End(Option<io::Error>),
}

/// Our command waiting for its acknowledgement.
struct Unacked {
    packet: Packet,
    sent: Instant,
    retries: u32,
}

/// The sequence-bit layer: sends, acknowledges, repeats, filters.
struct Link<W> {
    writer: W,
    input: Receiver<Input>,
    decoder: Decoder,
    ready: VecDeque<Packet>,
    my_seq: bool,
    his_seq: bool,
    unacked: Option<Unacked>,
    retry: Duration,
    max_retries: u32,
    trace: bool,
}

impl<W: Write> Link<W> {
    fn new<R>(mut reader: R, writer: W, config: &GmpConfig) -> io::Result<Link<W>>
    where
        R: Read + Send + 'static,
    {
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name("gmp-reader".into())
            .spawn(move || {
                let mut buf = [0u8; 256];
                loop {
                    let input = match reader.read(&mut buf) {
                        Ok(0) => Input::End(None),
                        Ok(n) => Input::Bytes(buf[..n].to_vec()),
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        Err(e) => Input::End(Some(e)),
                    };
                    let end = matches!(input, Input::End(_));
                    if tx.send(input).is_err() || end {
                        return;
                    }
                }
            })?;
        Ok(Link {
            writer,
            input: rx,
            decoder: Decoder::new(),
            ready: VecDeque::new(),
            my_seq: false,
            his_seq: false,
            unacked: None,
            retry: config.retry,
            max_retries: config.max_retries,
            trace: config.trace,
        })
    }

    /// Nothing of ours awaits an acknowledgement.
    fn idle(&self) -> bool {
        self.unacked.is_none()
    }

    fn write(&mut self, packet: Packet) -> Result<(), GmpError> {
        if self.trace {
            eprintln!("gmp: sent {packet}");
        }
        let written = self
            .writer
            .write_all(&packet.encode())
            .and_then(|()| self.writer.flush());
        match written {
            // Writing to a pipe whose reader has gone: the other side closed the connection.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(GmpError::Closed),
            other => Ok(other?),
        }
    }

    /// Sends a command that needs an acknowledgement (the previous one must have its own).
    fn send_command(&mut self, command: Command) -> Result<(), GmpError> {
        debug_assert!(self.unacked.is_none(), "one command at a time");
        self.my_seq = !self.my_seq;
        let packet = Packet {
            seq: self.my_seq,
            ack: self.his_seq,
            command,
        };
        self.write(packet)?;
        self.unacked = Some(Unacked {
            packet,
            sent: Instant::now(),
            retries: 0,
        });
        Ok(())
    }

    /// Acknowledges the other side's last command.
    fn send_ok(&mut self) -> Result<(), GmpError> {
        self.write(Packet {
            seq: self.my_seq,
            ack: self.his_seq,
            command: Command::Ok,
        })
    }

    /// The next event, or `None` when `deadline` passes first. Sends unacknowledged commands
    /// again while it waits.
    fn next_event(&mut self, deadline: Option<Instant>) -> Result<Option<Event>, GmpError> {
        loop {
            while let Some(packet) = self.ready.pop_front() {
                if let Some(event) = self.filter(packet)? {
                    return Ok(Some(event));
                }
            }
            // Checked on every pass, so a stream of bytes that are no packets for us cannot
            // hold off a retry or the deadline.
            let now = Instant::now();
            if self
                .unacked
                .as_ref()
                .is_some_and(|u| u.sent + self.retry <= now)
            {
                self.resend()?;
            }
            if deadline.is_some_and(|at| at <= now) {
                return Ok(None);
            }
            let resend_at = self.unacked.as_ref().map(|u| u.sent + self.retry);
            let wake = match (deadline, resend_at) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let received = match wake {
                None => self
                    .input
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
                Some(at) => self
                    .input
                    .recv_timeout(at.saturating_duration_since(Instant::now())),
            };
            match received {
                Ok(Input::Bytes(bytes)) => {
                    for byte in bytes {
                        match self.decoder.push(byte) {
                            Some(Ok(packet)) => self.ready.push_back(packet),
                            Some(Err(e)) if self.trace => eprintln!("gmp: dropped: {e:?}"),
                            _ => {}
                        }
                    }
                }
                Ok(Input::End(None)) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(GmpError::Closed);
                }
                Ok(Input::End(Some(e))) => return Err(GmpError::Io(e)),
                // The top of the loop resends or returns.
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    fn resend(&mut self) -> Result<(), GmpError> {
        let Some(unacked) = self.unacked.as_mut() else {
            return Ok(());
        };
        unacked.retries += 1;
        if unacked.retries > self.max_retries {
            return Err(GmpError::Timeout(format!("{:?}", unacked.packet.command)));
        }
        unacked.sent = Instant::now();
        let packet = unacked.packet;
        self.write(packet)
    }

    /// Applies the sequence bits to a received packet: acknowledgements, repeats, conflicts.
    fn filter(&mut self, packet: Packet) -> Result<Option<Event>, GmpError> {
        if self.trace {
            eprintln!("gmp: received {packet}");
        }
        let is_ok = packet.command == Command::Ok;
        if let Some(unacked) = &self.unacked {
            let acks_ours = packet.ack == self.my_seq;
            if is_ok {
                // An OK must also carry the sequence bit we last saw from them.
                if acks_ours && packet.seq == self.his_seq {
                    let command = unacked.packet.command;
                    self.unacked = None;
                    return Ok(Some(Event::Acked(command)));
                }
                return Ok(None);
            }
            if packet.seq == self.his_seq || !acks_ours {
                // An old command of theirs, or one sent before they saw ours (a conflict):
                // ours stands, and will be sent again.
                return Ok(None);
            }
            self.unacked = None;
            self.his_seq = packet.seq;
            return Ok(Some(Event::Command(packet.command)));
        }
        if is_ok || packet.ack != self.my_seq {
            // Nothing of ours to acknowledge, or they have not seen our last command.
            return Ok(None);
        }
        if packet.seq == self.his_seq {
            // A repeat: our acknowledgement was lost or late.
            self.send_ok()?;
            return Ok(None);
        }
        self.his_seq = packet.seq;
        Ok(Some(Event::Command(packet.command)))
    }
}

#[cfg(test)]
mod tests {
    use std::io::{PipeReader, PipeWriter};
    use std::sync::mpsc::channel;

    use super::*;
    use crate::point::Point;

    /// Plays a fixed list of moves, then passes; records what it is told.
    #[derive(Default)]
    struct ListPlayer {
        plan: Vec<Move>,
        played: Vec<(Color, Move)>,
        undos: Vec<usize>,
        new_games: usize,
    }

    impl GmpPlayer for ListPlayer {
        fn new_game(&mut self, _: &GmpConfig) {
            self.new_games += 1;
        }
        fn our_move(&mut self, color: Color) -> Move {
            let mv = if self.plan.is_empty() {
                Move::Pass
            } else {
                self.plan.remove(0)
            };
            self.played.push((color, mv));
            mv
        }
        fn their_move(&mut self, color: Color, mv: Move) -> Result<(), String> {
            self.played.push((color, mv));
            Ok(())
        }
        fn undo(&mut self, moves: usize) -> Result<(), String> {
            self.undos.push(moves);
            let keep = self.played.len() - moves;
            self.played.truncate(keep);
            Ok(())
        }
    }

    fn at(x: usize, y: usize) -> Move {
        Move::Play(Point::new(x, y))
    }

    fn quick(size: usize, color: Color) -> GmpConfig {
        GmpConfig {
            newgame_wait: Duration::from_millis(50),
            retry: Duration::from_millis(500),
            linger: Duration::from_millis(100),
            ..GmpConfig::new(size, color)
        }
    }

    /// Runs `f` on a thread and waits for it at most 20 s.
    fn within<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = channel();
        thread::spawn(move || tx.send(f()).unwrap());
        rx.recv_timeout(Duration::from_secs(20))
            .expect("the session hung")
    }

    #[test]
    fn two_drivers_play_a_game_and_agree_on_every_move() {
        let (black_reads, white_writes) = io::pipe().unwrap();
        let (white_reads, black_writes) = io::pipe().unwrap();
        let black = thread::spawn(move || {
            let mut p = ListPlayer {
                plan: vec![at(2, 6), at(3, 5)],
                ..ListPlayer::default()
            };
            let outcome = play_game(black_reads, black_writes, &quick(9, Color::Black), &mut p);
            (outcome.unwrap(), p)
        });
        let white = thread::spawn(move || {
            let mut p = ListPlayer {
                plan: vec![at(4, 4), at(5, 3)],
                ..ListPlayer::default()
            };
            let outcome = play_game(white_reads, white_writes, &quick(9, Color::White), &mut p);
            (outcome.unwrap(), p)
        });
        let ((b, bp), (w, wp)) = within(move || (black.join().unwrap(), white.join().unwrap()));
        let expected = vec![
            (Color::Black, at(2, 6)),
            (Color::White, at(4, 4)),
            (Color::Black, at(3, 5)),
            (Color::White, at(5, 3)),
            (Color::Black, Move::Pass),
            (Color::White, Move::Pass),
        ];
        assert_eq!(b.moves, expected);
        assert_eq!(w.moves, expected);
        assert_eq!((bp.played, wp.played), (expected.clone(), expected));
        assert_eq!((bp.new_games, wp.new_games), (1, 1));
    }

    /// The other side, written from the packet layout alone, acting as GNU Go does.
    struct Peer {
        reader: PipeReader,
        writer: PipeWriter,
        decoder: Decoder,
        seq: bool,
        his: bool,
    }

    impl Peer {
        /// A peer at the start of a session: no command sent or received yet.
        fn new(reader: PipeReader, writer: PipeWriter) -> Peer {
            Peer {
                reader,
                writer,
                decoder: Decoder::new(),
                seq: false,
                his: false,
            }
        }
        fn send(&mut self, command: Command) -> Packet {
            self.seq = !self.seq;
            let p = Packet {
                seq: self.seq,
                ack: self.his,
                command,
            };
            self.writer.write_all(&p.encode()).unwrap();
            p
        }
        fn ok(&mut self) {
            let p = Packet {
                seq: self.seq,
                ack: self.his,
                command: Command::Ok,
            };
            self.writer.write_all(&p.encode()).unwrap();
        }
        fn recv(&mut self) -> Packet {
            let mut byte = [0u8];
            loop {
                self.reader.read_exact(&mut byte).unwrap();
                if let Some(Ok(p)) = self.decoder.push(byte[0]) {
                    if p.command != Command::Ok {
                        self.his = p.seq;
                    }
                    return p;
                }
            }
        }
        fn expect_ok(&mut self) {
            let p = self.recv();
            assert_eq!(p.command, Command::Ok);
            assert_eq!(p.ack, self.seq, "the OK acknowledges our last command");
        }
    }

    #[test]
    fn a_side_that_leaves_right_after_the_last_pass_ends_the_game_cleanly() {
        // GNU Go in --mode sgmp exits as soon as it has sent the game's last pass: our
        // acknowledgement then meets a closed pipe, and the game is over all the same.
        let (our_reads, peer_writes) = io::pipe().unwrap();
        let (peer_reads, our_writes) = io::pipe().unwrap();
        let ours = thread::spawn(move || {
            let mut p = ListPlayer::default();
            play_game(our_reads, our_writes, &quick(9, Color::Black), &mut p)
        });
        let mut peer = Peer::new(peer_reads, peer_writes);
        assert_eq!(peer.recv().command, Command::NewGame);
        peer.ok();
        let pass = encode_move(Color::Black, Move::Pass, 9).unwrap();
        assert_eq!(peer.recv().command, Command::Move(pass));
        // Gone before our OK can be written: this end of the pipe is closed first.
        peer.reader = io::pipe().unwrap().0;
        peer.send(Command::Move(
            encode_move(Color::White, Move::Pass, 9).unwrap(),
        ));
        drop(peer);
        let outcome = within(move || ours.join().unwrap()).expect("a finished game");
        assert_eq!(
            outcome.moves,
            vec![(Color::Black, Move::Pass), (Color::White, Move::Pass)]
        );
    }

    #[test]
    fn answers_queries_obeys_repeats_once_and_follows_undo() {
        let (our_reads, peer_writes) = io::pipe().unwrap();
        let (peer_reads, our_writes) = io::pipe().unwrap();
        let ours = thread::spawn(move || {
            let mut p = ListPlayer {
                plan: vec![at(4, 4), at(6, 2)],
                ..ListPlayer::default()
            };
            let config = GmpConfig {
                handicap: 0,
                ..quick(9, Color::White)
            };
            let outcome = play_game(our_reads, our_writes, &config, &mut p).unwrap();
            (outcome, p)
        });
        let peer = thread::spawn(move || {
            let mut peer = Peer::new(peer_reads, peer_writes);
            // A command sent twice (our OK "lost") while we are idle: acknowledged twice,
            // obeyed once.
            let newgame = peer.send(Command::NewGame);
            peer.expect_ok();
            peer.writer.write_all(&newgame.encode()).unwrap();
            peer.expect_ok();
            // GNU Go's questions, each acknowledging the previous answer.
            let mut answers = Vec::new();
            for q in [
                Query::Rules,
                Query::BoardSize,
                Query::Handicap,
                Query::Color,
            ] {
                peer.send(Command::Query(q));
                let p = peer.recv();
                assert_eq!(p.ack, peer.seq);
                answers.push(p.command);
            }
            peer.ok(); // "new game ready"
            let black = |mv| Command::Move(encode_move(Color::Black, mv, 9).unwrap());
            peer.send(black(at(2, 6)));
            peer.expect_ok();
            let theirs = peer.recv();
            peer.ok();
            // A move sent twice: the copy reaches us after our next move, waiting for its
            // acknowledgement, and is ignored as an old command.
            let again = peer.send(black(at(6, 6)));
            peer.writer.write_all(&again.encode()).unwrap();
            peer.expect_ok();
            let second = peer.recv();
            peer.ok();
            peer.send(Command::Undo(2));
            peer.expect_ok();
            peer.send(black(Move::Pass));
            peer.expect_ok();
            let last = peer.recv();
            peer.ok();
            // GNU Go's pass after the game.
            peer.send(black(Move::Pass));
            peer.expect_ok();
            (answers, theirs.command, second.command, last.command)
        });
        let ((outcome, player), (answers, first, second, last)) =
            within(move || (ours.join().unwrap(), peer.join().unwrap()));
        // Chinese rules, 9x9, no handicap (1), we are white (1).
        assert_eq!(
            answers,
            [2, 9, 1, 1].map(Command::Answer),
            "answers to rules, size, handicap, colour"
        );
        let white = |mv| Command::Move(encode_move(Color::White, mv, 9).unwrap());
        assert_eq!(
            (first, second, last),
            (white(at(4, 4)), white(at(6, 2)), white(Move::Pass))
        );
        let expected = vec![
            (Color::Black, at(2, 6)),
            (Color::White, at(4, 4)),
            (Color::Black, Move::Pass),
            (Color::White, Move::Pass),
        ];
        assert_eq!(outcome.moves, expected);
        assert_eq!(player.played, expected);
        assert_eq!(player.undos, [2]);
        assert_eq!(player.new_games, 1);
    }

    #[test]
    fn a_silent_or_chatty_side_is_a_timeout_and_a_closed_one_an_error() {
        // Black sends NEWGAME to a side that reads nothing and answers nothing.
        let (our_reads, _peer_writes) = io::pipe().unwrap();
        let (_peer_reads, our_writes) = io::pipe().unwrap();
        let config = GmpConfig {
            retry: Duration::from_millis(20),
            max_retries: 3,
            ..quick(9, Color::Black)
        };
        let err = within(move || {
            play_game(our_reads, our_writes, &config, &mut ListPlayer::default()).unwrap_err()
        });
        assert!(matches!(err, GmpError::Timeout(_)), "{err}");
        // A side that only talks (bytes that are no packets) times out just the same.
        let (our_reads, mut peer_writes) = io::pipe().unwrap();
        let (_peer_reads, our_writes) = io::pipe().unwrap();
        thread::spawn(move || while peer_writes.write_all(b"talk talk ").is_ok() {});
        let config = GmpConfig {
            retry: Duration::from_millis(20),
            max_retries: 3,
            ..quick(9, Color::Black)
        };
        let err = within(move || {
            play_game(our_reads, our_writes, &config, &mut ListPlayer::default()).unwrap_err()
        });
        assert!(matches!(err, GmpError::Timeout(_)), "{err}");
        let (our_reads, peer_writes) = io::pipe().unwrap();
        let (_peer_reads, our_writes) = io::pipe().unwrap();
        drop(peer_writes);
        let err = within(move || {
            let config = quick(9, Color::White);
            play_game(our_reads, our_writes, &config, &mut ListPlayer::default()).unwrap_err()
        });
        assert!(matches!(err, GmpError::Closed), "{err}");
    }

    #[test]
    fn configurations_gmp_cannot_carry_are_refused() {
        for (size, handicap) in [(23, 0), (1, 0), (9, 1)] {
            let (r, _w) = io::pipe().unwrap();
            let config = GmpConfig {
                handicap,
                ..GmpConfig::new(size, Color::Black)
            };
            let err = play_game(r, io::sink(), &config, &mut ListPlayer::default()).unwrap_err();
            assert!(matches!(err, GmpError::Config(_)), "{err}");
        }
    }
}
