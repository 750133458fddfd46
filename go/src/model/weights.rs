//! The model's file format, little-endian throughout:
//!
//! ```text
//! magic     8 bytes   "GOMOVES\0"
//! version   u32       1
//! groups    u32       8 (features::GROUPS)
//! values    u32 x 8   the number of values of each group
//! patterns  u32       the dictionary's size P (= values[0] - 1)
//! keys      u64 x P   the pattern keys, value 1 first
//! weights   f32 x Σ   ln γ of every value of every group, group by group
//! checksum  u64       FNV-1a (64 bits) of every byte before it
//! ```

use super::features::GROUPS;

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"GOMOVES\0";

/// The format's version.
const VERSION: u32 = 1;

/// The largest model file accepted (and the cap on the shipped one): 8 MiB.
pub const MAX_MODEL_BYTES: usize = 8 << 20;

/// Why a model file was refused.
#[derive(Clone, Debug, thiserror::Error, PartialEq)]
pub enum ModelError {
    /// The file could not be read.
    #[error("cannot read the model: {0}")]
    Io(String),
    /// Not a model file, or another version of the format.
    #[error("not a go-engine move model (version {VERSION}): {0}")]
    Format(String),
    /// The checksum does not match the contents.
    #[error("the move model is damaged: checksum {found:#018x}, expected {expected:#018x}")]
    Checksum {
        /// The checksum the file carries.
        expected: u64,
        /// The checksum of its contents.
        found: u64,
    },
    /// The contents do not make a model.
    #[error("the move model does not fit together: {0}")]
    Shape(String),
}

/// FNV-1a, 64 bits: a checksum against damage, not against malice.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The file of a dictionary and its weights.
pub fn encode(keys: &[u64], weights: &[Vec<f32>; GROUPS]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(GROUPS as u32).to_le_bytes());
    for w in weights {
        out.extend_from_slice(&(w.len() as u32).to_le_bytes());
    }
    out.extend_from_slice(&(keys.len() as u32).to_le_bytes());
    for k in keys {
        out.extend_from_slice(&k.to_le_bytes());
    }
    for w in weights.iter().flatten() {
        out.extend_from_slice(&w.to_le_bytes());
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// A cursor over the file's bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], ModelError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| ModelError::Format("the file ends early".into()))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }
    fn u32(&mut self) -> Result<u32, ModelError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    fn u64(&mut self) -> Result<u64, ModelError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
    fn f32(&mut self) -> Result<f32, ModelError> {
        Ok(f32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
}

/// The dictionary and weights of a file, its header and checksum verified.
pub fn decode(bytes: &[u8]) -> Result<(Vec<u64>, [Vec<f32>; GROUPS]), ModelError> {
    if bytes.len() > MAX_MODEL_BYTES {
        return Err(ModelError::Format(format!(
            "{} bytes, more than the {MAX_MODEL_BYTES} allowed",
            bytes.len()
        )));
    }
    if bytes.len() < MAGIC.len() + 8 || &bytes[..MAGIC.len()] != MAGIC {
        return Err(ModelError::Format("no GOMOVES header".into()));
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    let expected = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
    let found = fnv1a(body);
    if expected != found {
        return Err(ModelError::Checksum { expected, found });
    }
    let mut r = Reader {
        bytes: body,
        at: MAGIC.len(),
    };
    let version = r.u32()?;
    if version != VERSION {
        return Err(ModelError::Format(format!("version {version}")));
    }
    let groups = r.u32()?;
    if groups as usize != GROUPS {
        return Err(ModelError::Format(format!("{groups} feature groups")));
    }
    let mut counts = [0usize; GROUPS];
    for c in &mut counts {
        *c = r.u32()? as usize;
    }
    let patterns = r.u32()? as usize;
    // Every count is bounded by the bytes left, so a damaged count cannot allocate much.
    let left = body.len() - r.at;
    if patterns > left / 8 || counts.iter().sum::<usize>() > left / 4 {
        return Err(ModelError::Format("counts larger than the file".into()));
    }
    let keys = (0..patterns).map(|_| r.u64()).collect::<Result<_, _>>()?;
    let mut weights: [Vec<f32>; GROUPS] = Default::default();
    for (w, &n) in weights.iter_mut().zip(&counts) {
        *w = (0..n).map(|_| r.f32()).collect::<Result<_, _>>()?;
    }
    if r.at != body.len() {
        return Err(ModelError::Format(format!(
            "{} bytes after the weights",
            body.len() - r.at
        )));
    }
    Ok((keys, weights))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Vec<u64>, [Vec<f32>; GROUPS]) {
        let mut w: [Vec<f32>; GROUPS] = Default::default();
        for (g, v) in w.iter_mut().enumerate() {
            *v = (0..g + 2).map(|k| k as f32 * 0.5 - 1.0).collect();
        }
        (vec![7, 9], w)
    }

    #[test]
    fn a_file_round_trips_and_every_damage_is_refused() {
        let (keys, w) = sample();
        let bytes = encode(&keys, &w);
        assert_eq!(decode(&bytes).unwrap(), (keys, w));
        for at in [0, 9, 20, bytes.len() / 2, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            assert!(decode(&bad).is_err(), "a flipped bit at {at} passed");
        }
        assert!(decode(&bytes[..bytes.len() - 3]).is_err());
        assert!(decode(b"").is_err());
    }

    #[test]
    fn the_error_names_the_checksums() {
        let (keys, w) = sample();
        let mut bytes = encode(&keys, &w);
        let n = bytes.len();
        bytes[n - 20] ^= 1;
        let e = decode(&bytes).unwrap_err();
        assert!(matches!(e, ModelError::Checksum { .. }));
        assert!(e.to_string().contains("damaged"), "{e}");
    }
}
