//! The board: placement, side to move, castling rights, e.p. square and clocks, with python-chess's
//! make-move behaviour (clocks, castling-rights cleaning, e.p. square after every double push).

use super::attacks::tables;
use super::bitboard::Bitboard;
use super::types::{Color, Move, Piece, PieceType, Square};

/// Castling-right bits: which rook may still castle.
pub const WHITE_KINGSIDE: u8 = 1;
pub const WHITE_QUEENSIDE: u8 = 2;
pub const BLACK_KINGSIDE: u8 = 4;
pub const BLACK_QUEENSIDE: u8 = 8;

pub(crate) const RANK_1: u64 = 0xFF;
pub(crate) const RANK_8: u64 = 0xFF << 56;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Pieces by type (index 0 = pawns ... 5 = kings), both colours.
    pub(crate) pieces: [u64; 6],
    /// Pieces by colour.
    pub(crate) colors: [u64; 2],
    pub(crate) turn: Color,
    /// `WHITE_KINGSIDE | ...` bits, as python-chess keeps them after its first clean.
    pub(crate) castling: u8,
    /// The square a pawn skipped on the last move (python-chess sets it after every double push).
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
}

impl Board {
    /// The standard starting position.
    pub fn start() -> Board {
        Board::from_fen(super::fen::START_FEN).expect("the start FEN is valid")
    }

    /// An empty board, White to move, no rights, clocks 0 and 1.
    pub fn empty() -> Board {
        Board {
            pieces: [0; 6],
            colors: [0; 2],
            turn: Color::White,
            castling: 0,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Castling-right bits (`WHITE_KINGSIDE` etc.).
    #[inline]
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The stored e.p. square (python-chess `ep_square`: set after every double push).
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.colors[0] | self.colors[1])
    }

    #[inline]
    pub fn occupied_by(&self, color: Color) -> Bitboard {
        Bitboard(self.colors[color.index()])
    }

