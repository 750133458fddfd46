//! Partner programs: the programs outside the workspace that some tests run (GNU Go, GNU
//! parallel, python3, Chromium), where they are looked up, and what a test does when one is
//! missing.
//!
//! The policy: on a developer's machine a test whose partner is missing says so and passes
//! untested; under CI (`CI=true`), where `scripts/test.sh` installs every partner program, a
//! missing one fails the test instead.

use std::path::{Path, PathBuf};

/// Debian's GNU Go 3.8 (`apt-get install gnugo`).
pub const GNUGO: &str = "/usr/games/gnugo";

/// What to say when [`GNUGO`] is missing: the program and how to get it.
pub const GNUGO_HINT: &str = "GNU Go (/usr/games/gnugo; apt-get install -y gnugo)";

/// The first file named `name` in a directory of `PATH`.
pub fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// Whether the tests run under CI (`CI=true`).
pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Whether a test should skip because its partner program is missing (`present` false):
/// on a developer's machine it prints why and returns true; under CI it panics, so that a
/// missing program fails the suite instead of passing it untested. `what` names the program
/// and how to get it.
#[track_caller]
pub fn skip_without(present: bool, what: &str) -> bool {
    match missing_partner(present, ci(), what) {
        Ok(None) => false,
        Ok(Some(why)) => {
            println!("{why}");
            true
        }
        Err(why) => panic!("{why}"),
    }
}

/// [`skip_without`]'s decision with the CI flag given (tests cannot safely change the
/// environment): `Ok(None)` run, `Ok(Some(line))` skip saying so, `Err(message)` fail.
pub fn missing_partner(present: bool, ci: bool, what: &str) -> Result<Option<String>, String> {
    match (present, ci) {
        (true, _) => Ok(None),
        (false, false) => Ok(Some(format!(
            "skipped: missing partner program: {what} (with CI=true this fails)"
        ))),
        (false, true) => Err(format!(
            "missing partner program: {what}; under CI (CI=true) that is a failure, not a skip"
        )),
    }
}

/// [`skip_without`] for GNU Go at [`GNUGO`].
#[track_caller]
pub fn gnugo_missing() -> bool {
    skip_without(Path::new(GNUGO).is_file(), GNUGO_HINT)
}

/// The Python interpreter, `python3` on `PATH`. Tests that need it need it everywhere (the
/// Saiblo upload and the judge's fixture programs run on it), so a machine without it fails
/// them, under CI or not: they are never skipped.
pub fn python3() -> PathBuf {
    on_path("python3").expect("these tests need python3 on PATH")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_partner_program_skips_only_outside_ci() {
        assert_eq!(missing_partner(true, true, "x"), Ok(None));
        assert_eq!(missing_partner(true, false, "x"), Ok(None));
        let skip = missing_partner(false, false, "GNU parallel").unwrap();
        assert!(
            skip.is_some_and(|l| l.starts_with("skipped: missing partner program: GNU parallel"))
        );
        let fail = missing_partner(false, true, "GNU parallel").unwrap_err();
        assert!(
            fail.contains("missing partner program: GNU parallel"),
            "{fail}"
        );
        assert!(fail.contains("CI=true"), "{fail}");
    }

    #[test]
    fn programs_are_found_on_the_path() {
        // `sh` is on every Unix PATH; a name nobody uses is not.
        assert!(on_path("sh").is_some_and(|p| p.ends_with("sh")));
        assert_eq!(on_path("no-such-program-testkit"), None);
    }
}
