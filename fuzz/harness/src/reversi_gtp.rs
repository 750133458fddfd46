//! The Reversi engine's GTP reader (`reversi gtp`, reversi/src/protocol/gtp.rs).
//!
//! Input: one byte of settings (bit 0: the no-adjacent rule; bits 1-2: the engine), then
//! what a controller sends, fed to the session line by line as the program reads stdin.
//! The promise: every line that holds a command gets exactly one well-formed answer (`=`
//! or `?`, the command's id echoed, text without an empty line, then one empty line), blank
//! lines and comments get none, nothing is read after `quit`; a `play` or `genmove` that
//! succeeds moves the game by one legal move (after the forced pass of the side to move,
//! which the reader plays for a controller that does not send it, or none once the game is
//! over), one that fails leaves it as it was; `genmove` answers the move it played. Never
//! a panic.

use gtp_wire::{GtpError, parse_command};
use reversi::protocol::gtp::Gtp;
use reversi::{Move, Position, Rule};

use crate::engine;

/// The rule the settings byte asks for.
fn rule(flags: u8) -> Rule {
    if flags & 1 == 1 {
        Rule::NoAdjacent
    } else {
        Rule::Standard
    }
}

/// The id and the lower-cased command name of a line as the shared GTP reader
/// ([`gtp_wire::parse_command`]) reads it: `None` for a line that holds no command (blank,
/// or a comment), no name for a line that is no command but is answered (an id alone,
/// bytes that are not UTF-8, a bad id).
fn command_of(line: &[u8]) -> Option<(Option<u32>, String)> {
    match parse_command(line) {
        Ok(command) => Some((command.id, command.name.to_ascii_lowercase())),
        Err(GtpError::Blank) => None,
        Err(e) => Some((e.id(), String::new())),
    }
}

/// Whether `after` is `before` moved by one legal move `mv` (maybe after a forced pass),
/// or `before` itself when the game was over and `mv` is a pass.
fn one_legal_move(before: &Position, after: &Position, mv: Option<Move>) -> bool {
    if before.is_game_over() {
        return after == before && mv.is_none_or(|m| m == Move::Pass);
    }
    let mut from = vec![*before];
    if before.must_pass() {
        from.push(before.play_unchecked(Move::Pass));
    }
    from.iter().any(|p| {
        p.legal_moves()
            .into_iter()
            .filter(|&m| mv.is_none_or(|want| want == m))
            .any(|m| p.play_unchecked(m) == *after)
    })
}

/// The target.
pub fn run(data: &[u8]) {
    let Some((&flags, input)) = data.split_first() else {
        return;
    };
    let mut gtp = Gtp::new(rule(flags), engine::player(flags >> 1));
    for raw in input.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(raw);
        let command = command_of(raw);
        let before = *gtp.position();
        let mut out = Vec::new();
        let mut bytes = raw.to_vec();
        bytes.push(b'\n');
        gtp.run(&bytes[..], &mut out).expect("writing to a Vec");
        let out = String::from_utf8(out).expect("GTP answers are UTF-8");
        let after = *gtp.position();
        let Some((id, command)) = command else {
            assert!(
                out.is_empty(),
                "{line:?} holds no command, answered {out:?}"
            );
            continue;
        };
        let body = out.strip_suffix("\n\n").unwrap_or_else(|| {
            panic!("{line:?}: the answer {out:?} does not end in an empty line")
        });
        assert!(
            !body.contains("\n\n") && !body.ends_with('\n'),
            "{line:?}: the answer {out:?} has an empty line inside"
        );
        let ok = match body.as_bytes().first() {
            Some(b'=') => true,
            Some(b'?') => false,
            _ => panic!("{line:?}: the answer {out:?} starts with neither = nor ?"),
        };
        let rest = &body[1..];
        let text = match id {
            Some(id) => rest
                .strip_prefix(&id.to_string())
                .unwrap_or_else(|| panic!("{line:?}: the answer {out:?} lacks the id {id}")),
            None => rest,
        };
        assert!(
            text.is_empty() || text.starts_with(' '),
            "{line:?}: the answer {out:?} runs its text into the status"
        );
        let text = text.trim_start_matches(' ');
        match (command.as_str(), ok) {
            ("genmove", true) => {
                let mv = Move::parse(text)
                    .unwrap_or_else(|| panic!("{line:?}: genmove answered {text:?}"));
                assert!(
                    one_legal_move(&before, &after, Some(mv)),
                    "{line:?}: genmove answered {mv}, which does not lead from\n{before}\nto\n{after}"
                );
            }
            ("play", true) => assert!(
                one_legal_move(&before, &after, None),
                "{line:?}: the move played does not lead from\n{before}\nto\n{after}"
            ),
            ("play" | "genmove", false) => assert!(
                after == before,
                "{line:?} failed but changed the game from\n{before}\nto\n{after}"
            ),
            ("quit", _) => return,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_as_gtp_reads_them() {
        assert_eq!(command_of(b"  # only a comment"), None);
        assert_eq!(command_of(b""), None);
        assert_eq!(
            command_of(b"7 GenMove b"),
            Some((Some(7), "genmove".into()))
        );
        assert_eq!(command_of(b"7"), Some((Some(7), String::new())));
        assert_eq!(command_of(b"play b d3 # x"), Some((None, "play".into())));
        assert_eq!(command_of(b"gen\x01move b"), Some((None, "genmove".into())));
        assert_eq!(command_of(b"99999999999 name"), Some((None, String::new())));
    }

    #[test]
    fn a_game_and_odd_lines_keep_the_promise() {
        run(b"\x00boardsize 8\nplay b d3\n1 genmove w\n\n# c\n2 showboard\nplay w a1\nundo\nundo\nundo\n9\ngenmove b\nfinal_score\nquit\nname\n");
        run(b"\x03genmove black\ngenmove white\ngenmove black\n\xff\xfe play\r\n");
        run(b"\x00play b d3\n99999999999 name\n5 play w \xff\ngen\x01move w\n");
    }
}
