//! Zobrist position keys over placement, side to move, castling rights and the effective e.p. file.

use super::board::Board;
use crate::rng::splitmix64;
use std::sync::OnceLock;

struct ZobristKeys {
    /// `[color * 6 + piece_index][square]`
    pieces: [[u64; 64]; 12],
    black_to_move: u64,
    castling: [u64; 16],
    ep_file: [u64; 8],
}

fn keys() -> &'static ZobristKeys {
    static KEYS: OnceLock<ZobristKeys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut state = 0x2F0B_5EA7_C4A1_1E57u64;
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            splitmix64(state)
        };
        let mut pieces = [[0u64; 64]; 12];
        for row in pieces.iter_mut() {
            for k in row.iter_mut() {
                *k = next();
            }
        }
        let black_to_move = next();
        let mut castling = [0u64; 16];
        for k in castling.iter_mut().skip(1) {
            *k = next();
        }
        let mut ep_file = [0u64; 8];
        for k in ep_file.iter_mut() {
            *k = next();
        }
        ZobristKeys {
            pieces,
            black_to_move,
            castling,
            ep_file,
        }
    })
}

impl Board {
    /// The position key: equal for boards that differ only in clocks or in an e.p. square that no
    /// pseudo-legal capture can use.
    pub fn zobrist(&self) -> u64 {
        let keys = keys();
        let mut key = 0u64;
        for color in 0..2 {
            for piece in 0..6 {
                let mut bb = self.pieces[piece] & self.colors[color];
                while bb != 0 {
                    let sq = bb.trailing_zeros() as usize;
                    key ^= keys.pieces[color * 6 + piece][sq];
                    bb &= bb - 1;
                }
            }
        }
        if self.turn == super::types::Color::Black {
            key ^= keys.black_to_move;
        }
        key ^= keys.castling[self.castling as usize & 15];
        if let Some(ep) = self.effective_ep_square() {
            key ^= keys.ep_file[(ep % 8) as usize];
        }
        key
    }
}
