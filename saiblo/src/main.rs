//! `gravity4-saiblo`: the gravity4 engine as a program for the Saiblo platform (the
//! protocol: [`gravity4_saiblo::program`]). This file is the process around it: arguments,
//! the panic hook, stdin and stdout, the exit status.

use gravity4::settings::Settings;
use gravity4_saiblo::input::Input;
use gravity4_saiblo::program::Program;
use std::io::{self, BufReader};
use std::panic;
use std::process::ExitCode;

const USAGE: &str = "\
usage: gravity4-saiblo [--no-hello]

Plays gravity Connect-4 on stdin/stdout as the Saiblo platform runs programs: sends a
framed `ok` first (as the platform's template does), reads `M N noX noY`, then before each
move `lastX lastY` (optionally followed by top and board, each optionally preceded by its
count, over any number of lines), and answers each with a 4-byte big-endian length and
`x y`.

  --no-hello   do not send the framed `ok` first
  --hello      accepted for old scripts: the `ok` is sent by default

Environment: GRAVITY4_MOVE_MS (default 2000), GRAVITY4_PROFILE, GRAVITY4_LOG, ...";

fn main() -> ExitCode {
    let mut hello = true;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            // The old switch, from when the `ok` was off by default.
            "--hello" => {}
            "--no-hello" => hello = false,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "-V" | "--version" => {
                println!("gravity4-saiblo {}", env!("CARGO_PKG_VERSION"));
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("gravity4-saiblo: unknown argument {other:?} (try --help)");
                return ExitCode::from(2);
            }
        }
    }
    // One line instead of a panic report: the platform shows stderr, and a panic inside the
    // search is caught below and answered with a legal move anyway.
    panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("gravity4-saiblo: internal error{place}: {message}");
    }));
    let input = Input::spawn(BufReader::new(io::stdin()));
    let mut output = io::stdout().lock();
    let mut program = Program::new(Settings::from_env(), hello);
    match program.play(input, &mut output) {
        Ok(ending) => {
            eprintln!("gravity4-saiblo: game over ({ending}), input closed");
            ExitCode::SUCCESS
        }
        Err(failure) => {
            eprintln!("gravity4-saiblo: {failure}");
            ExitCode::FAILURE
        }
    }
}
