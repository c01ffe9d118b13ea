//! The core has one Rust type per parameter set; JavaScript names the set by a number (44, 65,
//! 87 for ML-DSA). These macros run a body with the set's type in scope.

macro_rules! by_level {
    ($level:expr, $P:ident => $body:expr) => {
        match $level {
            44 => {
                type $P = mldsa::MlDsa44;
                $body
            }
            65 => {
                type $P = mldsa::MlDsa65;
                $body
            }
            87 => {
                type $P = mldsa::MlDsa87;
                $body
            }
            other => {
                return Err($crate::error::range(&format!(
                    "ML-DSA level must be 44, 65 or 87, got {other}"
                )))
            }
        }
    };
}

pub(crate) use by_level;
