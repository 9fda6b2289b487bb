//! FEN in and out, with python-chess's conventions (missing clocks default to `0 1`).

use std::fmt;

use super::bitboard::Bitboard;
use super::board::Board;
use super::types::{parse_square, square_name, Color, Piece};

#[derive(Debug, Clone, PartialEq, Eq)]
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
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let err = |reason: String| FenError {
            fen: fen.to_string(),
            reason,
        };
        let parts: Vec<&str> = fen.split_whitespace().collect();
        if parts.is_empty() || parts.len() > 6 {
            return Err(err(format!(
                "expected 1 to 6 space-separated fields, got {}",
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
        board.castling = parse_castling(parts.get(2).copied().unwrap_or("-")).map_err(err)?;
        board.ep_square = match parts.get(3).copied().unwrap_or("-") {
            "-" => None,
            text => {
                Some(parse_square(text).ok_or_else(|| err(format!("bad e.p. square {text:?}")))?)
            }
        };
        board.halfmove_clock =
            parse_clock(parts.get(4).copied(), 0, "halfmove clock").map_err(err)?;
        board.fullmove_number = parse_clock(parts.get(5).copied(), 1, "fullmove number")
            .map_err(err)?
            .max(1);
        board.clean_castling_rights();
        board.normalise_ep_square();
        Ok(board)
    }

    /// FEN as python-chess writes it with `en_passant="xfen"` (the e.p. square only when a
    /// pseudo-legal e.p. capture exists, which is the only e.p. square this board keeps).
    pub fn fen(&self) -> String {
        let mut out = self.placement_fen();
        out.push(' ');
        out.push(if self.turn == Color::White { 'w' } else { 'b' });
        out.push(' ');
        out.push_str(&self.castling_fen());
        out.push(' ');
        match self.ep_square {
            Some(sq) => out.push_str(&square_name(sq)),
            None => out.push('-'),
        }
        out.push_str(&format!(
            " {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
        out
    }

    pub fn placement_fen(&self) -> String {
        let mut out = String::with_capacity(64);
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                match self.piece_at(rank * 8 + file) {
                    Some(piece) => {
                        if empty > 0 {
                            out.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        out.push(piece.symbol());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    fn castling_fen(&self) -> String {
        let s: String = [(7u8, 'K'), (0, 'Q'), (63, 'k'), (56, 'q')]
            .iter()
            .filter(|(sq, _)| self.castling.contains(*sq))
            .map(|&(_, c)| c)
            .collect();
        if s.is_empty() {
            "-".to_string()
        } else {
            s
        }
    }
}

fn parse_placement(board: &mut Board, text: &str) -> Result<(), String> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!(
            "the placement needs 8 ranks separated by '/', got {}",
            ranks.len()
        ));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(format!("empty-square count {c:?} in rank {}", rank + 1));
                }
                file += d as u8;
            } else {
                let piece = Piece::from_symbol(c)
                    .ok_or_else(|| format!("unknown piece letter {c:?} in rank {}", rank + 1))?;
                if file >= 8 {
                    return Err(format!("rank {} has more than 8 squares", rank + 1));
                }
                board.set_piece_at(rank * 8 + file, piece);
                file += 1;
            }
            if file > 8 {
                return Err(format!("rank {} has more than 8 squares", rank + 1));
            }
        }
        if file != 8 {
            return Err(format!("rank {} has {} squares, not 8", rank + 1, file));
        }
    }
    Ok(())
}

fn parse_castling(text: &str) -> Result<Bitboard, String> {
    if text == "-" {
        return Ok(Bitboard::EMPTY);
    }
    let mut rights = Bitboard::EMPTY;
    for c in text.chars() {
        rights |= Bitboard::from_square(match c {
            'K' => 7,
            'Q' => 0,
            'k' => 63,
            'q' => 56,
            _ => {
                return Err(format!(
                    "castling rights must be '-' or letters of KQkq, got {text:?}"
                ))
            }
        });
    }
    Ok(rights)
}

fn parse_clock(text: Option<&str>, default: u32, what: &str) -> Result<u32, String> {
    match text {
        None => Ok(default),
        Some(t) => t
            .parse::<u32>()
            .map_err(|_| format!("{what} must be a non-negative integer, got {t:?}")),
    }
}
