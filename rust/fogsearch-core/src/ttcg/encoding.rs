//! Byte encodings of game states, for pickling: a four-byte tag, a version byte, then the game's
//! parameters and its action history. Decoding replays the history through the engine, so bytes
//! from another release or another game are refused with a message, never turned into a state
//! that breaks the rules.

use super::error::{invalid, TtcgError};
use super::game::Action;

pub const VERSION: u8 = 1;

pub(crate) struct Writer(Vec<u8>);

impl Writer {
    pub fn new(tag: &[u8; 4]) -> Self {
        let mut bytes = tag.to_vec();
        bytes.push(VERSION);
        Writer(bytes)
    }

    pub fn i64(mut self, x: i64) -> Self {
        self.0.extend_from_slice(&x.to_le_bytes());
        self
    }

    pub fn actions(mut self, actions: &[Action]) -> Vec<u8> {
        self.0
            .extend_from_slice(&(actions.len() as u64).to_le_bytes());
        for a in actions {
            self.0.extend_from_slice(&a.to_le_bytes());
        }
        self.0
    }
}

pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    what: &'static str,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8], tag: &[u8; 4], what: &'static str) -> Result<Self, TtcgError> {
        if bytes.len() < 5 || &bytes[..4] != tag {
            return invalid(format!("these bytes do not encode a {what}"));
        }
        if bytes[4] != VERSION {
            return invalid(format!(
                "these bytes encode a {what} of format version {}, this release reads version \
                 {VERSION}",
                bytes[4]
            ));
        }
        Ok(Reader {
            bytes: &bytes[5..],
            what,
        })
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], TtcgError> {
        if self.bytes.len() < n {
            return invalid(format!("the encoded {} is truncated", self.what));
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Ok(head)
    }

    pub fn i64(&mut self) -> Result<i64, TtcgError> {
        Ok(i64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }

    pub fn actions(&mut self) -> Result<Vec<Action>, TtcgError> {
        let n = u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes"));
        if n > (self.bytes.len() / 4) as u64 {
            return invalid(format!("the encoded {} is truncated", self.what));
        }
        let raw = self.take(4 * n as usize)?;
        let actions = raw
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        if !self.bytes.is_empty() {
            return invalid(format!("the encoded {} has trailing bytes", self.what));
        }
        Ok(actions)
    }
}
