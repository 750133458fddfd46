//! GTP, the Go Text Protocol version 2 (Gunnar Farnebäck's specification, draft 2,
//! <https://www.lysator.liu.se/~gunnar/gtp/gtp2-spec-draft2/gtp2-spec.html>): the engine's
//! session over the wire layer of the `gtp-wire` crate ([`gtp_wire`], shared with the
//! Reversi engine and the judge), which reads commands (section 3.1's preprocessing, ids,
//! arguments) and writes responses.
//!
//! - [`session`]: the engine's side: every command of [`KNOWN_COMMANDS`] over a
//!   [`crate::player::Player`], one response per command whatever the input.
//! - [`vertex`]: GTP's vertices (`A1`..`Z25` without `I`, any case, rows counted from the
//!   BOTTOM, or `pass`), colours and moves as the engine's points, colours and moves.

pub mod session;
pub mod vertex;

pub use gtp_wire::{
    Command, CommandReader, GtpError, MAX_LINE, format_error, format_response, parse_command,
    parse_float, parse_int, preprocess,
};
pub use vertex::{format_vertex, parse_color, parse_move, parse_vertex};

/// The commands the engine answers, in `list_commands` order: GTP version 2's required
/// commands, then those issue 37 asks for (the tournament and regression subsets of the
/// specification and KGS's extensions).
pub const KNOWN_COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "kgs-genmove_cleanup",
    "loadsgf",
    "printsgf",
];

/// True when `name` is one of [`KNOWN_COMMANDS`] (for `known_command`).
pub fn is_known_command(name: &str) -> bool {
    KNOWN_COMMANDS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_known_commands_are_the_required_ones_and_the_issue_s() {
        for required in [
            "protocol_version",
            "name",
            "version",
            "known_command",
            "list_commands",
            "quit",
            "boardsize",
            "clear_board",
            "komi",
            "play",
            "genmove",
        ] {
            assert!(is_known_command(required), "{required}");
        }
        assert_eq!(KNOWN_COMMANDS.len(), 25);
        assert!(!is_known_command("PLAY"));
        assert!(!is_known_command("gogui-analyze_commands"));
        let mut sorted = KNOWN_COMMANDS.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), KNOWN_COMMANDS.len(), "no duplicates");
    }
}
