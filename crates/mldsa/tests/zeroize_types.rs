//! Z-1, the compile-time half: every public type that holds secret key material wipes itself
//! on drop (`zeroize::ZeroizeOnDrop`). This file does not compile if one stops doing so. (The
//! run-time half, scanning dead stack and freed heap for stale copies, is zeroize_runtime/.)

use mldsa::legacy::{Dilithium2, Dilithium3, Dilithium5};
use mldsa::{MlDsa44, MlDsa65, MlDsa87};
use zeroize::ZeroizeOnDrop;

const fn wipes_itself<T: ZeroizeOnDrop>() {}

const _: () = {
    wipes_itself::<mldsa::SigningKey<MlDsa44>>();
    wipes_itself::<mldsa::SigningKey<MlDsa65>>();
    wipes_itself::<mldsa::SigningKey<MlDsa87>>();
    wipes_itself::<mldsa::legacy::SigningKey<Dilithium2>>();
    wipes_itself::<mldsa::legacy::SigningKey<Dilithium3>>();
    wipes_itself::<mldsa::legacy::SigningKey<Dilithium5>>();
};
