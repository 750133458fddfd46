//! GTP responses (section 3.4, "Responses"): `=[id] result` on success, `?[id]
//! error_message` on failure, each ended by an empty line. An engine writes them
//! ([`format_response`], [`format_error`]); a controller reads them ([`read_reply`]).
//!
//! The empty line ends the response, so the text may hold none: empty lines inside it are
//! dropped (a first line left empty on purpose, as `showboard` does to start the board on a
//! line of its own, is kept: it follows the `=`). Control characters are dropped and tabs
//! become spaces, the only white space GTP sends.

use crate::command::GtpError;

/// The response to a command with `id`: `Ok(text)` for success, `Err(message)` for failure.
pub fn format_response(id: Option<u32>, result: Result<&str, &str>) -> String {
    let (status, text) = match result {
        Ok(text) => ('=', text),
        Err(message) => ('?', message),
    };
    let mut out = String::with_capacity(text.len() + 16);
    out.push(status);
    if let Some(id) = id {
        out.push_str(&id.to_string());
    }
    let clean: String = text
        .chars()
        .filter(|&c| c == '\n' || c == '\t' || !c.is_control())
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let mut lines = clean.trim_end_matches('\n').split('\n');
    let first = lines.next().unwrap_or("");
    let rest: Vec<&str> = lines.filter(|l| !l.is_empty()).collect();
    if !first.is_empty() || !rest.is_empty() {
        out.push(' ');
        out.push_str(first);
    }
    for line in rest {
        out.push('\n');
        out.push_str(line);
    }
    out.push_str("\n\n");
    out
}

/// The error response for a line that could not be read; `None` for a blank line, which gets
/// no response.
pub fn format_error(error: &GtpError) -> Option<String> {
    (!error.is_blank()).then(|| format_response(error.id(), Err(&error.to_string())))
}

/// One response as a controller reads it: `=` (success) or `?` (failure), and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// `=` (true) or `?` (false).
    pub ok: bool,
    /// The text after the status and id, its lines joined by `\n`.
    pub text: String,
}

/// Reads the first line of a response: `=` or `?`, an optional numeric id, then the text
/// (trimmed); `None` if the line starts with neither.
pub fn reply_head(line: &str) -> Option<Reply> {
    let ok = match line.as_bytes().first()? {
        b'=' => true,
        b'?' => false,
        _ => return None,
    };
    let rest = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
    Some(Reply {
        ok,
        text: rest.trim().to_string(),
    })
}

/// Reads one whole response from `next_line` (each line without its line break): stray
/// empty lines before it are skipped, then its first line ([`reply_head`]) and every line
/// up to the empty line that ends it (each without trailing blanks). `Ok(Err(line))`: the
/// first line that is not empty is no response; `Err` is `next_line`'s.
pub fn read_reply<E>(
    mut next_line: impl FnMut() -> Result<String, E>,
) -> Result<Result<Reply, String>, E> {
    let mut reply = loop {
        let line = next_line()?;
        // Stray empty lines between responses are harmless.
        if line.trim().is_empty() {
            continue;
        }
        match reply_head(&line) {
            Some(reply) => break reply,
            None => return Ok(Err(line)),
        }
    };
    loop {
        let line = next_line()?;
        if line.trim().is_empty() {
            return Ok(Ok(reply));
        }
        reply.text.push('\n');
        reply.text.push_str(line.trim_end());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(ok: bool, text: &str) -> Reply {
        Reply {
            ok,
            text: text.into(),
        }
    }

    #[test]
    fn response_heads_read_with_or_without_ids() {
        assert_eq!(reply_head("= D3"), Some(reply(true, "D3")));
        assert_eq!(reply_head("=12 pass"), Some(reply(true, "pass")));
        assert_eq!(
            reply_head("? syntax error"),
            Some(reply(false, "syntax error"))
        );
        assert_eq!(reply_head("="), Some(reply(true, "")));
        assert_eq!(reply_head("d3"), None);
        assert_eq!(reply_head(""), None);
    }

    #[test]
    fn whole_responses_read_back_what_was_written() {
        let written = [
            format_response(Some(1), Ok("D4")),
            format_response(None, Err("illegal move")),
            format_response(Some(9), Ok("a\nb  \nc")),
            format_response(None, Ok("")),
        ]
        .concat();
        let mut lines = written.split('\n').map(str::to_string);
        let mut next = || lines.next().ok_or(());
        assert_eq!(read_reply(&mut next), Ok(Ok(reply(true, "D4"))));
        assert_eq!(read_reply(&mut next), Ok(Ok(reply(false, "illegal move"))));
        assert_eq!(read_reply(&mut next), Ok(Ok(reply(true, "a\nb\nc"))));
        assert_eq!(read_reply(&mut next), Ok(Ok(reply(true, ""))));
        assert_eq!(read_reply(&mut next), Err(()));
        let mut lines = ["", "  ", "d3", "= x"].into_iter().map(str::to_string);
        let mut next = || lines.next().ok_or(());
        assert_eq!(read_reply(&mut next), Ok(Err("d3".to_string())));
    }

    #[test]
    fn success_and_failure_with_and_without_id() {
        assert_eq!(format_response(Some(1), Ok("2")), "=1 2\n\n");
        assert_eq!(format_response(None, Ok("D4")), "= D4\n\n");
        assert_eq!(format_response(Some(3), Ok("")), "=3\n\n");
        assert_eq!(format_response(None, Ok("")), "=\n\n");
        assert_eq!(
            format_response(Some(4), Err("illegal move")),
            "?4 illegal move\n\n"
        );
        assert_eq!(
            format_response(None, Err("unknown command")),
            "? unknown command\n\n"
        );
    }

    #[test]
    fn multi_line_responses_never_hold_an_empty_line() {
        assert_eq!(
            format_response(Some(9), Ok("protocol_version\nname\nversion\n")),
            "=9 protocol_version\nname\nversion\n\n"
        );
        // showboard's board starts on a line of its own.
        assert_eq!(
            format_response(None, Ok("\n   A B\n 2 . .\n\n 1 . X\n")),
            "= \n   A B\n 2 . .\n 1 . X\n\n"
        );
        assert_eq!(
            format_response(None, Ok("a\r\n\tb\x07\n\n\nc")),
            "= a\n b\nc\n\n"
        );
        assert_eq!(format_response(None, Ok("\n\n")), "=\n\n");
    }

    #[test]
    fn errors_of_unreadable_lines() {
        assert_eq!(format_error(&GtpError::Blank), None);
        assert_eq!(
            format_error(&GtpError::MissingCommand { id: 12 }).unwrap(),
            "?12 syntax error: no command\n\n"
        );
        assert_eq!(
            format_error(&GtpError::InvalidUtf8 { id: None }).unwrap(),
            "? syntax error: invalid UTF-8\n\n"
        );
    }
}
