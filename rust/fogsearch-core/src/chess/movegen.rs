//! RBC pseudo-legal move generation: python-chess pseudo-legal moves (e.p. included, all four
//! promotions) without its castles, plus RBC castles (rights and empty squares between king and
//! rook suffice; check never matters). A board with a missing king has no moves.

use super::attacks::tables;
use super::board::{Board, BLACK_KINGSIDE, BLACK_QUEENSIDE, WHITE_KINGSIDE, WHITE_QUEENSIDE};
use super::types::{Color, Move, PieceType, Square};

/// A fixed-capacity move list (no heap allocation). 256 exceeds the maximum for any position.
pub struct MoveList {
    moves: [Move; 256],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move {
                from: 0,
                to: 0,
                promotion: None,
            }; 256],
            len: 0,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        // Positions reachable with at most 64 pieces never exceed 256 pseudo-legal moves
        // (bounded by 16 queens' worth of mobility well below this); guard anyway.
        if self.len < self.moves.len() {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn contains(&self, mv: &Move) -> bool {
        self.as_slice().contains(mv)
    }
}

const PROMOTIONS: [PieceType; 4] = [
    PieceType::Queen,
    PieceType::Rook,
    PieceType::Bishop,
    PieceType::Knight,
];

#[inline(always)]
fn push_targets(list: &mut MoveList, from: Square, mut targets: u64) {
    while targets != 0 {
        let to = targets.trailing_zeros() as Square;
        list.push(Move {
            from,
            to,
            promotion: None,
        });
        targets &= targets - 1;
    }
}

#[inline(always)]
fn push_pawn_moves(list: &mut MoveList, mut targets: u64, offset: i32, last_rank: u64) {
    while targets != 0 {
        let to = targets.trailing_zeros() as Square;
        let from = (to as i32 - offset) as Square;
        if (1u64 << to) & last_rank != 0 {
            for p in PROMOTIONS {
                list.push(Move {
                    from,
                    to,
                    promotion: Some(p),
                });
            }
        } else {
            list.push(Move {
                from,
                to,
                promotion: None,
            });
        }
        targets &= targets - 1;
    }
}

/// Per-side geometry of pawn moves.
struct PawnGeometry {
    push_offset: i32,
    /// Where python-chess lets a double push land (it masks the target, not the origin).
    double_push_targets: u64,
    last_rank: u64,
}

#[inline(always)]
fn pawn_geometry(color: Color) -> PawnGeometry {
    match color {
        Color::White => PawnGeometry {
            push_offset: 8,
            double_push_targets: 0xFFFF << 16,
            last_rank: 0xFF << 56,
        },
        Color::Black => PawnGeometry {
            push_offset: -8,
            double_push_targets: 0xFFFF << 32,
            last_rank: 0xFF,
        },
    }
}

#[inline(always)]
fn shift(bb: u64, offset: i32) -> u64 {
    if offset >= 0 {
        bb << offset
    } else {
        bb >> -offset
    }
}

const NOT_A_FILE: u64 = !0x0101_0101_0101_0101;
const NOT_H_FILE: u64 = !0x8080_8080_8080_8080;

