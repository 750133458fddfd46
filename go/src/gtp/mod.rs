//! GTP, the Go Text Protocol version 2 (Gunnar Farnebäck's specification, draft 2,
//! <https://www.lysator.liu.se/~gunnar/gtp/gtp2-spec-draft2/gtp2-spec.html>): the wire layer
//! (reading command lines, formatting responses, converting the protocol's entities) and
//! the engine's session on top of it.
//!
//! - [`command`]: section 3.1's preprocessing, then section 2's command structure
//!   (`[id] command_name [arguments]`), from raw bytes: nothing a controller sends can make
//!   it panic, and bytes that are not UTF-8 are an error to answer, not a crash.
//! - [`response`]: section 2's response structure (`=[id] result` or `?[id] error_message`,
//!   ended by an empty line), multi-line responses included.
//! - [`session`]: the engine's side: every command of [`KNOWN_COMMANDS`] over a
//!   [`crate::player::Player`], one response per command whatever the input.
//! - [`entity`]: the simple entities: vertex (`A1`..`Z25` without `I`, any case, rows
//!   counted from the BOTTOM, or `pass`), color (`b`, `w`, `black`, `white`, any case),
//!   move, int and float.

pub mod command;
pub mod entity;
pub mod response;
pub mod session;

pub use command::{Command, CommandReader, GtpError, parse_command, preprocess};
pub use entity::{
    format_vertex, parse_color, parse_float, parse_int, parse_move, parse_vertex, vertex_letter,
};
pub use response::{format_error, format_response};

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
