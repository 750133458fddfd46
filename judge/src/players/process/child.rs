//! The child side: a process that loads one library and answers `getPoint` calls.
//!
//! Started by the judge as `judge host ...`. Order matters: take the protocol pipes
//! before the library can write anything, set the limits before it is loaded, and
//! change into the scratch directory before its constructors run.

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::os::fd::FromRawFd;
use std::path::Path;

use super::protocol::{self, ChildMessage, MoveRequest, Written};

/// The course's `Point`: two 32-bit ints.
#[repr(C)]
struct CPoint {
    x: i32,
    y: i32,
}

type GetPointFn =
    unsafe extern "C" fn(i32, i32, *const i32, *const i32, i32, i32, i32, i32) -> *mut CPoint;
type ClearPointFn = unsafe extern "C" fn(*mut CPoint);

/// Stack size of each `getPoint` thread: glibc's default pthread stack, as the course's
/// runner creates its threads with default attributes (Rust's default is only 2 MiB).
const MOVE_THREAD_STACK: usize = 8 << 20;

/// Settings the parent passes on the command line.
pub struct HostSettings<'a> {
    /// The library to load (absolute).
    pub library: &'a Path,
    /// Scratch working directory, created and later deleted by the parent.
    pub scratch: &'a Path,
    /// Address-space limit in MiB (0: none).
    pub memory_limit_mb: u64,
    /// The parent's pid: exit at once if it is already gone.
    pub parent_pid: u32,
    /// A descriptor the parent opened for the library's stdout (a pipe of its own, for
    /// `judge check`); `None`: stdout joins stderr in the log.
    pub stdout_fd: Option<i32>,
}

/// Runs the host until the parent closes the request pipe. Never returns.
pub fn run(settings: &HostSettings) -> ! {
    // SAFETY: prctl with PR_SET_PDEATHSIG takes a signal number and has no memory effects.
    unsafe {
        libc::prctl(
            libc::PR_SET_PDEATHSIG,
            libc::SIGKILL as libc::c_ulong,
            0,
            0,
            0,
        );
    }
    // The parent may have died before prctl took effect.
    // SAFETY: getppid has no preconditions.
    if unsafe { libc::getppid() } as u32 != settings.parent_pid {
        std::process::exit(0);
    }
    let (proto_in, proto_out) = take_protocol_pipes(settings.stdout_fd);
    let mut requests = BufReader::new(proto_in);
    let mut replies = BufWriter::new(proto_out);
    set_limits(settings.memory_limit_mb);
    if let Err(e) = std::env::set_current_dir(settings.scratch) {
        send_load_error(
            &mut replies,
            &format!("cannot enter scratch directory: {e}"),
        );
    }
    preload_runtime();
    let (get_point, clear_point) = match load(settings.library) {
        Ok(f) => f,
        Err(text) => send_load_error(&mut replies, &text),
    };
    send(&mut replies, &ChildMessage::Ready);
    loop {
        let req = match protocol::read_request(&mut requests) {
            Ok(Some(r)) => r,
            // Parent closed the pipe (game over) or sent garbage: nothing more to do.
            Ok(None) | Err(_) => std::process::exit(0),
        };
        let (msg, written) = call_on_new_thread(get_point, clear_point, req);
        if let Some(w) = written {
            send(&mut replies, &ChildMessage::Wrote(w));
        }
        send(&mut replies, &msg);
    }
}

fn send(w: &mut impl std::io::Write, msg: &ChildMessage) {
    if protocol::write_message(w, msg).is_err() {
        std::process::exit(0);
    }
}

fn send_load_error(w: &mut impl std::io::Write, text: &str) -> ! {
    send(w, &ChildMessage::LoadError(text.to_owned()));
    std::process::exit(0);
}

/// Moves the protocol pipes (inherited as stdin/stdout) to private descriptors, then
/// points fd 0 at /dev/null and fd 1 at `stdout_fd` when the parent gave one, else at
/// fd 2 (the parent's capped log pipe), so nothing the library prints can reach the
/// protocol.
fn take_protocol_pipes(stdout_fd: Option<i32>) -> (File, File) {
    // SAFETY: fcntl(F_DUPFD_CLOEXEC) on fds 0 and 1, which the parent always provides;
    // the returned descriptors are new and owned by nobody else, so File may own them.
    // open/dup2/close only touch fds 0 and 1 and the parent's `stdout_fd`, which no Rust
    // object owns in this process.
    unsafe {
        let fd_in = libc::fcntl(0, libc::F_DUPFD_CLOEXEC, 3);
        let fd_out = libc::fcntl(1, libc::F_DUPFD_CLOEXEC, 3);
        if fd_in < 0 || fd_out < 0 {
            std::process::exit(101);
        }
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY);
        if null >= 0 {
            libc::dup2(null, 0);
            libc::close(null);
        }
        match stdout_fd {
            Some(fd) if fd > 2 && libc::dup2(fd, 1) == 1 => {
                libc::close(fd);
            }
            _ => {
                libc::dup2(2, 1);
            }
        }
        (File::from_raw_fd(fd_in), File::from_raw_fd(fd_out))
    }
}

