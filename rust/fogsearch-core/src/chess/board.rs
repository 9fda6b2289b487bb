//! The board: placement, side to move, castling rights, e.p. square and clocks, with
//! python-chess's make-move semantics.

use super::attacks::pawn_attacks;
use super::bitboard::Bitboard;
use super::types::{square_file, square_rank, Color, Move, Piece, PieceType, Square};

const E1: Square = 4;
const E8: Square = 60;
pub(crate) const CORNERS: Bitboard = Bitboard(1 | 1 << 7 | 1 << 56 | 1 << 63);

/// A chess position. Two boards are the same *position* (see [`Board::same_position`]) when
/// placement, side to move, castling rights and e.p. square agree; clocks are carried along.
///
/// Invariants kept by every constructor and by [`Board::push`]:
/// - castling rights name only rooks standing on their corner with their king on its e-file home;
/// - the e.p. square is set only when the side to move has a pseudo-legal e.p. capture (python-chess
///   sets it after every double push; where no pawn can take, it has no effect on play, so the
///   normalised form makes equal positions compare equal).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub(crate) pieces: [Bitboard; 6],
    pub(crate) colors: [Bitboard; 2],
    pub(crate) turn: Color,
    pub(crate) castling: Bitboard,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
}

impl Default for Board {
    fn default() -> Self {
        Board::start()
    }
}

impl Board {
    /// The standard starting position.
    pub fn start() -> Board {
        Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .expect("the start FEN is valid")
    }

