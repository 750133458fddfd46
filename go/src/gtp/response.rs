//! Writing GTP responses (section 2): `=[id] result` on success, `?[id] error_message` on
//! failure, each ended by an empty line.
//!
//! The empty line ends the response, so the text may hold none: empty lines inside it are
//! dropped (a first line left empty on purpose, as `showboard` does to start the board on a
//! line of its own, is kept: it follows the `=`). Control characters are dropped and tabs
//! become spaces, the only white space GTP sends.

use super::command::GtpError;

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

#[cfg(test)]
mod tests {
    use super::*;

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
