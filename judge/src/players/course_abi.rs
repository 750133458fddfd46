//! A course-ABI library (`getPoint`/`clearPoint`, see `docs/ABI.md`) as a [`Player`] of
//! Connect-4: the library runs in its own host process (the process layer), and this
//! adapter turns positions into the ABI's arguments (`top`, the mover's board, the
//! opponent's last point, the blocked cell) and the host's answers into moves or faults.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::process::protocol::MoveRequest;
use super::process::{self, Host, LogSink, ProcessSettings};
use super::{Answer, Fault, Player};
use crate::games::Side;
use crate::games::connect4::{BoardSpec, Connect4, Point, Position};

/// A course-ABI library in its host process.
pub struct CourseAbiPlayer {
    /// The host, or why it could not be started or loaded.
    host: Result<Host, Fault>,
}

impl CourseAbiPlayer {
    /// Starts a host for `library` with `env` in its environment, its output going to
    /// `log`. Does not wait for the library to load: [`Player::start`] does, so two
    /// players' loads overlap.
    pub fn launch(
        settings: &ProcessSettings,
        library: &Path,
        env: &[(String, String)],
        log: Arc<LogSink>,
    ) -> CourseAbiPlayer {
        CourseAbiPlayer {
            host: Host::start(settings, library, env, log).map_err(load_fault),
        }
    }
}

/// A load error's fault: a missing symbol is its own verdict (course code -3/-4).
fn load_fault(text: String) -> Fault {
    if text.starts_with("missing symbol") {
        Fault::MissingSymbol(text)
    } else {
        Fault::Load(text)
    }
}

/// The ABI's arguments for the side to move in `position`.
fn move_request(position: &Position, side: Side) -> MoveRequest {
    let BoardSpec { m, n, no_x, no_y } = position.spec();
    let last = position.last().unwrap_or(Point { x: -1, y: -1 });
    MoveRequest {
        m,
        n,
        top: position.top().to_vec(),
        board: position.board_for(side).to_vec(),
        last_x: last.x,
        last_y: last.y,
        no_x,
        no_y,
    }
}

impl Player<Connect4> for CourseAbiPlayer {
    fn start(&mut self, _game: &Connect4, _setup: &BoardSpec, _side: Side) -> Result<(), Fault> {
        let waited = match &mut self.host {
            Ok(host) => host.wait_ready().map_err(load_fault),
            Err(fault) => Err(fault.clone()),
        };
        if let Err(fault) = &waited {
            // Dropping the host kills it and deletes its scratch directory.
            self.host = Err(fault.clone());
        }
        waited
    }

    fn next_move(
        &mut self,
        game: &Connect4,
        position: &Position,
        _last: Option<Point>,
        limit: Duration,
    ) -> Answer<Point> {
        use crate::games::Game;
        let host = match &mut self.host {
            Ok(host) => host,
            Err(fault) => {
                return Answer {
                    reply: Err(fault.clone()),
                    wall_ms: 0.0,
                    cpu_ms: None,
                };
            }
        };
        let t = host.get_point(&move_request(position, game.to_move(position)), limit);
        let reply = match t.answer {
            process::Answer::Point { x, y } => Ok(Point { x, y }),
            process::Answer::Null => Err(Fault::NoMove),
            process::Answer::Timeout => Err(Fault::Timeout),
            process::Answer::Crash(what) => Err(Fault::Crash(what)),
        };
        Answer {
            reply,
            wall_ms: t.wall_ms,
            cpu_ms: t.cpu_ms,
        }
    }

    fn reusable(&self) -> bool {
        self.host.as_ref().is_ok_and(|h| !h.is_dead())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;

    #[test]
    fn the_mover_sees_its_stones_as_two_and_the_last_point() {
        let spec = BoardSpec {
            m: 4,
            n: 5,
            no_x: 3,
            no_y: 1,
        };
        let mut p = Connect4.start(&spec);
        let req = move_request(&p, Side::First);
        assert_eq!((req.last_x, req.last_y), (-1, -1));
        assert_eq!(req.top, vec![4, 3, 4, 4, 4]);
        let mv = p.drop_point(0).unwrap();
        Connect4.play(&mut p, mv);
        let req = move_request(&p, Side::Second);
        assert_eq!((req.last_x, req.last_y), (3, 0));
        assert_eq!(req.board[15], 1);
        assert_eq!(move_request(&p, Side::First).board[15], 2);
        assert_eq!((req.m, req.n, req.no_x, req.no_y), (4, 5, 3, 1));
    }

    #[test]
    fn missing_symbols_are_their_own_fault() {
        assert!(matches!(
            load_fault("missing symbol clearPoint: x".into()),
            Fault::MissingSymbol(_)
        ));
        assert!(matches!(load_fault("not an ELF".into()), Fault::Load(_)));
    }
}
