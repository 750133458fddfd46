//! The programs under test and where they are: the `gravity4-saiblo` binary built with
//! these tests, and `python3 main.py` in an unpacked package. The platform they talk to is
//! the judge's `saiblo:` player (`gravity4_judge::players::saiblo`), the one emulation of
//! Saiblo; this module only says how to start each program.

use std::path::{Path, PathBuf};
use std::process::Command;
use testkit::partner::python3;

/// How to start a program.
#[derive(Clone, Debug)]
pub struct Program {
    /// A name for messages.
    pub name: String,
    /// The executable.
    pub command: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Extra environment.
    pub env: Vec<(String, String)>,
    /// Whether its first frame is the `ok` handshake (the default of both programs; off
    /// with `--no-hello` or `SEND_HELLO = False`).
    pub hello: bool,
}

impl Program {
    /// The gravity4-saiblo binary built with these tests, at `budget_ms` per move.
    pub fn binary(budget_ms: u64) -> Program {
        Program {
            name: "gravity4-saiblo".into(),
            command: PathBuf::from(env!("CARGO_BIN_EXE_gravity4-saiblo")),
            args: Vec::new(),
            env: environment(budget_ms),
            hello: true,
        }
    }

    /// `python3 main.py` in an unpacked package directory, at `budget_ms` per move,
    /// expected to send the `ok` first as its `SEND_HELLO` says (a zip built with
    /// `scripts/saiblo-package.sh --no-hello` does not).
    pub fn python(package: &Path, budget_ms: u64) -> Program {
        Program {
            name: "main.py".into(),
            command: python3(),
            args: vec![package.join("main.py").display().to_string()],
            env: environment(budget_ms),
            hello: sends_hello(package),
        }
    }

    /// The command and its arguments, as a player's process runs them.
    pub fn argv(&self) -> Vec<String> {
        let mut argv = vec![self.command.display().to_string()];
        argv.extend(self.args.iter().cloned());
        argv
    }
}

/// The budget per move, and no per-move telemetry line (the tests count stderr lines),
/// whatever the environment the tests run in says.
fn environment(budget_ms: u64) -> Vec<(String, String)> {
    vec![
        ("GRAVITY4_MOVE_MS".into(), budget_ms.to_string()),
        ("GRAVITY4_LOG".into(), "0".into()),
    ]
}

/// Whether the `main.py` in `package` sends the `ok` first: its `SEND_HELLO` line.
pub fn sends_hello(package: &Path) -> bool {
    let text = std::fs::read_to_string(package.join("main.py")).expect("main.py is there");
    match (
        text.contains("\nSEND_HELLO = True\n"),
        text.contains("\nSEND_HELLO = False\n"),
    ) {
        (true, false) => true,
        (false, true) => false,
        _ => panic!("main.py sets SEND_HELLO to neither True nor False"),
    }
}

/// Where the package to test is: the zip in `GRAVITY4_SAIBLO_ZIP` unpacked into a scratch
/// directory, or else `package/main.py` beside the release cdylib (the file users ship),
/// which is built first when the target directory under test has none (the suite's own
/// profile, `ci`, does not make it).
pub fn package() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    if let Some(zip) = std::env::var_os("GRAVITY4_SAIBLO_ZIP") {
        let status = Command::new(python3())
            .args(["-m", "zipfile", "-e"])
            .arg(&zip)
            .arg(dir.path())
            .status()
            .expect("python3 runs");
        assert!(status.success(), "cannot unzip {zip:?}");
        return dir;
    }
    let main = Path::new(env!("CARGO_MANIFEST_DIR")).join("package/main.py");
    std::fs::copy(main, dir.path().join("main.py")).unwrap();
    std::fs::copy(release_library(), dir.path().join("libgravity4.so")).unwrap();
    dir
}

/// `<target>/release/libgravity4.so` of the target directory these tests were built in,
/// built once per test binary (the suite's own profile, `ci`, does not make it).
fn release_library() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| testkit::build::release_library(&testkit::build::target_dir()))
        .clone()
}
