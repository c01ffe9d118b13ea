//! The places where a value derived from secrets becomes public, on purpose.
//!
//! FIPS 204 signing may reveal some values (ASSURANCE.md section 2 in the team's notes, after
//! the Dilithium analysis): rho, the public key, which ExpandS nibbles were rejected, every
//! c-tilde, the yes/no outcome of each of the four signing checks (the last: more than omega
//! hints; not the count), and the accepted signature. Strict decoding may reveal whether a key
//! was malformed. Each call of `public` or `public_mut` marks one such site; it carries a
//! `Constant time:` comment, and under `--cfg mldsa_ct` tells valgrind the value is public.
//! `tests/ct_sites.rs` holds the reviewed list, site by site (file and line of code), and fails
//! if a site is added, removed, moved to other code or left without its comment, or if
//! `public`/`public_mut` is renamed on import or passed as a function value; `SITES` is the
//! list's length.

/// Number of declassification sites in the library.
pub const SITES: usize = 21;

/// Declares `value` public (a reviewed declassification site; see the module docs).
#[inline(always)]
pub(crate) fn public<T>(mut value: T) -> T {
    public_mut(&mut value);
    value
}

/// Declares `*value` public (a reviewed declassification site; see the module docs).
#[inline(always)]
pub(crate) fn public_mut<T: ?Sized>(value: &mut T) {
    #[cfg(mldsa_ct)]
    crate::support::ct::declassify(value);
    #[cfg(not(mldsa_ct))]
    let _ = value;
}
