//! Chess core: bitboards, FEN, Zobrist keys and pseudo-legal move generation with RBC semantics.
//!
//! Squares, piece types and colours use python-chess's numbering (a1 = 0 … h8 = 63, pawn = 1 …
//! king = 6), so values cross the Python boundary unchanged. Castling is the king's two-square
//! move (e1g1), as in python-chess's standard notation.

mod attacks;
mod bitboard;
mod board;
mod encoding;
mod fen;
mod movegen;
mod types;
mod zobrist;

#[cfg(test)]
pub(crate) mod test_walk;

pub use attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, piece_attacks, rook_attacks,
};
pub use bitboard::Bitboard;
pub use board::Board;
pub use encoding::ENCODED_BOARD_BYTES;
pub use fen::FenError;
pub use movegen::{MoveList, PerftTooDeep, MAX_PERFT_DEPTH};
pub use types::{
    parse_square, square_file, square_name, square_rank, Color, Move, MoveParseError, Piece,
    PieceType, Square, MATERIAL_POINTS,
};
pub use zobrist::{ZobristHasher, ZobristMap};
