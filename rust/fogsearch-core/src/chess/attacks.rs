//! Attack tables: leaper tables and magic-bitboard slider tables.
//!
//! The magic multipliers are found at first use by a seeded random search (no tables copied from
//! other engines); the search is deterministic and takes a few milliseconds.

use crate::rng::Rng;
use std::sync::OnceLock;

const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    multiplier: u64,
    shift: u32,
    offset: usize,
}

impl Magic {
    #[inline(always)]
    fn index(&self, occupied: u64) -> usize {
        self.offset + ((occupied & self.mask).wrapping_mul(self.multiplier) >> self.shift) as usize
    }
}

/// Every precomputed attack table.
pub struct AttackTables {
    pub knight: [u64; 64],
    pub king: [u64; 64],
    /// `pawn[color][sq]`: squares a pawn of `color` on `sq` attacks.
    pub pawn: [[u64; 64]; 2],
    /// `between[a][b]`: squares strictly between a and b on a line (0 if not aligned).
    pub between: Vec<[u64; 64]>,
    rook_magics: [Magic; 64],
    bishop_magics: [Magic; 64],
    slider_attacks: Vec<u64>,
}

impl AttackTables {
    #[inline(always)]
    pub fn rook(&self, square: u8, occupied: u64) -> u64 {
        // SAFETY-free: indices are in range by construction (offset + (x >> shift) < offset + 2^bits).
        self.slider_attacks[self.rook_magics[square as usize].index(occupied)]
    }

    #[inline(always)]
    pub fn bishop(&self, square: u8, occupied: u64) -> u64 {
        self.slider_attacks[self.bishop_magics[square as usize].index(occupied)]
    }

    #[inline(always)]
    pub fn queen(&self, square: u8, occupied: u64) -> u64 {
        self.rook(square, occupied) | self.bishop(square, occupied)
    }
}

/// The process-wide tables, built on first use.
#[inline(always)]
pub fn tables() -> &'static AttackTables {
    static TABLES: OnceLock<AttackTables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

fn offset_square(square: u8, (df, dr): (i8, i8)) -> Option<u8> {
    let file = (square % 8) as i8 + df;
    let rank = (square / 8) as i8 + dr;
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some((rank * 8 + file) as u8)
    } else {
        None
    }
}

fn leaper_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    for (square, entry) in table.iter_mut().enumerate() {
        for &step in steps {
            if let Some(to) = offset_square(square as u8, step) {
                *entry |= 1 << to;
            }
        }
    }
    table
}

/// Slow reference: rays stopping at (and including) the first occupied square.
fn slide(square: u8, occupied: u64, directions: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0;
    for &dir in directions {
        let mut current = square;
        while let Some(next) = offset_square(current, dir) {
            attacks |= 1 << next;
            if occupied >> next & 1 != 0 {
                break;
            }
            current = next;
        }
    }
    attacks
}

/// Squares whose occupancy matters: the rays without their last square.
fn relevant_mask(square: u8, directions: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    for &dir in directions {
        let mut current = square;
        while let Some(next) = offset_square(current, dir) {
            if offset_square(next, dir).is_none() {
                break;
            }
            mask |= 1 << next;
            current = next;
        }
    }
    mask
}

fn find_magics(
    directions: &[(i8, i8); 4],
    rng: &mut Rng,
    attacks_out: &mut Vec<u64>,
) -> [Magic; 64] {
    let mut magics = [Magic::default(); 64];
    let mut occupancies = Vec::with_capacity(4096);
    let mut references = Vec::with_capacity(4096);
    let mut table = Vec::new();
    let mut epoch = Vec::new();
    for square in 0..64u8 {
        let mask = relevant_mask(square, directions);
        let bits = mask.count_ones();
        occupancies.clear();
        references.clear();
        // Enumerate every subset of the mask (carry-rippler).
        let mut subset = 0u64;
        loop {
            occupancies.push(subset);
            references.push(slide(square, subset, directions));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let size = 1usize << bits;
        table.clear();
        table.resize(size, 0u64);
        epoch.clear();
        epoch.resize(size, 0u32);
        let shift = 64 - bits;
        let mut attempt = 0u32;
        let multiplier = loop {
            attempt += 1;
            let candidate = rng.next_u64() & rng.next_u64() & rng.next_u64();
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            let mut ok = true;
            for (&occ, &reference) in occupancies.iter().zip(&references) {
                let idx = (occ.wrapping_mul(candidate) >> shift) as usize;
                if epoch[idx] != attempt {
                    epoch[idx] = attempt;
                    table[idx] = reference;
                } else if table[idx] != reference {
                    ok = false;
                    break;
                }
            }
            if ok {
                break candidate;
            }
        };
        let offset = attacks_out.len();
        attacks_out.resize(offset + size, 0);
        for (&occ, &reference) in occupancies.iter().zip(&references) {
            let idx = (occ.wrapping_mul(multiplier) >> shift) as usize;
            attacks_out[offset + idx] = reference;
        }
        magics[square as usize] = Magic {
            mask,
            multiplier,
            shift,
            offset,
        };
    }
    magics
}

fn build_tables() -> AttackTables {
    let mut rng = Rng::new(0x0F06_5EA2_C4C4_E55E);
    let mut slider_attacks = Vec::new();
    let rook_magics = find_magics(&ROOK_DIRECTIONS, &mut rng, &mut slider_attacks);
    let bishop_magics = find_magics(&BISHOP_DIRECTIONS, &mut rng, &mut slider_attacks);
    let mut pawn = [[0u64; 64]; 2];
    pawn[0] = leaper_table(&[(-1, 1), (1, 1)]);
    pawn[1] = leaper_table(&[(-1, -1), (1, -1)]);
    let mut between = vec![[0u64; 64]; 64];
    for a in 0..64u8 {
        for dir in ROOK_DIRECTIONS.iter().chain(BISHOP_DIRECTIONS.iter()) {
            let mut path = 0u64;
            let mut current = a;
            while let Some(next) = offset_square(current, *dir) {
                between[a as usize][next as usize] = path;
                path |= 1 << next;
                current = next;
            }
        }
    }
    AttackTables {
        knight: leaper_table(&KNIGHT_STEPS),
        king: leaper_table(&KING_STEPS),
        pawn,
        between,
        rook_magics,
        bishop_magics,
        slider_attacks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_equal_slow_rays_on_random_occupancies() {
        let t = tables();
        let mut rng = Rng::new(7);
        for _ in 0..20_000 {
            let occ = rng.next_u64() & rng.next_u64();
            let sq = rng.below(64) as u8;
            assert_eq!(t.rook(sq, occ), slide(sq, occ, &ROOK_DIRECTIONS));
            assert_eq!(t.bishop(sq, occ), slide(sq, occ, &BISHOP_DIRECTIONS));
        }
    }
}