    #[inline]
    pub fn pieces_of(&self, piece_type: PieceType, color: Color) -> Bitboard {
        Bitboard(self.pieces[piece_type.index()] & self.colors[color.index()])
    }

    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        if square >= 64 {
            return None;
        }
        let bit = 1u64 << square;
        let color = if self.colors[0] & bit != 0 {
            Color::White
        } else if self.colors[1] & bit != 0 {
            Color::Black
        } else {
            return None;
        };
        let index = self.pieces.iter().position(|bb| bb & bit != 0)?;
        Some(Piece {
            piece_type: PieceType::ALL[index],
            color,
        })
    }

    #[inline]
    pub(crate) fn piece_type_index_at(&self, square: Square) -> Option<usize> {
        let bit = 1u64 << square;
        if (self.colors[0] | self.colors[1]) & bit == 0 {
            return None;
        }
        self.pieces.iter().position(|bb| bb & bit != 0)
    }

    /// Puts `piece` on `square` (replacing whatever stood there), or clears it with `None`.
    /// Does not touch rights or the e.p. square. Squares >= 64 are ignored.
    pub fn set_piece_at(&mut self, square: Square, piece: Option<Piece>) {
        if square >= 64 {
            return;
        }
        self.remove_piece(square);
        if let Some(p) = piece {
            let bit = 1u64 << square;
            self.pieces[p.piece_type.index()] |= bit;
            self.colors[p.color.index()] |= bit;
        }
    }

    #[inline]
    fn remove_piece(&mut self, square: Square) {
        let clear = !(1u64 << square);
        for bb in self.pieces.iter_mut() {
            *bb &= clear;
        }
        self.colors[0] &= clear;
        self.colors[1] &= clear;
    }

    pub fn set_turn(&mut self, color: Color) {
        self.turn = color;
    }

    /// Sets castling rights (`WHITE_KINGSIDE | ...`), dropping those the king and rooks on their
    /// original squares do not support, as python-chess cleans them.
    pub fn set_castling_rights(&mut self, rights: u8) {
        self.castling = rights & self.valid_castling_mask();
    }

    /// Sets the stored e.p. square (squares >= 64 clear it).
    pub fn set_ep_square(&mut self, square: Option<Square>) {
        self.ep_square = square.filter(|&s| s < 64);
    }

    pub fn set_clocks(&mut self, halfmove_clock: u32, fullmove_number: u32) {
        self.halfmove_clock = halfmove_clock;
        self.fullmove_number = fullmove_number.max(1);
    }

    /// True when the two boards are the same position: placement, side to move, castling
    /// rights and effective e.p. square (clocks ignored).
    pub fn same_position(&self, other: &Board) -> bool {
        self.pieces == other.pieces
            && self.colors == other.colors
            && self.turn == other.turn
            && self.castling == other.castling
            && self.effective_ep_square() == other.effective_ep_square()
    }

    /// The square of `color`'s king (the lowest one, should there be several).
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.pieces_of(PieceType::King, color).first()
    }

    /// True when both kings are on the board; otherwise the game is over (RBC: kings are captured).
    #[inline]
    pub fn both_kings_present(&self) -> bool {
        let kings = self.pieces[PieceType::King.index()];
        kings & self.colors[0] != 0 && kings & self.colors[1] != 0
    }

    /// True when the e.p. square allows a python-chess pseudo-legal e.p. capture: the square is
    /// empty and a pawn of the side to move on its 5th rank attacks it.
    pub fn has_pseudo_legal_en_passant(&self) -> bool {
        self.ep_capturers() != 0
    }

    /// Pawns of the side to move that may capture e.p. (python-chess `generate_pseudo_legal_ep`).
    #[inline]
    pub(crate) fn ep_capturers(&self) -> u64 {
        let Some(ep) = self.ep_square else { return 0 };
        // python-chess tests `not self.ep_square`, so a1 never counts.
        if ep == 0 || (self.colors[0] | self.colors[1]) >> ep & 1 != 0 {
            return 0;
        }
        let us = self.turn.index();
        let fifth_rank = if self.turn == Color::White {
            0xFFu64 << 32
        } else {
            0xFFu64 << 24
        };
        self.pieces[0] & self.colors[us] & tables().pawn[1 - us][ep as usize] & fifth_rank
    }

    /// The e.p. square if it matters (a pseudo-legal e.p. capture exists), else `None`: the form
    /// used by FEN output and position keys.
    #[inline]
    pub fn effective_ep_square(&self) -> Option<Square> {
        if self.ep_capturers() != 0 {
            self.ep_square
        } else {
            None
        }
    }

    /// Plays `mv` (which must be pseudo-legal in the RBC sense), or a null move for `None`, exactly
    /// as python-chess `Board.push` updates clocks, castling rights and the e.p. square.
    /// A move whose from-square does not hold a piece of the side to move is played as a null move
    /// rather than corrupting the board; callers validate with [`Board::is_pseudo_legal`].
    pub fn push(&mut self, mv: Option<Move>) {
        let previous_ep = self.ep_square.take();
        self.halfmove_clock += 1;
        if self.turn == Color::Black {
            self.fullmove_number += 1;
        }
        let Some(mv) = mv.filter(|m| m.squares_valid()) else {
            self.turn = self.turn.other();
            return;
        };
        let us = self.turn.index();
        let them = 1 - us;
        let from_bit = 1u64 << mv.from;
        let to_bit = 1u64 << mv.to;
        let Some(moving) = self
            .piece_type_index_at(mv.from)
            .filter(|_| self.colors[us] & from_bit != 0)
        else {
            self.turn = self.turn.other();
            return;
        };
        let captured = if self.colors[them] & to_bit != 0 {
            self.piece_type_index_at(mv.to)
        } else {
            None
        };
        let is_pawn = moving == PieceType::Pawn.index();
        if is_pawn || captured.is_some() {
            self.halfmove_clock = 0;
        }

        self.castling &= !(rights_touching(from_bit) | rights_touching(to_bit));
        let king = PieceType::King.index();
        if moving == king {
            self.castling &= if us == 0 {
                !(WHITE_KINGSIDE | WHITE_QUEENSIDE)
            } else {
                !(BLACK_KINGSIDE | BLACK_QUEENSIDE)
            };
        } else if captured == Some(king) {
            if us == 0 && to_bit & RANK_8 != 0 {
                self.castling &= !(BLACK_KINGSIDE | BLACK_QUEENSIDE);
            } else if us == 1 && to_bit & RANK_1 != 0 {
                self.castling &= !(WHITE_KINGSIDE | WHITE_QUEENSIDE);
            }
        }

        // Remove the mover and anything on the target square.
        self.pieces[moving] &= !from_bit;
        self.colors[us] &= !from_bit;
        if let Some(c) = captured {
            self.pieces[c] &= !to_bit;
            self.colors[them] &= !to_bit;
        }

        let mut placed = moving;
        if is_pawn {
            let diff = mv.to as i32 - mv.from as i32;
            let from_rank = mv.from / 8;
            if diff == 16 && from_rank == 1 {
                self.ep_square = Some(mv.from + 8);
            } else if diff == -16 && from_rank == 6 {
                self.ep_square = Some(mv.from - 8);
            } else if Some(mv.to) == previous_ep
                && (diff.abs() == 7 || diff.abs() == 9)
                && captured.is_none()
            {
                let victim = if us == 0 { mv.to - 8 } else { mv.to + 8 };
                self.remove_piece(victim);
            }
            if let Some(p) = mv.promotion {
                placed = p.index();
            }
        }

        // Castling: the king's two-square move from e1/e8 also moves the rook.
        if moving == king && mv.from % 8 == 4 && (mv.to as i32 - mv.from as i32).abs() == 2 {
            let (rook_from, rook_to) = if mv.to > mv.from {
                (mv.from + 3, mv.from + 1)
            } else {
                (mv.from - 4, mv.from - 1)
            };
            let rook = PieceType::Rook.index();
            let rook_move = (1u64 << rook_from) | (1u64 << rook_to);
            self.pieces[rook] ^= rook_move;
            self.colors[us] ^= rook_move;
        }

        self.pieces[placed] |= to_bit;
        self.colors[us] |= to_bit;
        self.turn = self.turn.other();
    }
}

/// Castling-right bits lost when a move touches the squares in `bit` (rook corners).
#[inline]
fn rights_touching(bit: u64) -> u8 {
    let mut lost = 0;
    if bit & (1 << 7) != 0 {
        lost |= WHITE_KINGSIDE;
    }
    if bit & 1 != 0 {
        lost |= WHITE_QUEENSIDE;
    }
    if bit & (1 << 63) != 0 {
        lost |= BLACK_KINGSIDE;
    }
    if bit & (1 << 56) != 0 {
        lost |= BLACK_QUEENSIDE;
    }
    lost
}
