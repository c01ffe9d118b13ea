// mldsa.hpp: C++20 header-only wrapper over the C API (mldsa.h) for ML-DSA-44/65/87.
//
// Errors are exceptions (mldsa::error, carrying the mldsa_status): C++20 has no std::expected,
// and a hand-rolled one would be more API than this whole header. A signature that does not
// verify is not exceptional: verify() returns false; anything else that fails (bad key
// encoding, context over 255 bytes, RNG failure) throws.
//
// Keys and signatures are fixed-size std::arrays; arguments are fixed-extent std::spans, so a
// wrong-sized buffer is a compile error. secret_key wipes itself when destroyed or moved from.
#ifndef MLDSA_HPP
#define MLDSA_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>

#include "mldsa.h"

namespace mldsa {

class error : public std::runtime_error {
public:
    explicit error(int status) : std::runtime_error(mldsa_strerror(status)), status_(status) {}
    int status() const noexcept { return status_; }

private:
    int status_;
};

namespace detail {
inline void check(int status) {
    if (status != MLDSA_OK) throw error(status);
}

template <std::size_t N>
void wipe(std::array<std::uint8_t, N> &a) noexcept {
    volatile std::uint8_t *p = a.data();
    for (std::size_t i = 0; i < N; i++) p[i] = 0;
}

// The C functions and sizes of one parameter set, as a traits type.
#define MLDSA_HPP_TRAITS_(p, P)                                                                 \
    struct p##_traits {                                                                         \
        static constexpr std::size_t pk = P##_PUBLIC_KEY_BYTES, sk = P##_SECRET_KEY_BYTES,      \
                                     sig = P##_SIGNATURE_BYTES;                                 \
        static constexpr auto keypair = &p##_keypair;                                           \
        static constexpr auto keypair_from_seed = &p##_keypair_from_seed;                       \
        static constexpr auto sign = &p##_sign;                                                 \
        static constexpr auto sign_deterministic = &p##_sign_deterministic;                     \
        static constexpr auto verify = &p##_verify;                                             \
    };
MLDSA_HPP_TRAITS_(mldsa44, MLDSA44)
MLDSA_HPP_TRAITS_(mldsa65, MLDSA65)
MLDSA_HPP_TRAITS_(mldsa87, MLDSA87)
#undef MLDSA_HPP_TRAITS_
}  // namespace detail

template <class F>
struct parameter_set {
    static constexpr std::size_t PK = F::pk, SK = F::sk, SIG = F::sig;
    static constexpr std::size_t public_key_bytes = PK;
    static constexpr std::size_t secret_key_bytes = SK;
    static constexpr std::size_t signature_bytes = SIG;
    using public_key = std::array<std::uint8_t, PK>;
    using signature = std::array<std::uint8_t, SIG>;
    using bytes = std::span<const std::uint8_t>;

    // The expanded secret key; wiped on destruction, copy-free (move only).
    class secret_key {
    public:
        secret_key() = default;
        secret_key(const secret_key &) = delete;
        secret_key &operator=(const secret_key &) = delete;
        secret_key(secret_key &&o) noexcept : bytes_(o.bytes_) { detail::wipe(o.bytes_); }
        secret_key &operator=(secret_key &&o) noexcept {
            bytes_ = o.bytes_;
            detail::wipe(o.bytes_);
            return *this;
        }
        ~secret_key() { detail::wipe(bytes_); }
        std::span<const std::uint8_t, SK> bytes() const noexcept { return bytes_; }
        static secret_key from_bytes(std::span<const std::uint8_t, SK> b) {
            secret_key k;
            std::copy(b.begin(), b.end(), k.bytes_.begin());
            return k;
        }

    private:
        friend struct parameter_set;
        std::array<std::uint8_t, SK> bytes_{};
    };

    // KeyGen with OS randomness, or from a 32-byte seed.
    static std::pair<public_key, secret_key> generate() {
        std::pair<public_key, secret_key> k;
        detail::check(F::keypair(k.first.data(), k.second.bytes_.data()));
        return k;
    }
    static std::pair<public_key, secret_key> from_seed(std::span<const std::uint8_t, 32> seed) {
        std::pair<public_key, secret_key> k;
        detail::check(F::keypair_from_seed(k.first.data(), k.second.bytes_.data(), seed.data()));
        return k;
    }

    // Hedged ML-DSA.Sign (or deterministic) with an optional context of up to 255 bytes.
    static signature sign(const secret_key &sk, bytes msg, bytes ctx = {}, bool deterministic = false) {
        signature sig;
        auto fn = deterministic ? F::sign_deterministic : F::sign;
        detail::check(fn(sig.data(), msg.data(), msg.size(), ctx.data(), ctx.size(), sk.bytes_.data()));
        return sig;
    }

    // ML-DSA.Verify: true iff sig is valid; throws only for a malformed key or context.
    static bool verify(std::span<const std::uint8_t, PK> pk, bytes msg,
                       std::span<const std::uint8_t, SIG> sig, bytes ctx = {}) {
        int rc = F::verify(sig.data(), sig.size(), msg.data(), msg.size(), ctx.data(), ctx.size(), pk.data());
        if (rc == MLDSA_ERR_INVALID_SIGNATURE) return false;
        detail::check(rc);
        return true;
    }
};

using ml_dsa_44 = parameter_set<detail::mldsa44_traits>;
using ml_dsa_65 = parameter_set<detail::mldsa65_traits>;
using ml_dsa_87 = parameter_set<detail::mldsa87_traits>;

}  // namespace mldsa

#endif  // MLDSA_HPP
