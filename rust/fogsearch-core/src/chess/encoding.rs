//! A board as 82 bytes, for saving and copying large sets (pickling a board set): FEN text would be
//! about as long but thirty times slower to read back.
//!
//! Layout, little-endian: the 6 piece-type bitboards (pawn .. king), the 2 colour bitboards (white,
//! black), the castling-rights bitboard, the side to move (0 white, 1 black), the e.p. square
//! (255: none), the half-move clock and the full-move number (u32 each). Reading checks that the
//! bitboards describe one piece per occupied square and re-applies the board's normal form, so
//! foreign or corrupted bytes give an error, never a board that breaks an invariant.

use super::bitboard::Bitboard;
use super::board::Board;
use super::types::Color;

/// Bytes per encoded board.
pub const ENCODED_BOARD_BYTES: usize = 9 * 8 + 2 + 2 * 4;

impl Board {
    /// Appends the board's encoding to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        for bb in self.pieces.iter().chain(&self.colors) {
            out.extend_from_slice(&bb.0.to_le_bytes());
        }
        out.extend_from_slice(&self.castling.0.to_le_bytes());
        out.push(self.turn.index() as u8);
        out.push(self.ep_square.unwrap_or(255));
        out.extend_from_slice(&self.halfmove_clock.to_le_bytes());
        out.extend_from_slice(&self.fullmove_number.to_le_bytes());
    }

    /// The board encoded in `bytes` (exactly [`ENCODED_BOARD_BYTES`] long), or why it is not one.
    pub fn decode(bytes: &[u8]) -> Result<Board, String> {
        if bytes.len() != ENCODED_BOARD_BYTES {
            return Err(format!(
                "a board takes {ENCODED_BOARD_BYTES} bytes, got {}",
                bytes.len()
            ));
        }
        let word = |i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[8 * i..8 * i + 8]);
            Bitboard(u64::from_le_bytes(w))
        };
        let u32_at = |at: usize| {
            let mut w = [0u8; 4];
            w.copy_from_slice(&bytes[at..at + 4]);
            u32::from_le_bytes(w)
        };
        let mut board = Board::empty();
        for (i, bb) in board.pieces.iter_mut().enumerate() {
            *bb = word(i);
        }
        board.colors = [word(6), word(7)];
        let mut by_type = Bitboard::EMPTY;
        for bb in board.pieces {
            if (by_type & bb).any() {
                return Err("two piece types share a square".into());
            }
            by_type |= bb;
        }
        if (board.colors[0] & board.colors[1]).any() || board.occupied() != by_type {
            return Err("the colour bitboards do not match the pieces".into());
        }
        board.castling = word(8);
        board.turn = match bytes[72] {
            0 => Color::White,
            1 => Color::Black,
            other => return Err(format!("side to move {other} is not 0 or 1")),
        };
        board.ep_square = match bytes[73] {
            255 => None,
            sq if sq < 64 => Some(sq),
            sq => return Err(format!("e.p. square {sq} is not 0..63")),
        };
        board.halfmove_clock = u32_at(74);
        board.fullmove_number = u32_at(78);
        board.clean_castling_rights();
        board.normalise_ep_square();
        Ok(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_round_trip() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3 17",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
            "8/8/8/8/8/8/8/4K3 b - - 99 200",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let mut bytes = Vec::new();
            board.encode_into(&mut bytes);
            assert_eq!(bytes.len(), ENCODED_BOARD_BYTES);
            assert_eq!(Board::decode(&bytes).unwrap(), board, "{fen}");
        }
    }

    #[test]
    fn corrupt_bytes_are_refused() {
        let mut bytes = Vec::new();
        Board::start().encode_into(&mut bytes);
        assert!(Board::decode(&bytes[1..]).is_err());
        let mut two_types = bytes.clone();
        two_types[8] |= 1; // a knight on a1, where a rook stands
        assert!(Board::decode(&two_types).is_err());
        let mut bad_turn = bytes.clone();
        bad_turn[72] = 7;
        assert!(Board::decode(&bad_turn).is_err());
        let mut bad_ep = bytes;
        bad_ep[73] = 64;
        assert!(Board::decode(&bad_ep).is_err());
    }
}
