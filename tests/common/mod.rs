//! Shared test helpers: the slow reference board (also the referee), building and loading
//! the cdylib the way the course judge does, and running this test binary as a child
//! process when a test needs its own environment or its own stderr.
//!
//! Every integration test binary compiles this module but uses only part of it.
#![allow(dead_code)]

pub mod cdylib;
pub mod referee;

use std::process::{Command, Output};

/// Set in the environment of a child started by [`run_child`]; child entry points do nothing
/// without it, so in a normal `cargo test` run they pass trivially.
pub const CHILD_ENV: &str = "GRAVITY4_TEST_CHILD";

/// True in a process started by [`run_child`].
pub fn is_child() -> bool {
    std::env::var_os(CHILD_ENV).is_some()
}

/// The library's settings variables: a test sets the ones it means and clears the rest.
pub fn library_env_vars() -> Vec<String> {
    std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .filter(|k| k.starts_with("GRAVITY4_") && !k.starts_with("GRAVITY4_TEST_"))
        .collect()
}

/// Runs the single test `name` of this test binary in a fresh process whose only library
/// settings are `envs` (every other `GRAVITY4_*` variable is removed, so defaults apply).
/// The library reads its environment at every call, and the test harness runs tests on
/// parallel threads, so a fresh process is the only race-free way to give one test its own
/// settings and its own stderr.
pub fn run_child(name: &str, envs: &[(&str, &str)]) -> Output {
    let exe = std::env::current_exe().expect("path of this test binary");
    let mut cmd = Command::new(exe);
    cmd.args([name, "--exact", "--nocapture", "--test-threads=1", "-q"])
        .env(CHILD_ENV, "1")
        .env(cdylib::LIB_PATH_ENV, cdylib::cdylib_path())
        // Panics in the child would otherwise add backtrace noise to the stderr we inspect.
        .env_remove("RUST_BACKTRACE");
    for key in library_env_vars() {
        cmd.env_remove(key);
    }
    for (key, value) in envs {
        cmd.env(key, value);
    }
    let out = cmd.output().expect("run this test binary as a child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "child test {name} failed ({}):\n--- stdout\n{stdout}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    // A name that matches no test passes with nothing run: that must not pass here.
    let passed = tests_passed(&stdout);
    assert!(
        passed.is_some_and(|n| n >= 1),
        "child test {name} ran no test (passed: {passed:?}): is the name right?\n{stdout}"
    );
    out
}

/// How many tests a test binary's summary line (`test result: ok. N passed; ...`) counts.
pub fn tests_passed(stdout: &str) -> Option<u32> {
    stdout
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("test result: ok. "))?
        .split_once(" passed")?
        .0
        .parse()
        .ok()
}

/// The lines a child printed with [`report`], without the prefix.
pub fn reports(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("REPORT "))
        .map(str::to_owned)
        .collect()
}

/// Prints one line for the parent to read back with [`reports`].
pub fn report(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "REPORT {line}").expect("stdout");
    out.flush().expect("stdout");
}

/// Lines of a child's stderr, without the test harness's own chatter.
pub fn stderr_lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A tiny deterministic generator (xorshift64*) for trivial movers and sampling: tests must
/// be reproducible from their seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A uniform index below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
