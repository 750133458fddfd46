//! The error paths of the program and the package: malformed input, illegal or out-of-range
//! moves, a board that contradicts the moves, the end of input. Each ends the program
//! promptly (even with its input still open) with one line on stderr, no panic or traceback,
//! and status 1. Also: every layout of `top` and the board is read (and checked), and the
//! framed `ok` comes first unless turned off. The input is written by hand here (a correct
//! platform, the judge's `saiblo:` player, sends none of it), its views in the judge's
//! layouts.

mod common;

use common::{Program, package};
use gravity4_judge::games::connect4::Point;
use gravity4_judge::players::saiblo::{Form, message};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};
use testkit::partner::python3;
use testkit::process::wait_until;

/// Starts `program` with piped stdin, stdout and stderr and its environment: these tests
/// write the platform's side by hand (malformed input, say).
fn spawn(program: &Program) -> Child {
    let argv = program.argv();
    Command::new(&argv[0])
        .args(&argv[1..])
        .envs(program.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.name))
}

/// What a program did with some input.
struct Run {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: String,
}

/// Runs `program` on `input`, closing its input afterwards unless `keep_open`; fails the
/// test if it is still running 10 s later.
fn run(program: &Program, input: &str, keep_open: bool) -> Run {
    let mut child = spawn(program);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let held = if keep_open {
        Some(stdin)
    } else {
        drop(stdin);
        None
    };
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let stdout = thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = out.read_to_end(&mut bytes);
        bytes
    });
    let stderr = thread::spawn(move || {
        let mut text = String::new();
        let _ = err.read_to_string(&mut text);
        text
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = wait_until(&mut child, deadline)
        .unwrap_or_else(|| panic!("{} hung on {input:?}", program.name));
    drop(held);
    Run {
        code: status.code(),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

/// The framed `ok` the programs send first by default.
const HELLO: &[u8] = b"\0\0\0\x02ok";

/// Asserts a failure: status 1, exactly one stderr line containing `needle`, nothing that
/// looks like a panic or a traceback, and `replies` framed replies before it (after the
/// framed `ok`, which comes first unless the program was told not to send it).
fn assert_fails(program: &Program, input: &str, keep_open: bool, needle: &str, replies: usize) {
    let run = run(program, input, keep_open);
    assert_eq!(
        run.code,
        Some(1),
        "{}: {input:?}: {}",
        program.name,
        run.stderr
    );
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "{}: {input:?}: {}",
        program.name,
        run.stderr
    );
    assert!(
        lines[0].contains(needle),
        "{}: {input:?}: expected {needle:?} in {:?}",
        program.name,
        lines[0]
    );
    for bad in ["panicked", "Traceback", "RUST_BACKTRACE"] {
        assert!(
            !run.stderr.contains(bad),
            "{}: {}",
            program.name,
            run.stderr
        );
    }
    let mut rest = &run.stdout[..];
    if program.hello {
        assert!(
            rest.starts_with(HELLO),
            "{}: {input:?}: no `ok` first: {rest:?}",
            program.name
        );
        rest = &rest[HELLO.len()..];
    }
    // Each reply is `x y` framed by its 4-byte length: at most 9 bytes, at least 7.
    let mut count = 0;
    while rest.len() >= 4 {
        let length = u32::from_be_bytes(rest[..4].try_into().unwrap()) as usize;
        assert!(
            (3..=5).contains(&length),
            "{}: frame {rest:?}",
            program.name
        );
        rest = &rest[4 + length..];
        count += 1;
    }
    assert!(rest.is_empty(), "{}: trailing bytes {rest:?}", program.name);
    assert_eq!(count, replies, "{}: replies to {input:?}", program.name);
}

/// The platform's `top` and board (our point of view) after the opponent's drop in column
/// 4 of a 9x9 board blocked at (2, 3), optionally with the stone left out.
fn view_numbers_after_opponent_in_col4(drop_stone: bool) -> (Vec<i32>, Vec<i32>) {
    let mut top = vec![9; 9];
    top[4] = 8;
    let mut board = vec![0; 81];
    if !drop_stone {
        board[8 * 9 + 4] = 1;
    }
    (top, board)
}

/// The same, as the text of each block.
fn view_after_opponent_in_col4(drop_stone: bool) -> (String, String) {
    let (top, board) = view_numbers_after_opponent_in_col4(drop_stone);
    let join = |v: Vec<i32>| v.iter().map(i32::to_string).collect::<Vec<_>>().join(" ");
    (join(top), join(board))
}

fn every_error_path(program: &Program) {
    assert_fails(program, "", false, "end of input", 0);
    assert_fails(program, "9 9 x 3\n", true, "not an integer", 0);
    assert_fails(program, "9 9 2\n", true, "M N noX noY", 0);
    assert_fails(program, "3 9 0 0\n", true, "board size", 0);
    assert_fails(program, "9 9 9 0\n", true, "blocked cell", 0);
    assert_fails(program, "9 9 2 3\n4 five\n", true, "not an integer", 0);
    assert_fails(program, "9 9 2 3\n4\n", true, "expected `lastX lastY`", 0);
    assert_fails(
        program,
        "9 9 2 3\n3 4\n",
        true,
        "illegal opponent move (3, 4)",
        0,
    );
    assert_fails(
        program,
        "9 9 2 3\n8 9\n",
        true,
        "illegal opponent move (8, 9)",
        0,
    );
    assert_fails(program, "9 9 2 3\n-1 4\n", true, "illegal opponent move", 0);
    // The blocked cell (2, 3) is never a landing cell.
    assert_fails(
        program,
        "9 9 2 3\n2 3\n",
        true,
        "illegal opponent move (2, 3)",
        0,
    );
    // A view is read over as many lines as it takes, so one cut short waits for the rest:
    // here for the end of input.
    assert_fails(
        program,
        "9 9 2 3\n8 4 1 2 3\n",
        false,
        "`top` and board stopped after 3 values",
        0,
    );
    assert_fails(
        program,
        "9 9 2 3\n8 4\n1 2 3\n",
        false,
        "`top` and board stopped after 3 values",
        0,
    );
    // More numbers than the view has, with or without counts, on one line or several (a
    // line after a complete view is the next message's).
    let (top, board) = view_after_opponent_in_col4(false);
    for extra in [
        format!("9 9 2 3\n8 4 {top} {board} 0\n"),
        format!("9 9 2 3\n8 4\n{top}\n{board} 0\n"),
        format!("9 9 2 3\n8 4 9 {top} 81 {board} 0\n"),
        format!("9 9 2 3\n8 4\n9\n{top}\n81\n{board} 2\n"),
        // A wrong count is no count: 92 numbers where 90 were due.
        format!("9 9 2 3\n8 4 9 {top} 80 {board}\n"),
    ] {
        assert_fails(program, &extra, true, "expected 9 top and 81 board", 0);
    }
    let (top, board) = view_after_opponent_in_col4(true);
    let one_line = format!("9 9 2 3\n8 4 {top} {board}\n");
    assert_fails(program, &one_line, true, "contradicts the moves", 0);
    let three_lines = format!("9 9 2 3\n8 4\n{top}\n{board}\n");
    assert_fails(program, &three_lines, true, "contradicts the moves", 0);
    let (_, board) = view_after_opponent_in_col4(false);
    let wrong_top = format!("9 9 2 3\n8 4\n{}\n{board}\n", ["9"; 9].join(" "));
    assert_fails(program, &wrong_top, true, "top[4]", 0);
    // Input ending mid-game: after one reply, or inside a message.
    assert_fails(program, "9 9 2 3\n-1 -1\n", false, "end of input", 1);
    assert_fails(
        program,
        "9 9 2 3\n8 4 \n9 9 9 9 8 9 9 9 9\n",
        false,
        "end of input",
        0,
    );
    // We move first once only. (Whole messages on one line: a bare second `-1 -1` sent
    // before our reply would be read as the first message's missing `top`.)
    let empty = format!("-1 -1 {} {}", ["9"; 9].join(" "), ["0"; 81].join(" "));
    let twice = format!("9 9 2 3\n{empty}\n{empty}\n");
    assert_fails(
        program,
        &twice,
        true,
        "`-1 -1` (we move first) after 1 moves",
        1,
    );
}

#[test]
fn binary_error_paths() {
    every_error_path(&Program::binary(50));
}

#[test]
fn package_error_paths() {
    let dir = package();
    every_error_path(&Program::python(dir.path(), 50));
}

#[test]
fn binary_rejects_unknown_arguments_and_answers_help() {
    let binary = env!("CARGO_BIN_EXE_gravity4-saiblo");
    let help = Command::new(binary).arg("--help").output().unwrap();
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("usage: gravity4-saiblo"));
    let bad = Command::new(binary).arg("--bogus").output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&bad.stderr).lines().count(), 1);
}