    /// A board with no pieces, White to move.
    pub fn empty() -> Board {
        Board {
            pieces: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            turn: Color::White,
            castling: Bitboard::EMPTY,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    pub fn turn(&self) -> Color {
        self.turn
    }

    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    #[inline]
    pub fn by_type(&self, piece_type: PieceType) -> Bitboard {
        self.pieces[piece_type.index()]
    }

    #[inline]
    pub fn pieces_of(&self, piece_type: PieceType, color: Color) -> Bitboard {
        self.pieces[piece_type.index()] & self.colors[color.index()]
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = if self.colors[0].contains(sq) {
            Color::White
        } else if self.colors[1].contains(sq) {
            Color::Black
        } else {
            return None;
        };
        let piece_type = PieceType::ALL
            .into_iter()
            .find(|p| self.pieces[p.index()].contains(sq))?;
        Some(Piece { piece_type, color })
    }

    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.pieces_of(PieceType::King, color).first()
    }

    /// In RBC a board without both kings is over: its game ended with a king capture.
    pub fn is_terminal(&self) -> bool {
        self.pieces_of(PieceType::King, Color::White).is_empty()
            || self.pieces_of(PieceType::King, Color::Black).is_empty()
    }

    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.remove_piece_at(sq);
        self.pieces[piece.piece_type.index()] |= Bitboard::from_square(sq);
        self.colors[piece.color.index()] |= Bitboard::from_square(sq);
    }

    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        let mask = !Bitboard::from_square(sq);
        self.pieces[piece.piece_type.index()] &= mask;
        self.colors[piece.color.index()] &= mask;
        Some(piece)
    }

    pub(crate) fn clear_ep_square(&mut self) {
        self.ep_square = None;
    }

    /// Placement, turn, castling rights and (normalised) e.p. square agree.
    pub fn same_position(&self, other: &Board) -> bool {
        self.pieces == other.pieces
            && self.colors == other.colors
            && self.turn == other.turn
            && self.castling == other.castling
            && self.ep_square == other.ep_square
    }

    /// Drops castling rights whose rook or king is not on its home square, as python-chess's
    /// `clean_castling_rights` does for standard chess.
    pub(crate) fn clean_castling_rights(&mut self) {
        let mut valid = Bitboard::EMPTY;
        for (color, home, rank) in [(Color::White, E1, 0u8), (Color::Black, E8, 7u8)] {
            if self.pieces_of(PieceType::King, color).contains(home) {
                let rooks = self.pieces_of(PieceType::Rook, color) & CORNERS & Bitboard::rank(rank);
                valid |= rooks;
            }
        }
        self.castling &= valid;
    }

    /// Keeps the e.p. square only if the side to move can capture there (see the type docs).
    pub(crate) fn normalise_ep_square(&mut self) {
        if let Some(ep) = self.ep_square {
            let capturers =
                pawn_attacks(self.turn.other(), ep) & self.pieces_of(PieceType::Pawn, self.turn);
            let victim_square = if self.turn == Color::White {
                ep.wrapping_sub(8)
            } else {
                ep + 8
            };
            let rank_ok = square_rank(ep) == if self.turn == Color::White { 5 } else { 2 };
            let victim_ok = rank_ok
                && self
                    .pieces_of(PieceType::Pawn, self.turn.other())
                    .contains(victim_square)
                && !self.occupied().contains(ep);
            if capturers.is_empty() || !victim_ok {
                self.ep_square = None;
            }
        }
    }

    /// Makes `mv` (or a null move for `None`) with python-chess's clock, castling-rights and e.p.
    /// rules. The move must be pseudo-legal in the RBC sense (see `pseudo_legal_moves`); a move
    /// from an empty square is played as a null move rather than corrupting the board.
    pub fn push(&mut self, mv: Option<Move>) {
        let us = self.turn;
        let ep_before = self.ep_square.take();
        self.halfmove_clock += 1;
        if us == Color::Black {
            self.fullmove_number += 1;
        }
        let Some(mv) = mv else {
            self.turn = us.other();
            return;
        };
        let Some(piece) = self.piece_at(mv.from).filter(|p| p.color == us) else {
            self.turn = us.other();
            return;
        };
        let from_bb = Bitboard::from_square(mv.from);
        let to_bb = Bitboard::from_square(mv.to);
        self.castling &= !(from_bb | to_bb);
        if piece.piece_type == PieceType::King {
            self.castling &= !Bitboard::rank(if us == Color::White { 0 } else { 7 });
        }
        let is_pawn = piece.piece_type == PieceType::Pawn;
        if self.is_castle(piece, mv) {
            self.castle(us, mv);
        } else {
            self.remove_piece_at(mv.from);
            let mut captured = self.remove_piece_at(mv.to).is_some();
            if is_pawn
                && Some(mv.to) == ep_before
                && square_file(mv.to) != square_file(mv.from)
                && !captured
            {
                let victim = if us == Color::White {
                    mv.to - 8
                } else {
                    mv.to + 8
                };
                captured = self.remove_piece_at(victim).is_some();
            }
            let placed = mv.promotion.filter(|_| is_pawn).unwrap_or(piece.piece_type);
            self.set_piece_at(mv.to, Piece::new(placed, us));
            if is_pawn || captured {
                self.halfmove_clock = 0;
            }
            if is_pawn && mv.from.abs_diff(mv.to) == 16 {
                self.ep_square = Some((mv.from + mv.to) / 2);
            }
        }
        self.turn = us.other();
        // A captured king takes its side's castling rights with it (python-chess clears them too).
        self.clean_castling_rights();
        self.normalise_ep_square();
    }

    /// python-chess reads a king's two-square move from its e-file home as castling.
    pub(crate) fn is_castle(&self, piece: Piece, mv: Move) -> bool {
        let home = if piece.color == Color::White { E1 } else { E8 };
        piece.piece_type == PieceType::King
            && mv.from == home
            && (mv.to == home + 2 || mv.to == home - 2)
    }

    /// Where the rook of a castling king's move `mv` (see [`Board::is_castle`]) stands and goes.
    pub(crate) fn castling_rook_squares(mv: Move) -> (Square, Square) {
        if mv.to > mv.from {
            (mv.from + 3, mv.from + 1)
        } else {
            (mv.from - 4, mv.from - 1)
        }
    }

    fn castle(&mut self, us: Color, mv: Move) {
        let (rook_from, rook_to) = Board::castling_rook_squares(mv);
        self.remove_piece_at(mv.from);
        let rook = self.remove_piece_at(rook_from);
        self.set_piece_at(mv.to, Piece::new(PieceType::King, us));
        if let Some(rook) = rook {
            self.set_piece_at(rook_to, rook);
        }
    }
}
