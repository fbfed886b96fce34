//! The operand sizes the 64-bit kernels are compiled for.
//!
//! Every kernel is written once over a [`Size`]: [`Fixed<N>`] makes the digit
//! count a compile-time constant (loop bounds known, bounds checks gone,
//! operands in `[u64; N]` arrays), [`Dyn`] takes it at run time for every
//! other modulus length. [`with_size!`](crate::kernel::size::with_size)
//! picks one for a digit count: the fixed sizes are 16, 24, 32, 48 and 64
//! digits (1024- to 4096-bit moduli).

use zeroize::Zeroize;

/// The number of 64-bit digits `s` of the operands, and the buffers that hold
/// an `s`-digit residue and the `2s`-digit scratch of a product.
pub(crate) trait Size: Copy {
    /// `s` digits.
    type Buf: AsRef<[u64]> + AsMut<[u64]> + Clone + Zeroize;
    /// `2s` digits, contiguous (see [`Size::wide_mut`]).
    type Wide: Zeroize;
    /// `s`.
    fn len(self) -> usize;
    /// `s` zero digits.
    fn buf(self) -> Self::Buf;
    /// `2s` zero digits.
    fn wide(self) -> Self::Wide;
    /// The `2s` digits of `w` as one slice.
    fn wide_mut(w: &mut Self::Wide) -> &mut [u64];
}

/// `N` digits, known when compiling.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fixed<const N: usize>;

impl<const N: usize> Size for Fixed<N> {
    type Buf = [u64; N];
    type Wide = [[u64; N]; 2];
    #[inline(always)]
    fn len(self) -> usize {
        N
    }
    fn buf(self) -> [u64; N] {
        [0; N]
    }
    fn wide(self) -> [[u64; N]; 2] {
        [[0; N]; 2]
    }
    #[inline(always)]
    fn wide_mut(w: &mut [[u64; N]; 2]) -> &mut [u64] {
        w.as_flattened_mut()
    }
}

/// Any number of digits (`>= 1`), known at run time.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dyn(pub(crate) usize);

impl Size for Dyn {
    type Buf = Vec<u64>;
    type Wide = Vec<u64>;
    #[inline(always)]
    fn len(self) -> usize {
        self.0
    }
    fn buf(self) -> Vec<u64> {
        vec![0; self.0]
    }
    fn wide(self) -> Vec<u64> {
        vec![0; 2 * self.0]
    }
    #[inline(always)]
    fn wide_mut(w: &mut Vec<u64>) -> &mut [u64] {
        w
    }
}

/// Run `$body` with `$sz` bound to the [`Size`] for `$s` digits: a
/// [`Fixed`] size for 16, 24, 32, 48 and 64 digits, else [`Dyn`].
macro_rules! with_size {
    ($s:expr, $sz:ident => $body:expr) => {
        with_size!(@fixed [16, 24, 32, 48, 64] $s, $sz => $body)
    };
    (@fixed [$($n:literal),*] $s:expr, $sz:ident => $body:expr) => {
        match $s {
            $($n => {
                let $sz = $crate::kernel::size::Fixed::<$n>;
                $body
            })*
            s => {
                let $sz = $crate::kernel::size::Dyn(s);
                $body
            }
        }
    };
}
pub(crate) use with_size;

/// The digit counts with a [`Fixed`] size in [`with_size!`].
#[cfg(test)]
pub(crate) const FIXED: [usize; 5] = [16, 24, 32, 48, 64];
