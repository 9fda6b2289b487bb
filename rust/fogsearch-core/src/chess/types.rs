//! Colours, piece types, pieces, squares and moves.

use std::fmt;

/// 0 = a1, 1 = b1, … 63 = h8.
pub type Square = u8;

pub fn square_file(sq: Square) -> u8 {
    sq & 7
}

pub fn square_rank(sq: Square) -> u8 {
    sq >> 3
}

pub fn square_name(sq: Square) -> String {
    format!(
        "{}{}",
        (b'a' + square_file(sq)) as char,
        (b'1' + square_rank(sq)) as char
    )
}

pub fn parse_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 8 + (b[0] - b'a'))
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// python-chess's `chess.WHITE` is `True`.
    pub fn from_python_bool(white: bool) -> Color {
        if white {
            Color::White
        } else {
            Color::Black
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    Pawn = 1,
    Knight = 2,
    Bishop = 3,
    Rook = 4,
    Queen = 5,
    King = 6,
}

/// The conventional material count in centipawns (1 / 3 / 3 / 5 / 9 pawns; the king is not
/// counted), indexed by [`PieceType::index`]: what a capture gains in the opponent model and a
/// material lead in the bot. The search's evaluation has its own, tuned values
/// (`search::PIECE_VALUES`: a bishop above a knight, both above three pawns), which this count
/// deliberately is not, so that the model's capture weights do not depend on the evaluation.
pub const MATERIAL_POINTS: [i32; 6] = [100, 300, 300, 500, 900, 0];

impl PieceType {
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    /// Index 0..6 for per-type arrays.
    pub fn index(self) -> usize {
        self as usize - 1
    }

    /// From python-chess's number (1 = pawn … 6 = king).
    pub fn from_number(n: u8) -> Option<PieceType> {
        PieceType::ALL.get((n as usize).wrapping_sub(1)).copied()
    }

    pub fn symbol(self) -> char {
        b"pnbrqk"[self.index()] as char
    }

    pub fn from_symbol(c: char) -> Option<PieceType> {
        "pnbrqk"
            .find(c.to_ascii_lowercase())
            .map(|i| PieceType::ALL[i])
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub piece_type: PieceType,
    pub color: Color,
}

impl Piece {
    pub fn new(piece_type: PieceType, color: Color) -> Piece {
        Piece { piece_type, color }
    }

    /// FEN letter: upper case for White.
    pub fn symbol(self) -> char {
        let c = self.piece_type.symbol();
        if self.color == Color::White {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }

    pub fn from_symbol(c: char) -> Option<Piece> {
        let piece_type = PieceType::from_symbol(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { piece_type, color })
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<PieceType>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveParseError(pub String);

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid UCI move {:?}: expected like e2e4 or a7a8q",
            self.0
        )
    }
}

impl std::error::Error for MoveParseError {}

impl Move {
    pub fn new(from: Square, to: Square, promotion: Option<PieceType>) -> Move {
        Move {
            from,
            to,
            promotion,
        }
    }

    pub fn from_uci(text: &str) -> Result<Move, MoveParseError> {
        let err = || MoveParseError(text.to_string());
        if !(4..=5).contains(&text.len()) || !text.is_ascii() {
            return Err(err());
        }
        let from = parse_square(&text[0..2]).ok_or_else(err)?;
        let to = parse_square(&text[2..4]).ok_or_else(err)?;
        let promotion = match text[4..].chars().next() {
            None => None,
            Some(c) => match PieceType::from_symbol(c) {
                Some(p)
                    if c.is_ascii_lowercase() && p != PieceType::Pawn && p != PieceType::King =>
                {
                    Some(p)
                }
                _ => return Err(err()),
            },
        };
        if from == to {
            return Err(err());
        }
        Ok(Move {
            from,
            to,
            promotion,
        })
    }

    pub fn uci(&self) -> String {
        let mut s = square_name(self.from) + &square_name(self.to);
        if let Some(p) = self.promotion {
            s.push(p.symbol());
        }
        s
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.uci())
    }
}
