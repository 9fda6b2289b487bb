//! FEN in and out, in python-chess's layout.

use super::board::{Board, BLACK_KINGSIDE, BLACK_QUEENSIDE, WHITE_KINGSIDE, WHITE_QUEENSIDE};
use super::types::{parse_square, square_name, Color, Piece, PieceType};
use std::fmt;

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN string was rejected; `Display` says which part was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    pub fen: String,
    pub reason: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN {:?}: {}", self.fen, self.reason)
    }
}

impl std::error::Error for FenError {}

impl Board {
    /// Parses a FEN. The clocks may be omitted (defaults 0 and 1). Castling rights without the
    /// matching king on e1/e8 and rook on its corner are dropped, as python-chess cleans them.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let err = |reason: String| FenError {
            fen: fen.to_string(),
            reason,
        };
        let parts: Vec<&str> = fen.split_whitespace().collect();
        if parts.is_empty() {
            return Err(err("empty string".into()));
        }
        if parts.len() > 6 {
            return Err(err(format!(
                "expected at most 6 space-separated fields, got {}",
                parts.len()
            )));
        }
        let mut board = Board::empty();
        parse_placement(&mut board, parts[0]).map_err(err)?;
        board.turn = match parts.get(1).copied().unwrap_or("w") {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(err(format!(
                    "side to move must be 'w' or 'b', got {other:?}"
                )))
            }
        };
        let castling = parts.get(2).copied().unwrap_or("-");
        if castling != "-" {
            for c in castling.chars() {
                board.castling |= match c {
                    'K' => WHITE_KINGSIDE,
                    'Q' => WHITE_QUEENSIDE,
                    'k' => BLACK_KINGSIDE,
                    'q' => BLACK_QUEENSIDE,
                    _ => {
                        return Err(err(format!(
                            "castling field must be '-' or letters from KQkq, got {castling:?}"
                        )))
                    }
                };
            }
        }
        board.castling &= board.valid_castling_mask();
        let ep = parts.get(3).copied().unwrap_or("-");
        if ep != "-" {
            // python-chess accepts any square here, so do we.
            let square = parse_square(ep)
                .ok_or_else(|| err(format!("e.p. square must be '-' or a square, got {ep:?}")))?;
            board.ep_square = Some(square);
        }
        if let Some(h) = parts.get(4) {
            board.halfmove_clock = h.parse::<u32>().map_err(|_| {
                err(format!(
                    "halfmove clock must be a non-negative integer, got {h:?}"
                ))
            })?;
        }
        if let Some(f) = parts.get(5) {
            let n = f.parse::<u32>().map_err(|_| {
                err(format!(
                    "fullmove number must be a non-negative integer, got {f:?}"
                ))
            })?;
            // python-chess reads fullmove 0 as 1.
            board.fullmove_number = n.max(1);
        }
        Ok(board)
    }

    /// Castling bits whose king and rook stand on their original squares.
    pub(crate) fn valid_castling_mask(&self) -> u8 {
        let mut mask = 0;
        let has = |pt: PieceType, color: Color, sq: u8| self.pieces_of(pt, color).contains(sq);
        if has(PieceType::King, Color::White, 4) {
            if has(PieceType::Rook, Color::White, 7) {
                mask |= WHITE_KINGSIDE;
            }
            if has(PieceType::Rook, Color::White, 0) {
                mask |= WHITE_QUEENSIDE;
            }
        }
        if has(PieceType::King, Color::Black, 60) {
            if has(PieceType::Rook, Color::Black, 63) {
                mask |= BLACK_KINGSIDE;
            }
            if has(PieceType::Rook, Color::Black, 56) {
                mask |= BLACK_QUEENSIDE;
            }
        }
        mask
    }

    /// The placement field alone.
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                match self.piece_at(rank * 8 + file) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.symbol());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }

    /// The full FEN as python-chess writes it with `en_passant="xfen"`: the e.p. square appears
    /// only when a pseudo-legal e.p. capture exists.
    pub fn fen(&self) -> String {
        self.fen_with_ep(self.effective_ep_square())
    }

    /// The full FEN with the stored e.p. square whatever the captures (python-chess `en_passant="fen"`).
    pub fn fen_with_stored_ep(&self) -> String {
        self.fen_with_ep(self.ep_square)
    }

    fn fen_with_ep(&self, ep: Option<u8>) -> String {
        let mut castling = String::new();
        for (bit, c) in [
            (WHITE_KINGSIDE, 'K'),
            (WHITE_QUEENSIDE, 'Q'),
            (BLACK_KINGSIDE, 'k'),
            (BLACK_QUEENSIDE, 'q'),
        ] {
            if self.castling & bit != 0 {
                castling.push(c);
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        format!(
            "{} {} {} {} {} {}",
            self.board_fen(),
            if self.turn == Color::White { 'w' } else { 'b' },
            castling,
            ep.map_or("-".to_string(), square_name),
            self.halfmove_clock,
            self.fullmove_number
        )
    }
}

fn parse_placement(board: &mut Board, placement: &str) -> Result<(), String> {
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != 8 {
        return Err(format!(
            "placement must have 8 ranks separated by '/', got {}",
            rows.len()
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        let mut previous_was_digit = false;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 || previous_was_digit {
                    return Err(format!(
                        "rank {} has an invalid empty-square count in {row:?}",
                        rank + 1
                    ));
                }
                file += d as u8;
                previous_was_digit = true;
            } else if let Some(piece) = Piece::from_symbol(c) {
                if file >= 8 {
                    return Err(format!(
                        "rank {} has more than 8 squares in {row:?}",
                        rank + 1
                    ));
                }
                board.set_piece_at(rank * 8 + file, Some(piece));
                file += 1;
                previous_was_digit = false;
            } else {
                return Err(format!("unknown piece letter {c:?} in rank {}", rank + 1));
            }
            if file > 8 {
                return Err(format!(
                    "rank {} has more than 8 squares in {row:?}",
                    rank + 1
                ));
            }
        }
        if file != 8 {
            return Err(format!(
                "rank {} has {} squares instead of 8 in {row:?}",
                rank + 1,
                file
            ));
        }
    }
    Ok(())
}
