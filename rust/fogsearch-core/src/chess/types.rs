//! Squares, colours, pieces and moves, numbered as python-chess numbers them.

use std::fmt;

/// A square index: 0 = a1, 1 = b1, ..., 63 = h8 (python-chess numbering).
pub type Square = u8;

/// The name of a square, e.g. `"e4"`. Panics never: squares >= 64 are written as `"??"`.
pub fn square_name(square: Square) -> String {
    if square >= 64 {
        return "??".to_string();
    }
    let file = (b'a' + square % 8) as char;
    let rank = (b'1' + square / 8) as char;
    format!("{file}{rank}")
}

/// Parses a square name such as `"e4"`.
pub fn parse_square(name: &str) -> Option<Square> {
    let bytes = name.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let (file, rank) = (bytes[0], bytes[1]);
    if !(b'a'..=b'h').contains(&file) || !(b'1'..=b'8').contains(&rank) {
        return None;
    }
    Some((rank - b'1') * 8 + (file - b'a'))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: the index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceType {
    Pawn = 1,
    Knight = 2,
    Bishop = 3,
    Rook = 4,
    Queen = 5,
    King = 6,
}

impl PieceType {
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    /// The piece type with python-chess number `n` (1 = pawn ... 6 = king).
    pub fn from_u8(n: u8) -> Option<PieceType> {
        match n {
            1..=6 => Some(PieceType::ALL[n as usize - 1]),
            _ => None,
        }
    }

    /// 0 for pawns ... 5 for kings: the index into per-piece-type arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize - 1
    }

    /// Lower-case letter: p, n, b, r, q, k.
    pub fn symbol(self) -> char {
        b"pnbrqk"[self.index()] as char
    }

    /// Parses a letter of either case.
    pub fn from_symbol(c: char) -> Option<PieceType> {
        let lower = c.to_ascii_lowercase();
        "pnbrqk".find(lower).map(|i| PieceType::ALL[i])
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
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

/// A move. Castling is the king's two-square move (e1g1), as in python-chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<PieceType>,
}

/// Why a UCI move string could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveParseError {
    pub text: String,
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid UCI move {:?}: expected from-square, to-square and an optional promotion letter (n, b, r, q), e.g. \"e2e4\" or \"a7a8q\"",
            self.text
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

    /// Reads `e2e4` or `a7a8q`. The null move `0000` is not a `Move` (use `Option<Move>`).
    pub fn from_uci(text: &str) -> Result<Move, MoveParseError> {
        let err = || MoveParseError {
            text: text.to_string(),
        };
        if !text.is_ascii() || !(text.len() == 4 || text.len() == 5) {
            return Err(err());
        }
        let from = parse_square(&text[0..2]).ok_or_else(err)?;
        let to = parse_square(&text[2..4]).ok_or_else(err)?;
        let promotion = match text[4..].chars().next() {
            None => None,
            Some(c) => match PieceType::from_symbol(c) {
                Some(
                    p
                    @ (PieceType::Knight | PieceType::Bishop | PieceType::Rook | PieceType::Queen),
                ) if c.is_ascii_lowercase() => Some(p),
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

    pub fn to_uci(&self) -> String {
        let mut s = format!("{}{}", square_name(self.from), square_name(self.to));
        if let Some(p) = self.promotion {
            s.push(p.symbol());
        }
        s
    }

    /// True when both squares are on the board (< 64): the check every external move needs.
    pub fn squares_valid(&self) -> bool {
        self.from < 64 && self.to < 64
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_uci())
    }
}
