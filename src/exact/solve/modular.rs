//! The integer entries of a row-scaled system for the multi-modular and p-adic routes: machine
//! words when they fit ([`Int`]), with their residues modulo a prime (the arithmetic modulo a
//! prime is [`crate::num::modular`]'s).

use super::*;

/// An integer entry of a row-scaled system: a machine word when it fits.
#[derive(Clone, Debug)]
pub(super) enum Int {
    Small(i64),
    Big(BigInt),
}

impl Int {
    pub(super) fn from_big(x: BigInt) -> Int {
        match i64::try_from(&x) {
            Ok(v) => Int::Small(v),
            Err(_) => Int::Big(x),
        }
    }

    /// The residue in `0..p`.
    pub(super) fn residue(&self, p: u64) -> u64 {
        match self {
            Int::Small(v) => residue_i64(*v, p),
            Int::Big(v) => residue(v, p),
        }
    }
}

/// A sparse row of integers: (column, value).
pub(super) type IntRow = Vec<(u32, Int)>;

/// A sparse matrix of floats as rows of (column, value).
pub type FloatRows = [Vec<(usize, f64)>];