impl Board {
    /// Appends every RBC pseudo-legal move to `list` (which is cleared first).
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        list.clear();
        if self.both_kings_present() {
            self.generate_moves(list);
        }
    }

    /// Like [`Board::pseudo_legal_moves`] but also on boards with a missing king, as python-chess
    /// generates them (reconchess builds move actions on a board without the enemy king).
    pub fn pseudo_legal_moves_ignoring_missing_kings(&self, list: &mut MoveList) {
        list.clear();
        self.generate_moves(list);
    }

    fn generate_moves(&self, list: &mut MoveList) {
        let t = tables();
        let us = self.turn.index();
        let own = self.colors[us];
        let enemy = self.colors[1 - us];
        let occupied = own | enemy;
        let targets = !own;

        self.pawn_moves(list, own, enemy, occupied);
        let mut knights = self.pieces[PieceType::Knight.index()] & own;
        while knights != 0 {
            let from = knights.trailing_zeros() as Square;
            push_targets(list, from, t.knight[from as usize] & targets);
            knights &= knights - 1;
        }
        let queens = self.pieces[PieceType::Queen.index()];
        let mut diagonal = (self.pieces[PieceType::Bishop.index()] | queens) & own;
        while diagonal != 0 {
            let from = diagonal.trailing_zeros() as Square;
            push_targets(list, from, t.bishop(from, occupied) & targets);
            diagonal &= diagonal - 1;
        }
        let mut straight = (self.pieces[PieceType::Rook.index()] | queens) & own;
        while straight != 0 {
            let from = straight.trailing_zeros() as Square;
            push_targets(list, from, t.rook(from, occupied) & targets);
            straight &= straight - 1;
        }
        let mut kings = self.pieces[PieceType::King.index()] & own;
        while kings != 0 {
            let from = kings.trailing_zeros() as Square;
            push_targets(list, from, t.king[from as usize] & targets);
            kings &= kings - 1;
        }
        self.castling_moves(list, occupied);
    }

    fn pawn_moves(&self, list: &mut MoveList, own: u64, enemy: u64, occupied: u64) {
        let g = pawn_geometry(self.turn);
        let pawns = self.pieces[PieceType::Pawn.index()] & own;
        let empty = !occupied;
        let single = shift(pawns, g.push_offset) & empty;
        let double = shift(single, g.push_offset) & empty & g.double_push_targets;
        push_pawn_moves(list, single, g.push_offset, g.last_rank);
        push_pawn_moves(list, double, 2 * g.push_offset, 0);
        let (left, right) = (g.push_offset - 1, g.push_offset + 1);
        push_pawn_moves(
            list,
            shift(pawns & NOT_A_FILE, left) & enemy,
            left,
            g.last_rank,
        );
        push_pawn_moves(
            list,
            shift(pawns & NOT_H_FILE, right) & enemy,
            right,
            g.last_rank,
        );
        let mut capturers = self.ep_capturers();
        if let Some(ep) = self.ep_square {
            while capturers != 0 {
                let from = capturers.trailing_zeros() as Square;
                list.push(Move {
                    from,
                    to: ep,
                    promotion: None,
                });
                capturers &= capturers - 1;
            }
        }
    }

    fn castling_moves(&self, list: &mut MoveList, occupied: u64) {
        // Rights imply king on e1/e8 and rook on the corner (kept so by parsing and push).
        let (kingside, queenside, king_from) = match self.turn {
            Color::White => (WHITE_KINGSIDE, WHITE_QUEENSIDE, 4u8),
            Color::Black => (BLACK_KINGSIDE, BLACK_QUEENSIDE, 60u8),
        };
        let own_king_home = self.pieces[PieceType::King.index()]
            & self.colors[self.turn.index()]
            & (1u64 << king_from)
            != 0;
        if !own_king_home {
            return;
        }
        // Squares strictly between king and rook: f, g for O-O; b, c, d for O-O-O.
        let kingside_between = 0b11u64 << (king_from + 1);
        let queenside_between = 0b111u64 << (king_from - 3);
        if self.castling & kingside != 0 && occupied & kingside_between == 0 {
            list.push(Move {
                from: king_from,
                to: king_from + 2,
                promotion: None,
            });
        }
        if self.castling & queenside != 0 && occupied & queenside_between == 0 {
            list.push(Move {
                from: king_from,
                to: king_from - 2,
                promotion: None,
            });
        }
    }

    /// The number of RBC pseudo-legal moves, counted without listing them (bulk perft leaves).
    pub fn count_pseudo_legal_moves(&self) -> u64 {
        if !self.both_kings_present() {
            return 0;
        }
        let t = tables();
        let us = self.turn.index();
        let own = self.colors[us];
        let enemy = self.colors[1 - us];
        let occupied = own | enemy;
        let targets = !own;
        let g = pawn_geometry(self.turn);
        let pawns = self.pieces[PieceType::Pawn.index()] & own;
        let empty = !occupied;
        let single = shift(pawns, g.push_offset) & empty;
        let double = shift(single, g.push_offset) & empty & g.double_push_targets;
        let (left, right) = (g.push_offset - 1, g.push_offset + 1);
        let captures_left = shift(pawns & NOT_A_FILE, left) & enemy;
        let captures_right = shift(pawns & NOT_H_FILE, right) & enemy;
        let promoting = (single & g.last_rank).count_ones()
            + (captures_left & g.last_rank).count_ones()
            + (captures_right & g.last_rank).count_ones();
        let mut count = single.count_ones()
            + double.count_ones()
            + captures_left.count_ones()
            + captures_right.count_ones()
            + 3 * promoting;
        count += self.ep_capturers().count_ones();

        let mut knights = self.pieces[PieceType::Knight.index()] & own;
        while knights != 0 {
            count += (t.knight[knights.trailing_zeros() as usize] & targets).count_ones();
            knights &= knights - 1;
        }
        let queens = self.pieces[PieceType::Queen.index()];
        let mut diagonal = (self.pieces[PieceType::Bishop.index()] | queens) & own;
        while diagonal != 0 {
            count +=
                (t.bishop(diagonal.trailing_zeros() as Square, occupied) & targets).count_ones();
            diagonal &= diagonal - 1;
        }
        let mut straight = (self.pieces[PieceType::Rook.index()] | queens) & own;
        while straight != 0 {
            count += (t.rook(straight.trailing_zeros() as Square, occupied) & targets).count_ones();
            straight &= straight - 1;
        }
        let mut kings = self.pieces[PieceType::King.index()] & own;
        while kings != 0 {
            count += (t.king[kings.trailing_zeros() as usize] & targets).count_ones();
            kings &= kings - 1;
        }
        let mut castles = MoveList::new();
        self.castling_moves(&mut castles, occupied);
        count as u64 + castles.len() as u64
    }

    /// Whether `mv` is an RBC pseudo-legal move here (python-chess `is_pseudo_legal` without its
    /// castles, plus RBC castles). Out-of-range squares are simply not pseudo-legal.
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        if !mv.squares_valid() {
            return false;
        }
        let mut list = MoveList::new();
        self.pseudo_legal_moves(&mut list);
        list.contains(&mv)
    }

    /// Counts leaf nodes `depth` plies deep (bulk-counted at depth 1). Terminal boards (a king
    /// missing) have no children.
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_pseudo_legal_moves(),
            _ => {
                let mut list = MoveList::new();
                self.pseudo_legal_moves(&mut list);
                let mut nodes = 0;
                for &mv in list.iter() {
                    let mut child = self.clone();
                    child.push(Some(mv));
                    nodes += child.perft(depth - 1);
                }
                nodes
            }
        }
    }
}
