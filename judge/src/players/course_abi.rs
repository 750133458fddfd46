//! A course-ABI library (`getPoint`/`clearPoint`, see `docs/ABI.md`) as a [`Player`] of
//! Connect-4: the library runs in its own host process (the process layer), and this
//! adapter turns positions into the ABI's arguments (`top`, the mover's board, the
//! opponent's last point, the blocked cell) and the host's answers into moves or faults.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::process::protocol::MoveRequest;
use super::process::{self, Audit, Host, LogSink, ProcessSettings};
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
        CourseAbiPlayer::launch_audited(settings, library, env, log, None)
    }

    /// [`CourseAbiPlayer::launch`], with the library's stdout and the files it leaves
    /// reported to `audit` when there is one (`judge check`).
    pub fn launch_audited(
        settings: &ProcessSettings,
        library: &Path,
        env: &[(String, String)],
        log: Arc<LogSink>,
        audit: Option<Arc<Audit>>,
    ) -> CourseAbiPlayer {
        CourseAbiPlayer {
            host: Host::start(settings, library, env, log, audit).map_err(load_fault),
        }
    }
}

/// Checks, without loading it, that `path` can be a course library: it exists, is
/// readable, and is an ELF shared object (`e_type` `ET_DYN`). Loading is left to the
/// game (a missing symbol or dependency is a `load` verdict): `dlopen` runs the library's
/// constructors, which only its own isolated process may do.
pub fn check_library(path: &Path) -> Result<(), String> {
    use std::io::Read;
    let shown = path.display();
    let mut head = [0u8; 18];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => format!("{shown}: not an ELF shared object"),
            _ => format!("{shown}: {e}"),
        })?;
    if &head[..4] != b"\x7fELF" {
        return Err(format!("{shown}: not an ELF shared object"));
    }
    // e_type: 2 bytes at offset 16, in the byte order EI_DATA (offset 5) names.
    let e_type = match head[5] {
        2 => u16::from_be_bytes([head[16], head[17]]),
        _ => u16::from_le_bytes([head[16], head[17]]),
    };
    const ET_DYN: u16 = 3;
    if e_type != ET_DYN {
        return Err(format!(
            "{shown}: an ELF file but not a shared object (e_type {e_type})"
        ));
    }
    Ok(())
}

/// A load error's fault: a missing symbol is its own verdict (course code -3/-4).
pub(super) fn load_fault(text: String) -> Fault {
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
                return Answer::fault(fault.clone());
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

    fn peak_memory_kb(&self) -> Option<u64> {
        self.host.as_ref().ok()?.peak_memory_kb()
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
    fn libraries_are_checked_for_elf_shared_objects() {
        let dir = tempfile::tempdir().unwrap();
        let text = dir.path().join("notalib.so");
        std::fs::write(&text, "this is not a library, just text").unwrap();
        assert!(check_library(&text).unwrap_err().contains("not an ELF"));
        assert!(
            check_library(&dir.path().join("missing.so"))
                .unwrap_err()
                .contains("No such file")
        );
        // An executable (ET_EXEC or PIE) or a real shared object from the system.
        let libc_so = ["/lib/x86_64-linux-gnu/libc.so.6", "/lib64/libc.so.6"]
            .into_iter()
            .map(Path::new)
            .find(|p| p.exists());
        if let Some(lib) = libc_so {
            assert_eq!(check_library(lib), Ok(()));
        }
        assert!(check_library(dir.path()).is_err());
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
