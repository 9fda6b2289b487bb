//! Reconnaissance Blind Chess rules as reconchess 1.6.9 applies them, and board sets.
