// C++ example: built with CMake against an installed libmldsa (find_package(mldsa CONFIG)).
#include <cstdio>
#include <string_view>

#include "mldsa.hpp"

int main() {
    using scheme = mldsa::ml_dsa_65;
    std::string_view text = "hello from C++";
    std::span<const std::uint8_t> msg{reinterpret_cast<const std::uint8_t *>(text.data()), text.size()};

    auto [pk, sk] = scheme::generate();
    scheme::signature sig = scheme::sign(sk, msg);
    if (!scheme::verify(pk, msg, sig)) return 1;
    sig[0] ^= 1;
    if (scheme::verify(pk, msg, sig)) return 1;  // a tampered signature must fail
    // Contexts bind: a signature under one does not verify under another or under none.
    const std::array<std::uint8_t, 3> ctx{'a', 'p', 'p'}, other{'a', 'p', 'q'};
    scheme::signature with_ctx = scheme::sign(sk, msg, ctx);
    if (!scheme::verify(pk, msg, with_ctx, ctx)) return 1;
    if (scheme::verify(pk, msg, with_ctx, other) || scheme::verify(pk, msg, with_ctx)) return 1;
    // Deterministic signing: the same bytes twice; hedged signing: different bytes.
    if (scheme::sign(sk, msg, ctx, true) != scheme::sign(sk, msg, ctx, true)) return 1;
    if (scheme::sign(sk, msg, ctx) == scheme::sign(sk, msg, ctx)) return 1;
    try {
        std::array<std::uint8_t, 256> long_ctx{};
        (void)scheme::sign(sk, msg, long_ctx);
        return 1;
    } catch (const mldsa::error &e) {
        if (e.status() != MLDSA_ERR_CONTEXT_TOO_LONG) return 1;
    }
    std::printf("C++: ML-DSA-65 sign/verify ok (%zu-byte signature, backend %s)\n",
                scheme::signature_bytes, mldsa_backend());
    return 0;
}
