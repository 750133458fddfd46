//! Capped capture of a library's stdout and stderr into the run directory.

use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::Mutex;

/// One player's log file, shared by all its hosts; writes stop at the cap.
pub struct LogSink {
    inner: Mutex<Inner>,
    cap: u64,
}

struct Inner {
    file: Option<File>,
    written: u64,
    truncated: bool,
    /// Complete lines seen so far (past the cap too) and the newest of them, so a view
    /// can show a library's latest telemetry line without re-reading the file.
    lines: u64,
    last_line: Vec<u8>,
    partial: Vec<u8>,
}

/// Longest line kept for [`LogSink::last_line`]; longer lines are cut.
const LAST_LINE_MAX: usize = 1024;

impl LogSink {
    /// Opens (appends to) `path`, keeping at most `cap` bytes of library output.
    pub fn open(path: &Path, cap: u64) -> std::io::Result<LogSink> {
        let file = File::options().create(true).append(true).open(path)?;
        let written = file.metadata()?.len();
        Ok(LogSink {
            inner: Mutex::new(Inner {
                file: Some(file),
                written,
                truncated: written >= cap,
                lines: 0,
                last_line: Vec::new(),
                partial: Vec::new(),
            }),
            cap,
        })
    }

    /// Copies `r` until end of file. Output past the cap is read and dropped, so a
    /// flooding library never blocks on a full pipe.
    pub fn drain(&self, mut r: impl Read) {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = match r.read(&mut buf) {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            };
            let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            let inner = &mut *g;
            for &b in &buf[..n] {
                if b == b'\n' {
                    inner.lines += 1;
                    std::mem::swap(&mut inner.last_line, &mut inner.partial);
                    inner.partial.clear();
                } else if inner.partial.len() < LAST_LINE_MAX {
                    inner.partial.push(b);
                }
            }
            let Some(file) = inner.file.as_mut() else {
                continue;
            };
            if inner.truncated {
                continue;
            }
            let room = self.cap.saturating_sub(inner.written) as usize;
            let take = n.min(room);
            let _ = file.write_all(&buf[..take]);
            inner.written += take as u64;
            if take < n {
                inner.truncated = true;
                let _ = writeln!(
                    file,
                    "\n[judge: output truncated here, the cap is {} bytes]",
                    self.cap
                );
            }
        }
    }
}

impl LogSink {
    /// How many complete lines were drained so far, and the newest one (lossy UTF-8).
    pub fn last_line(&self) -> (u64, String) {
        let g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        (g.lines, String::from_utf8_lossy(&g.last_line).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_is_capped_with_a_note_and_drained_to_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.log");
        let sink = LogSink::open(&path, 1000).unwrap();
        let flood = vec![b'x'; 300_000];
        sink.drain(flood.as_slice());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(&"x".repeat(1000)));
        assert!(text.contains("truncated"));
        assert!(text.len() < 1100);
        // Later hosts of the same player add nothing once the cap is reached.
        LogSink::open(&path, 1000).unwrap().drain(&b"more"[..]);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }

    #[test]
    fn newest_complete_line_is_kept_even_past_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let sink = LogSink::open(&dir.path().join("x.log"), 10).unwrap();
        assert_eq!(sink.last_line(), (0, String::new()));
        sink.drain(&b"gravity4: ms=1 winrate=0.5\nsecond line\nhalf"[..]);
        assert_eq!(sink.last_line(), (2, "second line".to_string()));
    }
}
