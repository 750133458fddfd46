//! The engine side's loop (section 2.1: the controller sends one command at a time and the
//! engine answers each with one response): read a command, answer it, flush, until the input
//! ends or a command ends the session. What a command means is the engine's, through the
//! closure it passes in.

use std::io::{self, BufRead, Write};

use crate::command::{Command, CommandReader, GtpError};

/// Serves GTP from `input` to `output`. `respond` gets each command as read (or the error
/// that kept a line from being one) and returns the response text to send and whether the
/// session ends after it, or `None` for a line that gets no response (a blank one). Each
/// response is flushed before the next command is read, since the controller waits for it.
pub fn serve<R: BufRead, W: Write>(
    input: R,
    mut output: W,
    mut respond: impl FnMut(Result<Command, GtpError>) -> Option<(String, bool)>,
) -> io::Result<()> {
    let mut reader = CommandReader::new(input);
    while let Some(read) = reader.read_command()? {
        let Some((response, quit)) = respond(read) else {
            continue;
        };
        output.write_all(response.as_bytes())?;
        output.flush()?;
        if quit {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::response::{format_error, format_response};

    /// A session that answers `name` with its name and quits on `quit`.
    fn echo(input: &str) -> String {
        let mut out = Vec::new();
        serve(input.as_bytes(), &mut out, |read| match read {
            Ok(c) => Some((format_response(c.id, Ok(&c.name)), c.name == "quit")),
            Err(e) => format_error(&e).map(|text| (text, false)),
        })
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn answers_each_command_and_skips_blank_lines() {
        assert_eq!(
            echo("1 name\n\n# note\nversion\n"),
            "=1 name\n\n= version\n\n"
        );
    }

    #[test]
    fn stops_after_the_command_that_ends_the_session() {
        assert_eq!(echo("quit\nname\n"), "= quit\n\n");
    }
}
