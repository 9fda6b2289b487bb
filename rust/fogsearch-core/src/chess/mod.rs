//! Chess core: bitboards, FEN, Zobrist keys and pseudo-legal move generation with RBC semantics
//! (kings may stand in check and be captured; castling needs only rights and empty squares between
//! king and rook; a board with a missing king is terminal). Squares, piece numbers, move notation,
//! clocks and e.p. behaviour follow python-chess.

mod attacks;
mod bitboard;
mod board;
mod fen;
mod movegen;
mod types;
mod zobrist;

pub use attacks::{tables as attack_tables, AttackTables};
pub use bitboard::Bitboard;
pub use board::{Board, BLACK_KINGSIDE, BLACK_QUEENSIDE, WHITE_KINGSIDE, WHITE_QUEENSIDE};
pub use fen::{FenError, START_FEN};
pub use movegen::MoveList;
pub use types::{parse_square, square_name, Color, Move, MoveParseError, Piece, PieceType, Square};