#[test]
fn binary_sends_a_framed_ok_first_unless_told_not_to() {
    // By default and with the old `--hello` (now a no-op), before reading anything: the
    // input stays open and empty.
    for args in [&[][..], &["--hello"]] {
        let mut program = Program::binary(50);
        program.args = args.iter().map(|a| a.to_string()).collect();
        let mut child = spawn(&program);
        let mut hello = [0u8; HELLO.len()];
        child
            .stdout
            .as_mut()
            .unwrap()
            .read_exact(&mut hello)
            .unwrap();
        assert_eq!(&hello[..], HELLO, "{args:?}");
        drop(child.stdin.take());
        let output = child.wait_with_output().unwrap();
        assert!(output.stdout.is_empty(), "{args:?}: {:?}", output.stdout);
        assert_eq!(output.status.code(), Some(1));
    }
    let mut program = Program::binary(50);
    program.args.push("--no-hello".into());
    program.hello = false;
    let without = run(&program, "", false);
    assert!(without.stdout.is_empty(), "{:?}", without.stdout);
    assert_eq!(without.code, Some(1), "{}", without.stderr);
    assert_fails(&program, "9 9 2 3\n-1 -1\n", false, "end of input", 1);
}

/// A correct view of the opponent's drop in column 4 in every layout is read and answered;
/// the same view with the stone left out is a contradiction in every layout.
fn every_layout(program: &Program) {
    for (_, form) in Form::SCHEMES {
        for drop_stone in [false, true] {
            let (top, board) = view_numbers_after_opponent_in_col4(drop_stone);
            let last = Some(Point { x: 8, y: 4 });
            let input = format!("9 9 2 3\n{}", message(form, last, &top, &board));
            match (form, drop_stone) {
                // Nothing to check without a view.
                (Form::Last, true) => {}
                (_, false) => assert_fails(program, &input, false, "end of input", 1),
                (_, true) => assert_fails(program, &input, true, "contradicts the moves", 0),
            }
        }
    }
}

