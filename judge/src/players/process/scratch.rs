//! Scratch directories: one per player process, its working directory, deleted with it.
//! A judge killed with SIGKILL cannot delete its own, so every judge sweeps the ones whose
//! judge is gone before it starts players, killing first whatever still runs in them (a
//! process a program forked is out of reach of the parent-death signal that ends the
//! program itself).

use std::path::Path;

/// Scratch directories are `$TMPDIR/judge-scratch-<judge pid>-<its start time>-XXXXXX`.
pub(super) const SCRATCH_PREFIX: &str = "judge-scratch-";

/// How many times the processes in a stale directory are looked for and killed (each
/// round kills what the last one missed: a process that forked while it was killed).
const KILL_ROUNDS: usize = 20;

/// A fresh scratch directory for one player process, named so that
/// [`sweep_stale_scratch`] can tell whose it is.
pub fn scratch_dir() -> Result<tempfile::TempDir, String> {
    tempfile::Builder::new()
        .prefix(&own_prefix())
        .tempdir()
        .map_err(|e| format!("cannot create scratch directory: {e}"))
}

/// This judge's prefix: its pid and start time, so that a later process given the same
/// pid (Linux reuses them; `pid_max` is often 32768) is not mistaken for it.
fn own_prefix() -> String {
    let pid = std::process::id();
    let start = start_time(pid).unwrap_or(0);
    format!("{SCRATCH_PREFIX}{pid}-{start}-")
}

/// Deletes the scratch directories in `$TMPDIR` whose judge is no longer running (killed
/// before it could delete them), after killing every process still working in one.
/// Directories of running judges are left alone.
pub fn sweep_stale_scratch() {
    sweep_stale_scratch_in(&std::env::temp_dir());
}

/// [`sweep_stale_scratch`] in `dir`.
fn sweep_stale_scratch_in(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((pid, start)) = owner(&name) else {
            continue;
        };
        if judge_alive(pid, start) || !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let path = entry.path();
        kill_processes_in(&path);
        let _ = std::fs::remove_dir_all(&path);
    }
}

/// The judge that made a scratch directory, from its name: its pid, and its start time
/// when the name has one (directories of older judges name only the pid).
fn owner(name: &str) -> Option<(u32, Option<u64>)> {
    let mut parts = name.strip_prefix(SCRATCH_PREFIX)?.split('-');
    let pid = parts.next()?.parse().ok()?;
    let rest: Vec<&str> = parts.collect();
    // `<start>-XXXXXX` now; `XXXXXX` alone before start times were written.
    let start = match rest.as_slice() {
        [start, _random] => start.parse().ok().filter(|&s| s != 0),
        _ => None,
    };
    Some((pid, start))
}

/// Whether the judge `pid` (started at `start`, when known) is still running. A killed
/// judge can linger a moment as a zombie ("Z" after the command name): that is not running.
fn judge_alive(pid: u32, start: Option<u64>) -> bool {
    let Some(stat) = stat_fields(pid) else {
        return false;
    };
    if stat.first().is_some_and(|state| state == "Z") {
        return false;
    }
    match start {
        Some(start) => stat_start_time(&stat) == Some(start),
        None => true,
    }
}

/// The fields of `/proc/PID/stat` after the command name (which may hold spaces and
/// parentheses): the state first.
fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = stat.rsplit_once(')')?.1;
    Some(after_name.split_whitespace().map(str::to_owned).collect())
}

/// Field 22 of `/proc/PID/stat`, the start time in clock ticks after boot: with the pid,
/// it names one process for the life of the machine.
fn stat_start_time(fields: &[String]) -> Option<u64> {
    // Field 3 (the state) is the first after the name, so field 22 is the 20th.
    fields.get(22 - 3)?.parse().ok()
}

/// The start time of process `pid`, if it exists.
fn start_time(pid: u32) -> Option<u64> {
    stat_start_time(&stat_fields(pid)?)
}

