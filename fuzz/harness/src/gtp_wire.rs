//! The GTP wire layer both sides use (gtp/, the `gtp-wire` crate): the command reader the
//! engines share (`go-engine gtp`, `reversi gtp`) and the response writer and reader (the
//! engines write, the judge reads). What each session does with a command is fuzzed by
//! [`go_gtp`](crate::go_gtp) and [`reversi_gtp`](crate::reversi_gtp); what the judge makes
//! of an answer's move by [`judge_gtp`](crate::judge_gtp).
//!
//! Input: bytes, read twice. As commands ([`CommandReader`], what an engine reads): every
//! line that is not blank after GTP 2 section 3.1's preprocessing is a command (a name
//! without blanks or control characters, arguments the same, an id from 0 to 2^31 - 1) or
//! an error that names the line's id; the responses written for them
//! ([`format_response`], [`format_error`]) read back ([`read_reply`]) one for one, with
//! their status and text. As responses (what a controller reads): every response is read
//! or its first line refused, and its text has no empty line and no blanks around its
//! first line or after any other. Never a panic.

use gtp_wire::{CommandReader, GtpError, format_error, format_response, read_reply};

use crate::judge_gtp::pipe_lines;

/// The largest id.
const MAX_ID: u32 = (1 << 31) - 1;

/// A word of a command: not empty, no blanks or control characters.
fn assert_word(word: &str) {
    assert!(
        !word.is_empty() && !word.contains([' ', '\t', '\r', '\n', '#']),
        "{word:?} is not one word"
    );
    assert!(!word.chars().any(|c| c.is_ascii_control()), "{word:?}");
}

/// Reads `data` as an engine does and answers each command; returns the responses written
/// and, for each, its status and the text it carries.
fn answer_commands(data: &[u8]) -> (String, Vec<(bool, String)>) {
    let mut reader = CommandReader::new(data);
    let mut out = String::new();
    let mut sent = Vec::new();
    while let Some(read) = reader.read_command().expect("reading memory cannot fail") {
        match read {
            Ok(command) => {
                assert_word(&command.name);
                command.args.iter().for_each(|a| assert_word(a));
                assert!(command.id.is_none_or(|id| id <= MAX_ID));
                let text = std::iter::once(command.name.as_str())
                    .chain(command.args.iter().map(String::as_str))
                    .collect::<Vec<_>>()
                    .join(" ");
                let ok = command.args.len() % 2 == 0;
                let result = if ok { Ok(&text[..]) } else { Err(&text[..]) };
                out.push_str(&format_response(command.id, result));
                // The writer drops control characters (Unicode's too: the reader keeps all
                // but ASCII's, as section 3.1 says), and the reader trims the line.
                let written: String = text.chars().filter(|c| !c.is_control()).collect();
                sent.push((ok, written.trim().to_string()));
            }
            Err(e) => {
                assert_ne!(e, GtpError::Blank, "blank lines are skipped");
                let response = format_error(&e).expect("an error to answer");
                assert!(response.starts_with(&format!(
                    "?{}",
                    e.id().map_or(String::new(), |id| id.to_string())
                )));
                out.push_str(&response);
                sent.push((false, e.to_string()));
            }
        }
    }
    (out, sent)
}

/// Reads `data` as responses, as the judge does, each keeping the promised shape.
fn read_responses(data: &[u8]) {
    let mut next_line = pipe_lines(data);
    while let Ok(answer) = read_reply(&mut next_line) {
        let Ok(reply) = answer else {
            continue;
        };
        let mut lines = reply.text.split('\n');
        let head = lines.next().unwrap_or("");
        assert_eq!(
            head,
            head.trim(),
            "blanks around the first line of {reply:?}"
        );
        for line in lines {
            assert!(
                !line.trim().is_empty() && line == line.trim_end(),
                "an empty line or trailing blanks inside {reply:?}"
            );
        }
    }
}

/// The target.
pub fn run(data: &[u8]) {
    let (out, sent) = answer_commands(data);
    let mut next_line = pipe_lines(out.as_bytes());
    for (ok, text) in sent {
        let reply = read_reply(&mut next_line)
            .expect("a whole response")
            .expect("a response");
        assert_eq!((reply.ok, reply.text), (ok, text), "in {out:?}");
    }
    assert_eq!(
        read_reply(&mut next_line),
        Err(()),
        "nothing after the responses"
    );
    read_responses(data);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_responses_keep_the_promise() {
        run(b"1 name\n\n# c\n  \t\r\n2 play b D4\n7\n99999999999 x\nn\xc3me\ngen\x01move w # x\n");
        run(b"= D3\n\n=1 pass\n\n? illegal move\n\nd3\n=2 a\n b \n\n\n= \n\n");
        run(b"");
        // A C1 control character (U+0082) in a name: kept by the reader, dropped by the
        // writer.
        run(b"2\n\xc2\x82?1 -\n");
    }
}
