//! Zobrist keys over the position (placement, side to move, castling rights, e.p. square).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::board::Board;
use super::types::{square_file, Color, PieceType};

const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn key_table<const N: usize>(salt: u64) -> [u64; N] {
    let mut table = [0u64; N];
    let mut i = 0;
    while i < N {
        table[i] = mix(salt.wrapping_mul(0x100_0000_01B3) ^ i as u64);
        i += 1;
    }
    table
}

static PIECE_KEYS: [u64; 768] = key_table::<768>(0x5A0B_0001);
static CASTLING_KEYS: [u64; 64] = key_table::<64>(0x5A0B_0002);
static EP_FILE_KEYS: [u64; 8] = key_table::<8>(0x5A0B_0003);
const BLACK_TO_MOVE: u64 = 0xF1E2_D3C4_B5A6_9788;

impl Board {
    /// The position's Zobrist key; equal positions (see [`Board::same_position`]) have equal keys.
    pub fn zobrist(&self) -> u64 {
        let mut key = 0u64;
        for color in [Color::White, Color::Black] {
            for piece_type in PieceType::ALL {
                let base = (color.index() * 6 + piece_type.index()) * 64;
                for sq in self.pieces_of(piece_type, color) {
                    key ^= PIECE_KEYS[base + sq as usize];
                }
            }
        }
        for sq in self.castling {
            key ^= CASTLING_KEYS[sq as usize];
        }
        if let Some(ep) = self.ep_square {
            key ^= EP_FILE_KEYS[square_file(ep) as usize];
        }
        if self.turn == Color::Black {
            key ^= BLACK_TO_MOVE;
        }
        key
    }

    /// The key of `child` from its parent's key: only the squares, castling rights and e.p. file
    /// that differ are folded in, so a child made by one move costs a handful of lookups.
    pub fn zobrist_from(&self, parent: &Board, parent_key: u64) -> u64 {
        let mut key = parent_key;
        for color in [Color::White, Color::Black] {
            for piece_type in PieceType::ALL {
                let base = (color.index() * 6 + piece_type.index()) * 64;
                let changed =
                    self.pieces_of(piece_type, color) ^ parent.pieces_of(piece_type, color);
                for sq in changed {
                    key ^= PIECE_KEYS[base + sq as usize];
                }
            }
        }
        for sq in self.castling ^ parent.castling {
            key ^= CASTLING_KEYS[sq as usize];
        }
        for ep in [self.ep_square, parent.ep_square].into_iter().flatten() {
            key ^= EP_FILE_KEYS[square_file(ep) as usize];
        }
        if self.turn != parent.turn {
            key ^= BLACK_TO_MOVE;
        }
        key
    }
}

/// A hash map keyed by Zobrist keys, which are already uniformly mixed: hashing them again (as
/// SipHash would) only costs time.
pub type ZobristMap<V> = HashMap<u64, V, BuildHasherDefault<ZobristHasher>>;

/// The hasher of [`ZobristMap`]: a `u64` key is its own hash.
#[derive(Default)]
pub struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    /// The one write a `u64` key makes: the key is already uniformly mixed.
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }

    /// Only reached by keys other than a `u64`, which the map never has.
    fn write(&mut self, bytes: &[u8]) {
        self.0 = bytes
            .iter()
            .fold(self.0, |h, &b| h.rotate_left(8) ^ b as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use crate::chess::test_walk::for_each_move_pair;

    /// Along every move of a few plies from positions with castling and e.p. options, the key
    /// derived from the parent equals the key computed from scratch.
    #[test]
    fn derived_keys_equal_fresh_keys() {
        for_each_move_pair(400, |parent, child| {
            assert_eq!(
                child.zobrist_from(parent, parent.zobrist()),
                child.zobrist()
            );
        });
    }
}
