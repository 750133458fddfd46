//! Just enough of ELF to tell a student why a file will not load, before any process
//! loads it: the file's class, byte order, type and machine (from its header), and the
//! names of the functions it exports (its dynamic symbol table), so that `getPoint`
//! compiled without `extern "C"` (exported as `_Z8getPointiiPKiS0_iiii`) is found and
//! named. Every offset is bounds-checked: the file is outside input.

/// `e_type` of a shared object.
pub const ET_DYN: u16 = 3;
/// `sh_type` of the dynamic symbol table.
const SHT_DYNSYM: u32 = 11;

/// What the header and the dynamic symbol table say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Elf {
    /// 64-bit (ELFCLASS64) rather than 32-bit.
    pub is_64: bool,
    /// `e_type`: 3 for a shared object, 2 for an executable.
    pub kind: u16,
    /// `e_machine` (62 x86-64, 183 AArch64, 3 i386, ...).
    pub machine: u16,
    /// The symbols it defines and exports (global or weak, default or protected
    /// visibility); `None` when it has no section table to find them in.
    pub exports: Option<Vec<String>>,
}

/// A reader over the file in its byte order.
struct Bytes<'a> {
    data: &'a [u8],
    big_endian: bool,
}

impl Bytes<'_> {
    fn slice(&self, at: u64, len: usize) -> Result<&[u8], String> {
        usize::try_from(at)
            .ok()
            .and_then(|at| self.data.get(at..at.checked_add(len)?))
            .ok_or_else(|| format!("truncated: {len} bytes at offset {at} are past its end"))
    }

    fn u16(&self, at: u64) -> Result<u16, String> {
        let b: [u8; 2] = self.slice(at, 2)?.try_into().expect("2 bytes");
        Ok(if self.big_endian {
            u16::from_be_bytes(b)
        } else {
            u16::from_le_bytes(b)
        })
    }

    fn u32(&self, at: u64) -> Result<u32, String> {
        let b: [u8; 4] = self.slice(at, 4)?.try_into().expect("4 bytes");
        Ok(if self.big_endian {
            u32::from_be_bytes(b)
        } else {
            u32::from_le_bytes(b)
        })
    }

    fn u64(&self, at: u64) -> Result<u64, String> {
        let b: [u8; 8] = self.slice(at, 8)?.try_into().expect("8 bytes");
        Ok(if self.big_endian {
            u64::from_be_bytes(b)
        } else {
            u64::from_le_bytes(b)
        })
    }

    /// A word: 8 bytes in a 64-bit file, 4 in a 32-bit one.
    fn word(&self, at: u64, is_64: bool) -> Result<u64, String> {
        if is_64 {
            self.u64(at)
        } else {
            self.u32(at).map(u64::from)
        }
    }

    /// The NUL-terminated string at `at`.
    fn c_str(&self, at: u64) -> Result<String, String> {
        let start = usize::try_from(at)
            .ok()
            .filter(|&s| s <= self.data.len())
            .ok_or("a symbol name past the end of the file")?;
        let rest = &self.data[start..];
        let end = rest
            .iter()
            .position(|&b| b == 0)
            .ok_or("an unterminated symbol name")?;
        Ok(String::from_utf8_lossy(&rest[..end]).into_owned())
    }
}

/// Reads the header and the exported symbols of an ELF file. `Err` says, for people, why
/// the bytes are not an ELF file (or a damaged one).
pub fn read(data: &[u8]) -> Result<Elf, String> {
    if data.len() < 20 || &data[..4] != b"\x7fELF" {
        return Err("not an ELF file (no \\x7fELF magic at its start)".into());
    }
    let is_64 = match data[4] {
        1 => false,
        2 => true,
        c => return Err(format!("an ELF file of unknown class {c}")),
    };
    let f = Bytes {
        data,
        big_endian: data[5] == 2,
    };
    let kind = f.u16(16)?;
    let machine = f.u16(18)?;
    let exports = exports(&f, is_64)?;
    Ok(Elf {
        is_64,
        kind,
        machine,
        exports,
    })
}

