//! Signals: killing (or pausing) a host's process group and naming how it died.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

/// Sends SIGKILL to the process group led by `pid` (hosts lead their own group).
pub fn kill_group(pid: u32) {
    // SAFETY: kill has no memory effects; a negative pid addresses the group that the
    // host leads (it was spawned with process_group(0)), never the judge's own group.
    unsafe {
        libc::kill(-(pid as libc::pid_t), libc::SIGKILL);
    }
}

/// Stops (`pause`) or continues the process group led by `pid`: a program kept running
/// between turns is paused while it is not its turn, as Botzone pauses them.
pub fn pause_group(pid: u32, pause: bool) {
    let sig = if pause { libc::SIGSTOP } else { libc::SIGCONT };
    // SAFETY: kill has no memory effects; a negative pid addresses the group that the
    // program leads (it was spawned with process_group(0)), never the judge's own group.
    unsafe {
        libc::kill(-(pid as libc::pid_t), sig);
    }
}

/// Gives SIGPIPE its default action back, for a command that starts no player: its output
/// piped into a reader that stops early (`judge status DIR | head`) then ends it quietly,
/// as it ends `cat`, instead of a panic in `println!`. Never for a tournament: a write to
/// a player that died must come back as an error, not kill the judge.
pub fn die_on_closed_stdout() {
    // SAFETY: signal() only sets this process's disposition of SIGPIPE to SIG_DFL; no
    // handler runs Rust code, and no memory is shared with it.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The conventional name of a signal number.
pub fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGHUP => "SIGHUP",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGALRM => "SIGALRM",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGUSR2 => "SIGUSR2",
        _ => return format!("signal {sig}"),
    };
    name.to_string()
}

/// "SIGSEGV" for a signal death, "exit status 3" for an exit.
pub fn describe(status: ExitStatus) -> String {
    match (status.signal(), status.code()) {
        (Some(sig), _) => signal_name(sig),
        (None, Some(code)) => format!("exit status {code}"),
        _ => format!("{status}"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn names() {
        assert_eq!(super::signal_name(libc::SIGSEGV), "SIGSEGV");
        assert_eq!(super::signal_name(libc::SIGABRT), "SIGABRT");
        assert_eq!(super::signal_name(200), "signal 200");
    }
}
