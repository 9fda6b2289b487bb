//! The compact little-endian byte format of sketches (used for pickling).
//!
//! Layout: a 4-byte magic naming the sketch type, a format version byte, then the fields as
//! little-endian `u64`/`i64` words. Decoders check every length, so truncated or foreign bytes give
//! [`SketchError::Corrupt`] rather than a panic.

use super::error::SketchError;

const FORMAT_VERSION: u8 = 1;

pub(crate) struct Encoder {
    bytes: Vec<u8>,
}

impl Encoder {
    pub(crate) fn new(magic: &[u8; 4], words: usize) -> Self {
        let mut bytes = Vec::with_capacity(5 + 8 * words);
        bytes.extend_from_slice(magic);
        bytes.push(FORMAT_VERSION);
        Encoder { bytes }
    }

    /// A sketch's byte form up to its payload: the magic, the version and the `header` words
    /// (its shape and seed), with room for `payload_words` more.
    pub(crate) fn with_header(magic: &[u8; 4], header: &[u64], payload_words: usize) -> Self {
        let mut encoder = Encoder::new(magic, header.len() + payload_words);
        encoder.u64s(header);
        encoder
    }

    pub(crate) fn u64(&mut self, value: u64) -> &mut Self {
        self.bytes.extend_from_slice(&value.to_le_bytes());
        self
    }

    pub(crate) fn u64s(&mut self, values: &[u64]) -> &mut Self {
        for &v in values {
            self.u64(v);
        }
        self
    }

    pub(crate) fn i64s(&mut self, values: &[i64]) -> &mut Self {
        for &v in values {
            self.u64(v as u64);
        }
        self
    }

    pub(crate) fn finish(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.bytes)
    }
}

pub(crate) struct Decoder<'a> {
    rest: &'a [u8],
}

impl<'a> Decoder<'a> {
    pub(crate) fn new(
        bytes: &'a [u8],
        magic: &[u8; 4],
        type_name: &str,
    ) -> Result<Self, SketchError> {
        if bytes.len() < 5 || &bytes[..4] != magic {
            return Err(corrupt(format!("not a serialised {type_name}")));
        }
        if bytes[4] != FORMAT_VERSION {
            return Err(corrupt(format!(
                "unsupported {type_name} format version {}",
                bytes[4]
            )));
        }
        Ok(Decoder { rest: &bytes[5..] })
    }

    pub(crate) fn u64(&mut self) -> Result<u64, SketchError> {
        if self.rest.len() < 8 {
            return Err(corrupt("truncated data".to_string()));
        }
        let (word, rest) = self.rest.split_at(8);
        self.rest = rest;
        Ok(u64::from_le_bytes(word.try_into().expect("8 bytes")))
    }

    /// A length field, bounded so that a corrupt header cannot make us allocate wildly.
    pub(crate) fn len(&mut self, max: u64) -> Result<usize, SketchError> {
        let value = self.u64()?;
        if value > max {
            return Err(corrupt(format!("length {value} out of range")));
        }
        Ok(value as usize)
    }

    pub(crate) fn u64s(&mut self, count: usize) -> Result<Vec<u64>, SketchError> {
        if self.rest.len() / 8 < count {
            return Err(corrupt("truncated data".to_string()));
        }
        (0..count).map(|_| self.u64()).collect()
    }

    pub(crate) fn i64s(&mut self, count: usize) -> Result<Vec<i64>, SketchError> {
        Ok(self.u64s(count)?.into_iter().map(|v| v as i64).collect())
    }

    /// How many whole words are left.
    pub(crate) fn words_left(&self) -> usize {
        self.rest.len() / 8
    }

    pub(crate) fn finish(self) -> Result<(), SketchError> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(corrupt(format!("{} trailing bytes", self.rest.len())))
        }
    }
}

pub(crate) fn corrupt(reason: String) -> SketchError {
    SketchError::Corrupt { reason }
}