/// The limits every player process runs under, library host or program: no core files,
/// and `memory_limit_mb` MiB of address space (0: none). Only `setrlimit` calls on stack
/// data, so a program's `pre_exec` may call it between fork and exec.
pub(super) fn set_limits(memory_limit_mb: u64) {
    let set = |resource, value: u64| {
        let lim = libc::rlimit {
            rlim_cur: value,
            rlim_max: value,
        };
        // SAFETY: setrlimit reads the rlimit struct we pass by pointer; it outlives the call.
        unsafe { libc::setrlimit(resource, &lim) };
    };
    // No core files: they would be slow to write and land in the scratch directory.
    set(libc::RLIMIT_CORE, 0);
    if memory_limit_mb > 0 {
        set(libc::RLIMIT_AS, memory_limit_mb << 20);
    }
}

/// Old course libraries use libstdc++/libm without declaring them: make their symbols
/// globally visible first. Missing runtimes are ignored (a C library does not need them).
fn preload_runtime() {
    for name in ["libstdc++.so.6", "libm.so.6"] {
        let flags = libc::RTLD_NOW | libc::RTLD_GLOBAL;
        // SAFETY: loading the system C++ runtime and libm runs their constructors, which
        // are trusted system code; the handles are leaked on purpose (never unloaded).
        if let Ok(lib) = unsafe { libloading::os::unix::Library::open(Some(name), flags) } {
            std::mem::forget(lib);
        }
    }
}

fn load(path: &Path) -> Result<(GetPointFn, ClearPointFn), String> {
    let flags = libc::RTLD_NOW | libc::RTLD_LOCAL;
    // SAFETY: running the library's constructors is exactly what this process exists for;
    // whatever they do stays inside this process.
    let lib = unsafe { libloading::os::unix::Library::open(Some(path), flags) }
        .map_err(|e| e.to_string())?;
    // SAFETY: the symbol types are the course ABI's; a library that exports them with
    // another signature breaks the contract and can only hurt this process.
    let get_point = unsafe { lib.get::<GetPointFn>(b"getPoint\0") }
        .map(|s| *s)
        .map_err(|e| format!("missing symbol getPoint: {e}"))?;
    // SAFETY: as above.
    let clear_point = unsafe { lib.get::<ClearPointFn>(b"clearPoint\0") }
        .map(|s| *s)
        .map_err(|e| format!("missing symbol clearPoint: {e}"))?;
    // The course never closes a library; the function pointers must stay valid.
    std::mem::forget(lib);
    Ok((get_point, clear_point))
}

/// CPU time of the calling thread in nanoseconds.
fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec into the struct we own.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Calls `getPoint` on a fresh thread, as the course's runner does, so thread-locals do
/// not persist between moves. The library gets writable arrays, as the runner's live
/// ones are; what it wrote into them comes back beside its answer.
fn call_on_new_thread(
    get_point: GetPointFn,
    clear_point: ClearPointFn,
    req: MoveRequest,
) -> (ChildMessage, Option<Written>) {
    let handle = std::thread::Builder::new()
        .stack_size(MOVE_THREAD_STACK)
        .spawn(move || {
            let (mut top, mut board) = (req.top.clone(), req.board.clone());
            let start = thread_cpu_ns();
            // SAFETY: the arrays are owned by this closure and outlive the call; their
            // lengths are N and M*N as the ABI promises (checked by read_request). They
            // are passed as mutable memory, so a library that writes into them (the ABI
            // forbids it) changes only these copies, compared below.
            let p = unsafe {
                get_point(
                    req.m,
                    req.n,
                    top.as_mut_ptr(),
                    board.as_mut_ptr(),
                    req.last_x,
                    req.last_y,
                    req.no_x,
                    req.no_y,
                )
            };
            let cpu_ns = thread_cpu_ns().saturating_sub(start);
            let written = Written::compare(&req, &top, &board);
            // SAFETY: fflush(NULL) flushes every C output stream; it takes no pointer of
            // ours. What the library printed through stdio reaches its descriptor now, not
            // when a buffer fills, so each move's output is seen with that move.
            unsafe { libc::fflush(std::ptr::null_mut()) };
            if p.is_null() {
                return (ChildMessage::Null { cpu_ns }, written);
            }
            // SAFETY: a non-null return must point at a Point by the ABI; if the library
            // lies, the fault kills only this host and the parent reports a crash.
            let (x, y) = unsafe { ((*p).x, (*p).y) };
            // SAFETY: the ABI says every returned Point is freed through clearPoint.
            unsafe { clear_point(p) };
            (ChildMessage::Point { x, y, cpu_ns }, written)
        });
    match handle.map(|h| h.join()) {
        Ok(Ok(msg)) => msg,
        // Thread creation failed (e.g. out of address space): die like a crash would.
        _ => std::process::abort(),
    }
}
