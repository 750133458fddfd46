//! The terminal views, driven as a person would drive them: `judge play` and `judge
//! replay` run on a pseudo-terminal (raw keys, bad keys included), and through a pipe
//! (line mode). The library side uses fixtures from `fixtures/` compiled with `cc`.

use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod common;

use testkit::process::wait_until;

/// Generous: the library host starts a process per game, and CI machines are slow.
const WAIT: Duration = Duration::from_secs(20);

/// A judge running on a pseudo-terminal, with everything it printed so far.
struct Pty {
    master: std::fs::File,
    child: Child,
    output: Arc<Mutex<Vec<u8>>>,
    /// How much of the output earlier `expect` calls consumed.
    seen: usize,
}

impl Pty {
    fn spawn(args: &[&str], cwd: &Path) -> Pty {
        // SAFETY: the usual openpty sequence on descriptors this test owns; ptsname_r
        // writes a NUL-terminated name into the buffer we pass.
        let (master, slave) = unsafe {
            let m = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
            assert!(m >= 0, "posix_openpt failed");
            assert_eq!(libc::grantpt(m), 0);
            assert_eq!(libc::unlockpt(m), 0);
            let mut name = [0 as libc::c_char; 128];
            assert_eq!(libc::ptsname_r(m, name.as_mut_ptr(), name.len()), 0);
            let s = libc::open(name.as_ptr(), libc::O_RDWR | libc::O_NOCTTY);
            assert!(s >= 0, "opening the pty slave failed");
            let size = libc::winsize {
                ws_row: 50,
                ws_col: 120,
                ws_xpixel: 0,
                ws_ypixel: 0,
            };
            libc::ioctl(s, libc::TIOCSWINSZ, &size);
            (std::fs::File::from_raw_fd(m), OwnedFd::from_raw_fd(s))
        };
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_judge"));
        cmd.args(args)
            .current_dir(cwd)
            .env("TERM", "xterm")
            .env_remove("NO_COLOR")
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave));
        // SAFETY: setsid and ioctl are async-signal-safe; the child gets the pty as its
        // controlling terminal, as a shell would give it.
        unsafe {
            cmd.pre_exec(|| {
                libc::setsid();
                libc::ioctl(0, libc::TIOCSCTTY, 0);
                Ok(())
            });
        }
        let child = cmd.spawn().expect("start judge");
        // The parent's copies of the slave are gone (moved into Stdio and dropped with
        // `cmd`), so reads on the master end with EIO once the judge exits.
        drop(cmd);
        let output = Arc::new(Mutex::new(Vec::new()));
        let mut reader = master.try_clone().unwrap();
        let sink = output.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Pty {
            master,
            child,
            output,
            seen: 0,
        }
    }

    /// Types `keys` (raw bytes, as a terminal sends them).
    fn send(&mut self, keys: &str) {
        self.master.write_all(keys.as_bytes()).unwrap();
        self.master.flush().unwrap();
    }

    /// Waits until `text` appears in the output after what earlier calls consumed (ANSI
    /// escapes removed), and consumes up to it.
    fn expect(&mut self, text: &str) {
        let start = Instant::now();
        loop {
            let out = strip_ansi(&self.output.lock().unwrap()[self.seen..]);
            if let Some(i) = out.find(text) {
                // Consume by bytes of the raw output: find the same text there after stripping.
                self.seen += raw_offset(&self.output.lock().unwrap()[self.seen..], i + text.len());
                return;
            }
            assert!(
                start.elapsed() < WAIT,
                "waited {WAIT:?} for {text:?}; the screen since the last match:\n{out}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Waits for the judge to exit and returns its status.
    fn wait(&mut self) -> std::process::ExitStatus {
        wait_until(&mut self.child, Instant::now() + WAIT).expect("judge did not exit")
    }

    /// The terminal's local flags as the judge left them.
    fn lflag(&self) -> libc::tcflag_t {
        use std::os::fd::AsRawFd;
        // SAFETY: tcgetattr writes one termios we own; on Linux the master reports the
        // pair's settings.
        unsafe {
            let mut t: libc::termios = std::mem::zeroed();
            assert_eq!(libc::tcgetattr(self.master.as_raw_fd(), &mut t), 0);
            t.c_lflag
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The output with ANSI escape sequences removed.
fn strip_ansi(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&strip(bytes).0).into_owned()
}

/// Removes `ESC [ ... letter`; also returns, for each kept byte, its raw offset.
fn strip(bytes: &[u8]) -> (Vec<u8>, Vec<usize>) {
    let (mut out, mut at) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == 0x1b && bytes.get(i + 1) == Some(&b'[') {
            i += 2;
            while i < bytes.len() && !(0x40..=0x7e).contains(&bytes[i]) {
                i += 1;
            }
            i += 1;
            continue;
        }
        out.push(bytes[i]);
        at.push(i);
        i += 1;
    }
    (out, at)
}

/// The raw offset just after `stripped_end` bytes of stripped text (lossy UTF-8 aside,
/// the views print valid UTF-8, so stripped offsets and bytes agree).
fn raw_offset(bytes: &[u8], stripped_end: usize) -> usize {
    let (_, at) = strip(bytes);
    at.get(stripped_end - 1).map_or(bytes.len(), |&i| i + 1)
}

#[test]
fn play_on_a_terminal_with_bad_keys_then_save_and_replay() {
    let libs = tempfile::tempdir().unwrap();
    let lib = common::fixture(libs.path(), "telemetry", &[]);
    let cwd = tempfile::tempdir().unwrap();
    let lib_arg = lib.display().to_string();
    let mut p = Pty::spawn(
        &[
            "play",
            &lib_arg,
            "--size",
            "6x7",
            "--blocked",
            "5,1",
            "--seed",
            "1",
        ],
        cwd.path(),
    );
    p.expect("board 6x7, blocked cell row 5 column 1");
    p.expect("Your move: press a column key 0-6 (q quits).");
    // Bad keys get a hint and the same prompt again.
    p.send("z");
    p.expect("\"z\" is not a column: use 0-6, or q to quit.");
    p.send("!");
    p.expect("\"!\" is not a column");
    p.send("9");
    p.expect("\"9\" is not a column");
    // Column 0 three times each: the library (leftmost legal column) answers in column 0
    // and shows its telemetry, then column 0 is full.
    for _ in 0..3 {
        p.send("0");
        p.expect("telemetry played column 0 in ");
        p.expect(" ms · 42 iterations · win-rate 25.0%");
        p.expect("Your move");
    }
    p.send("0");
    p.expect("Column 0 is full: choose another.");
    // The blocked cell starts column 1 one row higher; we stack column 6 and win.
    for k in 0..4 {
        p.send("6");
        if k < 3 {
            p.expect("telemetry played column 1");
            p.expect("Your move");
        }
    }
    p.expect("You win: four in a row!");
    p.expect("Press s to save the game to runs/play/games.jsonl");
    p.send("s");
    p.expect("Saved as game 0 of runs/play/games.jsonl");
    assert!(p.wait().success());
    let lflag = p.lflag();
    assert!(
        lflag & libc::ECHO != 0 && lflag & libc::ICANON != 0,
        "terminal not restored"
    );

    let text = std::fs::read_to_string(cwd.path().join("runs/play/games.jsonl")).unwrap();
    let game: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(game["first"], "human");
    assert_eq!(game["second"], "telemetry");
    assert_eq!(game["result"], "1-0");
    assert_eq!(game["termination"], "four");
    assert_eq!(game["course_code"], 1);
    assert_eq!(
        game["moves"],
        serde_json::json!([0, 0, 0, 0, 0, 0, 6, 1, 6, 1, 6, 1, 6])
    );
    assert_eq!(
        game["board"],
        serde_json::json!({"M": 6, "N": 7, "noX": 5, "noY": 1})
    );
    assert_eq!(game["move_ms"].as_array().unwrap().len(), 13);

    // Replay it: forwards and backwards by letters and arrows, a bad key, the end.
    let mut r = Pty::spawn(
        &["replay", "runs/play/games.jsonl", "--game", "0"],
        cwd.path(),
    );
    r.expect("game 0 (0-0-0): ● red human against ● yellow telemetry");
    r.expect("Start: 13 moves to go.");
    r.send("n");
    r.expect("Move 1/13: human played column 0");
    r.send("\x1b[C");
    r.expect("Move 2/13: telemetry played column 0");
    r.send("\x1b[D");
    r.expect("Move 1/13: human played column 0");
    r.send("p");
    r.expect("Start: 13 moves to go.");
    r.send("p");
    r.expect("That is the start.");
    r.send("x");
    r.expect("Keys: n or → next, p or ← back");
    r.send("\x1b[F");
    r.expect("Move 13/13: human played column 6");
    r.expect("Result 1-0 (four, telemetry loses).");
    r.send("q");
    assert!(r.wait().success());
}

#[test]
fn a_crashing_library_loses_and_the_terminal_survives() {
    let libs = tempfile::tempdir().unwrap();
    let lib = common::fixture(libs.path(), "segfault", &[]);
    let cwd = tempfile::tempdir().unwrap();
    let lib_arg = lib.display().to_string();
    let mut p = Pty::spawn(
        &["play", &lib_arg, "--seed", "3", "--save", "saved.jsonl"],
        cwd.path(),
    );
    p.expect("Your move");
    p.send("3");
    p.expect("segfault crashed (SIGSEGV)");
    p.expect("segfault loses by crash (SIGSEGV): you win.");
    p.expect("Saved as game 0 of saved.jsonl");
    assert!(p.wait().success());
    assert!(p.lflag() & libc::ECHO != 0, "terminal not restored");
    let text = std::fs::read_to_string(cwd.path().join("saved.jsonl")).unwrap();
    assert!(text.contains(r#""termination":"crash""#), "{text}");
}

#[test]
fn ai_first_and_quitting_on_a_terminal() {
    let libs = tempfile::tempdir().unwrap();
    let lib = common::fixture(libs.path(), "legal", &[]);
    let cwd = tempfile::tempdir().unwrap();
    let lib_arg = lib.display().to_string();
    let mut p = Pty::spawn(
        &[
            "play",
            &lib_arg,
            "--ai-first",
            "--size",
            "9x12",
            "--seed",
            "4",
        ],
        cwd.path(),
    );
    p.expect("against legal ● red");
    p.expect("legal played column 0");
    p.expect("Your move: press a column key 0-9, a-b (q quits).");
    p.send("b");
    // Keys typed while the library thinks are dropped: wait for the prompt again.
    p.expect("legal is thinking...");
    p.expect("legal played column 0");
    p.expect("Your move");
    p.send("q");
    p.expect("You quit after 3 moves; the game is not saved.");
    assert!(p.wait().success());
    assert!(!cwd.path().join("runs").exists());
}

#[test]
fn without_a_terminal_play_reads_lines() {
    let libs = tempfile::tempdir().unwrap();
    let lib = common::fixture(libs.path(), "legal", &[]);
    let cwd = tempfile::tempdir().unwrap();
    // A bad line, an empty line, column 10 (not on a 7-column board), then column 3
    // until the library (column 0, 1, ...) is beaten vertically.
    let out = common::judge_typing(
        cwd.path(),
        [
            "play",
            lib.to_str().unwrap(),
            "--size",
            "6x7",
            "--blocked",
            "0,0",
            "--save",
            "g.jsonl",
        ],
        b"zz\n\n10\n3\n3\n3\n3\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(!text.contains('\x1b'), "no escapes when stdout is a pipe");
    assert!(text.contains("\"zz\" is not a column: use 0-6"), "{text}");
    assert!(text.contains("Type a column (0-6)."), "{text}");
    assert!(text.contains("\"10\" is not a column"), "{text}");
    assert!(text.contains("You win: four in a row!"), "{text}");
    assert!(text.contains("Saved as game 0 of g.jsonl"), "{text}");
    // Scripted replay of the saved game through a pipe.
    let out = common::judge_typing(cwd.path(), ["replay", "g.jsonl"], b"n\nn\np\nG\nq\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    for want in [
        "Move 1/7: human played column 3",
        "Move 2/7: legal played column 0",
        "Move 7/7: human played column 3",
        "Result 1-0 (four, legal loses).",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
}