/// The defined, visible global and weak symbols of `.dynsym`; `None` without a section
/// table (a stripped-of-sections file still loads; its symbols are then only known by
/// loading it).
fn exports(f: &Bytes, is_64: bool) -> Result<Option<Vec<String>>, String> {
    let (shoff, shentsize, shnum) = if is_64 {
        (f.u64(0x28)?, f.u16(0x3A)?, f.u16(0x3C)?)
    } else {
        (u64::from(f.u32(0x20)?), f.u16(0x2E)?, f.u16(0x30)?)
    };
    if shoff == 0 || shnum == 0 {
        return Ok(None);
    }
    let section = |i: u64| shoff.saturating_add(i.saturating_mul(u64::from(shentsize)));
    // sh_type, sh_offset, sh_size, sh_link, sh_entsize of a section header.
    let header = |at: u64| -> Result<(u32, u64, u64, u32, u64), String> {
        if is_64 {
            Ok((
                f.u32(at.saturating_add(4))?,
                f.u64(at.saturating_add(24))?,
                f.u64(at.saturating_add(32))?,
                f.u32(at.saturating_add(40))?,
                f.u64(at.saturating_add(56))?,
            ))
        } else {
            Ok((
                f.u32(at.saturating_add(4))?,
                f.word(at.saturating_add(16), false)?,
                f.word(at.saturating_add(20), false)?,
                f.u32(at.saturating_add(24))?,
                f.word(at.saturating_add(36), false)?,
            ))
        }
    };
    let mut names = Vec::new();
    for i in 0..u64::from(shnum) {
        let (kind, offset, size, link, entsize) = header(section(i))?;
        if kind != SHT_DYNSYM {
            continue;
        }
        let (_, strings, strings_size, _, _) = header(section(u64::from(link)))?;
        let entsize = if entsize == 0 {
            if is_64 { 24 } else { 16 }
        } else {
            entsize
        };
        for k in 0..size / entsize {
            let at = offset.saturating_add(k.saturating_mul(entsize));
            let name = u64::from(f.u32(at)?);
            // st_info, st_other, st_shndx.
            let (info, other, shndx) = if is_64 {
                (
                    f.slice(at.saturating_add(4), 1)?[0],
                    f.slice(at.saturating_add(5), 1)?[0],
                    f.u16(at.saturating_add(6))?,
                )
            } else {
                (
                    f.slice(at.saturating_add(12), 1)?[0],
                    f.slice(at.saturating_add(13), 1)?[0],
                    f.u16(at.saturating_add(14))?,
                )
            };
            let (bind, visibility) = (info >> 4, other & 3);
            let exported = matches!(bind, 1 | 2) && matches!(visibility, 0 | 3) && shndx != 0;
            if exported && name != 0 && name < strings_size {
                names.push(f.c_str(strings.saturating_add(name))?);
            }
        }
    }
    Ok(Some(names))
}

/// This machine's `e_machine` and class, for the architectures Rust builds the judge
/// for; `None` elsewhere (the check then leaves the machine to the loader).
pub fn host() -> Option<(u16, bool)> {
    let machine = match std::env::consts::ARCH {
        "x86_64" => 62,
        "aarch64" => 183,
        "x86" => 3,
        "arm" => 40,
        "riscv64" => 243,
        "powerpc64" => 21,
        "s390x" => 22,
        "loongarch64" => 258,
        _ => return None,
    };
    Some((machine, cfg!(target_pointer_width = "64")))
}

/// A name for `e_machine`, for messages.
pub fn machine_name(machine: u16) -> String {
    match machine {
        62 => "x86-64".into(),
        183 => "AArch64 (ARM 64-bit)".into(),
        3 => "i386 (x86 32-bit)".into(),
        40 => "ARM 32-bit".into(),
        243 => "RISC-V".into(),
        21 => "PowerPC 64".into(),
        22 => "s390x".into(),
        258 => "LoongArch".into(),
        m => format!("machine {m}"),
    }
}

/// The C++-mangled names among `exports` that are the course's functions without
/// `extern "C"`: `_Z8getPoint...` and `_Z10clearPoint...` (also inside a namespace,
/// `_ZN...8getPointE...`).
pub fn mangled_course_functions(exports: &[String]) -> Vec<&str> {
    exports
        .iter()
        .filter(|s| s.starts_with("_Z") && (s.contains("8getPoint") || s.contains("10clearPoint")))
        .map(String::as_str)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_test_binary_and_libc_read_as_elf() {
        let own = std::fs::read("/proc/self/exe").unwrap();
        let elf = read(&own).unwrap();
        assert_eq!(host(), Some((elf.machine, elf.is_64)));
        let libc = [
            "/lib/x86_64-linux-gnu/libc.so.6",
            "/lib64/libc.so.6",
            "/lib/aarch64-linux-gnu/libc.so.6",
        ]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists());
        if let Some(path) = libc {
            let elf = read(&std::fs::read(path).unwrap()).unwrap();
            assert_eq!(elf.kind, ET_DYN);
            let exports = elf.exports.unwrap();
            assert!(exports.iter().any(|s| s == "malloc"), "{exports:?}");
            // An undefined import is not an export.
            assert!(!exports.iter().any(|s| s == "_dl_catch_exception@plt"));
        }
    }

    #[test]
    fn damaged_files_are_errors_not_panics() {
        assert!(read(b"").unwrap_err().contains("not an ELF"));
        assert!(
            read(b"#!/bin/sh\necho hello world\n")
                .unwrap_err()
                .contains("not an ELF")
        );
        let own = std::fs::read("/proc/self/exe").unwrap();
        // Every cut of the header and beyond fails cleanly or reads.
        for len in (0..4096).step_by(7) {
            let _ = read(&own[..len.min(own.len())]);
        }
        // Garbage after a valid header: section offsets point anywhere.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            let mut bytes = own[..64].to_vec();
            for _ in 0..64 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                bytes.push(state as u8);
            }
            let at = 16 + (state % 48) as usize;
            bytes[at] = (state >> 8) as u8;
            let _ = read(&bytes);
        }
    }

    #[test]
    fn mangled_names_are_found() {
        let names: Vec<String> = [
            "_Z8getPointiiPKiS0_iiii",
            "_Z10clearPointP5Point",
            "_ZN5Point1xE",
            "getPoint",
        ]
        .into_iter()
        .map(String::from)
        .collect();
        assert_eq!(
            mangled_course_functions(&names),
            ["_Z8getPointiiPKiS0_iiii", "_Z10clearPointP5Point"]
        );
    }
}