/// Kills (SIGKILL) every process whose working directory is `dir` or below it, until none
/// is left or [`KILL_ROUNDS`] scans have found some.
fn kill_processes_in(dir: &Path) {
    let own = std::process::id();
    for _ in 0..KILL_ROUNDS {
        let found: Vec<u32> = processes_in(dir)
            .into_iter()
            .filter(|&pid| pid != own)
            .collect();
        if found.is_empty() {
            return;
        }
        for pid in found {
            // SAFETY: kill has no memory effects; `pid` is a single process (positive)
            // found working in a dead judge's scratch directory, never this judge.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// The processes (that this user may see) whose working directory is `dir` or below it.
fn processes_in(dir: &Path) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|cwd| cwd.starts_with(dir))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;
    use std::time::{Duration, Instant};

    /// The pid of a process that has ended and been reaped.
    fn dead_pid() -> u32 {
        let mut child = Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    #[test]
    fn names_carry_the_judge_and_its_start_time() {
        let tmp = tempfile::tempdir().unwrap();
        let made = tempfile::Builder::new()
            .prefix(&own_prefix())
            .tempdir_in(tmp.path())
            .unwrap();
        let name = made
            .path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let (pid, start) = owner(&name).unwrap();
        assert_eq!(pid, std::process::id());
        assert_eq!(start, start_time(pid));
        assert!(start.is_some_and(|s| s > 0), "{name}");
        assert!(judge_alive(pid, start));
        // An older judge's name: the pid only.
        assert_eq!(owner("judge-scratch-42-AbC1x9"), Some((42, None)));
        assert_eq!(owner("judge-scratch-x-1-AbC1x9"), None);
        assert_eq!(owner("other-42-1-AbC1x9"), None);
    }

    #[test]
    fn sweeps_only_directories_of_judges_that_are_gone() {
        let tmp = tempfile::tempdir().unwrap();
        let own = std::process::id();
        let start = start_time(own).unwrap();
        let dead = dead_pid();
        let mk = |name: &str| {
            let path = tmp.path().join(name);
            std::fs::create_dir(&path).unwrap();
            std::fs::write(path.join("left.txt"), "x").unwrap();
            path
        };
        let running = mk(&format!("{SCRATCH_PREFIX}{own}-{start}-aaaaaa"));
        let running_old_name = mk(&format!("{SCRATCH_PREFIX}{own}-bbbbbb"));
        let killed = mk(&format!("{SCRATCH_PREFIX}{dead}-{start}-cccccc"));
        let killed_old_name = mk(&format!("{SCRATCH_PREFIX}{dead}-dddddd"));
        // The pid is running, but it is another process than the judge that made this:
        // the judge was killed and its pid given to a later process.
        let reused = mk(&format!("{SCRATCH_PREFIX}{own}-{}-eeeeee", start + 1));
        let unrelated = mk(&format!("other-{dead}-{start}-ffffff"));
        let file = tmp
            .path()
            .join(format!("{SCRATCH_PREFIX}{dead}-{start}-gggggg"));
        std::fs::write(&file, "not a directory").unwrap();

        sweep_stale_scratch_in(tmp.path());

        for kept in [&running, &running_old_name, &unrelated, &file] {
            assert!(kept.exists(), "{} was swept", kept.display());
        }
        for gone in [&killed, &killed_old_name, &reused] {
            assert!(!gone.exists(), "{} was left", gone.display());
        }
    }

    #[test]
    fn processes_left_in_a_stale_directory_are_killed_first() {
        let tmp = tempfile::tempdir().unwrap();
        let stale = tmp
            .path()
            .join(format!("{SCRATCH_PREFIX}{}-1-hhhhhh", dead_pid()));
        std::fs::create_dir_all(stale.join("sub")).unwrap();
        // A forked grandchild of a killed judge's program, one level down, and a process
        // outside any scratch directory that must live on.
        let mut inside = Command::new("sleep")
            .arg("60")
            .current_dir(stale.join("sub"))
            .spawn()
            .unwrap();
        let mut outside = Command::new("sleep")
            .arg("60")
            .current_dir(tmp.path())
            .spawn()
            .unwrap();
        let t0 = Instant::now();
        while processes_in(&stale).is_empty() && t0.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(5));
        }

        sweep_stale_scratch_in(tmp.path());

        assert!(!stale.exists());
        let status = inside.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(libc::SIGKILL));
        assert_eq!(
            outside.try_wait().unwrap(),
            None,
            "a process outside was killed"
        );
        outside.kill().unwrap();
        outside.wait().unwrap();
    }
}
