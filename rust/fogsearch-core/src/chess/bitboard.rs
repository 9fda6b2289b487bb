//! A set of squares as a 64-bit word, with operators so square arithmetic reads like chess.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::types::Square;

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const RANK_1: Bitboard = Bitboard(0xFF);
    pub const RANK_8: Bitboard = Bitboard(0xFF << 56);
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u64 << sq)
    }

    #[inline]
    pub const fn rank(r: u8) -> Bitboard {
        Bitboard(0xFFu64 << (8 * r))
    }

    #[inline]
    pub fn contains(self, sq: Square) -> bool {
        self.0 >> sq & 1 != 0
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Lowest square, if any.
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as Square)
        }
    }

    #[inline]
    pub fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u64 << sq)
    }

    #[inline]
    pub fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u64 << sq))
    }

    /// Shifted one rank towards the 8th rank (White's forward).
    #[inline]
    pub fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    #[inline]
    pub fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as Square;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $op:tt, $tra:ident, $fa:ident) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
bit_op!(BitOr, bitor, |, BitOrAssign, bitor_assign);
bit_op!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}
