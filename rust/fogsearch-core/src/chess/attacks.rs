//! Attack tables. Leapers are computed at compile time; sliders use "fancy" magic bitboards whose
//! magic numbers are found at first use by a seeded search (a few milliseconds), so no table of
//! constants from elsewhere is needed.

use std::sync::OnceLock;

use super::bitboard::Bitboard;
use super::types::{Color, PieceType, Square};
use crate::rng::Rng;

const fn leaper_table(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut i = 0;
        while i < deltas.len() {
            let (f, r) = (file + deltas[i].0, rank + deltas[i].1);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[sq] |= 1u64 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static WHITE_PAWN: [u64; 64] = leaper_table(&[(-1, 1), (1, 1)]);
static BLACK_PAWN: [u64; 64] = leaper_table(&[(-1, -1), (1, -1)]);

#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq as usize])
}

#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq as usize])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    match color {
        Color::White => Bitboard(WHITE_PAWN[sq as usize]),
        Color::Black => Bitboard(BLACK_PAWN[sq as usize]),
    }
}

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Ray-walking attacks: the slow reference the magic tables are built from and tested against.
pub(crate) fn sliding_attacks_slow(sq: Square, occupied: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
        }
    }
    attacks
}

/// The squares whose occupancy matters for a slider on `sq`: its rays without their last square.
fn relevant_mask(sq: Square, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    mask
}

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

struct SliderTable {
    magics: [Magic; 64],
    attacks: Vec<u64>,
}

impl SliderTable {
    #[inline]
    fn lookup(&self, sq: Square, occupied: u64) -> u64 {
        let m = &self.magics[sq as usize];
        let index = ((occupied & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
        // SAFETY-free bounds: the index is < 2^(64-shift) = table size by construction.
        self.attacks[m.offset + index]
    }

    fn build(dirs: &[(i8, i8); 4], seed: u64) -> SliderTable {
        let mut rng = Rng::new(seed);
        let mut magics = [Magic::default(); 64];
        let mut attacks = Vec::new();
        for sq in 0..64u8 {
            let mask = relevant_mask(sq, dirs);
            let bits = mask.count_ones();
            let subsets = subsets_of(mask);
            let reference: Vec<u64> = subsets
                .iter()
                .map(|&occ| sliding_attacks_slow(sq, occ, dirs))
                .collect();
            let size = 1usize << bits;
            let mut table = vec![0u64; size];
            let mut epoch = vec![0u32; size];
            let mut attempt = 0u32;
            let magic = loop {
                attempt += 1;
                let candidate = rng.next_u64() & rng.next_u64() & rng.next_u64();
                if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                    continue;
                }
                let shift = 64 - bits;
                let fits = subsets.iter().zip(&reference).all(|(&occ, &att)| {
                    let i = (occ.wrapping_mul(candidate) >> shift) as usize;
                    if epoch[i] != attempt {
                        epoch[i] = attempt;
                        table[i] = att;
                        true
                    } else {
                        table[i] == att
                    }
                });
                if fits {
                    break candidate;
                }
            };
            magics[sq as usize] = Magic {
                mask,
                magic,
                shift: 64 - bits,
                offset: attacks.len(),
            };
            attacks.extend_from_slice(&table);
        }
        SliderTable { magics, attacks }
    }
}

/// Every subset of `mask` (Carry-Rippler enumeration).
fn subsets_of(mask: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut subset = 0u64;
    loop {
        out.push(subset);
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            return out;
        }
    }
}

fn rook_table() -> &'static SliderTable {
    static TABLE: OnceLock<SliderTable> = OnceLock::new();
    TABLE.get_or_init(|| SliderTable::build(&ROOK_DIRS, 0x524F_4F4B))
}

fn bishop_table() -> &'static SliderTable {
    static TABLE: OnceLock<SliderTable> = OnceLock::new();
    TABLE.get_or_init(|| SliderTable::build(&BISHOP_DIRS, 0x4249_5348))
}

/// Handles to both slider tables, fetched once per move generation instead of per lookup.
#[derive(Clone, Copy)]
pub(crate) struct Sliders {
    rook: &'static SliderTable,
    bishop: &'static SliderTable,
}

impl Sliders {
    #[inline]
    pub(crate) fn get() -> Sliders {
        Sliders {
            rook: rook_table(),
            bishop: bishop_table(),
        }
    }

    #[inline]
    pub(crate) fn rook(self, sq: Square, occupied: Bitboard) -> Bitboard {
        Bitboard(self.rook.lookup(sq, occupied.0))
    }

    #[inline]
    pub(crate) fn bishop(self, sq: Square, occupied: Bitboard) -> Bitboard {
        Bitboard(self.bishop.lookup(sq, occupied.0))
    }

    /// Squares a piece of `piece_type` on `sq` attacks; empty for a pawn, whose attacks depend
    /// on its colour ([`pawn_attacks`]).
    #[inline]
    pub(crate) fn piece(self, piece_type: PieceType, sq: Square, occupied: Bitboard) -> Bitboard {
        match piece_type {
            PieceType::Knight => knight_attacks(sq),
            PieceType::Bishop => self.bishop(sq, occupied),
            PieceType::Rook => self.rook(sq, occupied),
            PieceType::Queen => self.bishop(sq, occupied) | self.rook(sq, occupied),
            PieceType::King => king_attacks(sq),
            PieceType::Pawn => Bitboard::EMPTY,
        }
    }
}

pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Sliders::get().rook(sq, occupied)
}

pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Sliders::get().bishop(sq, occupied)
}

/// Squares a knight, bishop, rook, queen or king on `sq` attacks (sliders stop at the first piece
/// of `occupied`); empty for a pawn, whose attacks depend on its colour ([`pawn_attacks`]).
pub fn piece_attacks(piece_type: PieceType, sq: Square, occupied: Bitboard) -> Bitboard {
    Sliders::get().piece(piece_type, sq, occupied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_equal_ray_walking_on_random_occupancies() {
        let mut rng = Rng::new(99);
        for _ in 0..20_000 {
            let occ = rng.next_u64() & rng.next_u64();
            let sq = rng.below(64) as Square;
            assert_eq!(
                rook_attacks(sq, Bitboard(occ)).0,
                sliding_attacks_slow(sq, occ, &ROOK_DIRS)
            );
            assert_eq!(
                bishop_attacks(sq, Bitboard(occ)).0,
                sliding_attacks_slow(sq, occ, &BISHOP_DIRS)
            );
        }
    }

    #[test]
    fn leapers() {
        assert_eq!(knight_attacks(0).count(), 2);
        assert_eq!(knight_attacks(27).count(), 8);
        assert_eq!(king_attacks(0).count(), 3);
        assert_eq!(pawn_attacks(Color::White, 8).0, 1 << 17);
        assert_eq!(pawn_attacks(Color::Black, 55).0, 1 << 46);
    }
}