#[test]
fn binary_reads_every_layout() {
    every_layout(&Program::binary(50));
}

#[test]
fn package_reads_every_layout() {
    let dir = package();
    every_layout(&Program::python(dir.path(), 50));
}

/// Starts `program` moving first on a 9x9 board, waits for its reply (so the message form
/// is settled as moves only), then sends `late` (a `top` and board of the first message,
/// arriving after the reply) and closes the input.
fn after_a_late_view(program: &Program, late: &str) -> (Option<i32>, String) {
    let mut child = spawn(program);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"9 9 2 3\n-1 -1\n").unwrap();
    stdin.flush().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    if program.hello {
        let mut hello = [0u8; HELLO.len()];
        stdout.read_exact(&mut hello).unwrap();
        assert_eq!(&hello[..], HELLO);
    }
    let mut frame = [0u8; 4];
    stdout.read_exact(&mut frame).unwrap();
    let mut reply = vec![0u8; u32::from_be_bytes(frame) as usize];
    stdout.read_exact(&mut reply).unwrap();
    stdin.write_all(late.as_bytes()).unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn late_views(program: &Program) {
    // The first message's view, late: the empty board. Accepted, then the input ends.
    let empty = format!("{}\n{}\n", ["9"; 9].join(" "), ["0"; 81].join(" "));
    let (code, stderr) = after_a_late_view(program, &empty);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("end of input"), "{stderr}");
    // The same with counts, each on a line of its own.
    let counted = format!("9\n{}\n81\n{}\n", ["9"; 9].join(" "), ["0"; 81].join(" "));
    let (code, stderr) = after_a_late_view(program, &counted);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("end of input"), "{stderr}");
    // A late view with a stone that was never played: a contradiction.
    let mut board = ["0"; 81];
    board[80] = "1";
    let stone = format!("{}\n{}\n", ["9"; 9].join(" "), board.join(" "));
    let (code, stderr) = after_a_late_view(program, &stone);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("contradicts the moves"), "{stderr}");
}

#[test]
fn binary_checks_a_view_that_comes_after_its_reply() {
    late_views(&Program::binary(50));
}

#[test]
fn package_checks_a_view_that_comes_after_its_reply() {
    let dir = package();
    late_views(&Program::python(dir.path(), 50));
}

#[test]
fn package_sends_a_framed_ok_first_unless_told_not_to() {
    let dir = package();
    // As the package is (SEND_HELLO = True unless the zip was built with --no-hello), then
    // with the setting turned the other way, as `scripts/saiblo-package.sh --no-hello` does.
    let path = dir.path().join("main.py");
    for _ in 0..2 {
        let program = Program::python(dir.path(), 50);
        let output = run(&program, "", false);
        let expected = if program.hello { HELLO } else { b"" };
        assert_eq!(&output.stdout[..], expected, "hello {}", program.hello);
        assert_eq!(output.code, Some(1), "{}", output.stderr);
        assert_fails(&program, "9 9 2 3\n-1 -1\n", false, "end of input", 1);
        let text = std::fs::read_to_string(&path).unwrap();
        let (from, to) = if program.hello {
            ("\nSEND_HELLO = True\n", "\nSEND_HELLO = False\n")
        } else {
            ("\nSEND_HELLO = False\n", "\nSEND_HELLO = True\n")
        };
        std::fs::write(&path, text.replace(from, to)).unwrap();
    }
}

#[test]
fn main_py_sends_the_ok_by_default() {
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("package");
    assert!(common::sends_hello(&package));
}

/// The platform's Python may be old: main.py keeps to Python 3.6's grammar (checked by
/// Python's own parser, which knows the grammar of earlier versions since 3.8).
#[test]
fn main_py_is_python_3_6() {
    let main = concat!(env!("CARGO_MANIFEST_DIR"), "/package/main.py");
    let check = "import ast, sys; ast.parse(open(sys.argv[1]).read(), feature_version=(3, 6))";
    let status = Command::new(python3())
        .args(["-c", check, main])
        .status()
        .expect("python3 runs");
    assert!(
        status.success(),
        "main.py uses grammar newer than Python 3.6"
    );
}
