// nvcuda::wmma in a simulator build (<mma.h>): a warp's tensor-core fragments, their loads,
// stores and fills, and mma_sync, D = A * B + C on one tile.
//
// What CUDA leaves unspecified, simt fixes, and the checks rely on nothing else:
//  - Which lane holds which element. Here x[i] of lane l is element i * 32 + l of the fragment's
//    tile in row-major order (rows x cols / 32 of them, so 8 for a 16x16 tile, where CUDA's half
//    fragments report 16). Code that only applies the same operation to every x[i] of a
//    fragment, as CUDA allows, works alike on both. So the warp loads and stores slot i of every
//    lane together, 32 neighbouring elements: SIMT_PROFILE sees the tile's sectors, in
//    rows x cols / 32 requests where a GPU's wmma loads are fewer and wider (docs/profiling.md).
//  - The order of the sums in mma_sync: each element of D is C plus the K products in order of
//    k, in float (double for double), then rounded to D's type. A tensor core adds in another
//    order and, for half inputs, rounds differently: compare results with a tolerance.
// Each lane's loads and stores are its own accesses, at the caller's line, so racecheck and
// memcheck see them as they see a plain load or store. Every operation is a meeting of the whole
// warp, as CUDA requires all 32 lanes to make it: a lane that skips one is a deadlock naming it,
// and lanes calling different operations there are a warp-divergence error. The meetings order
// no memory: a warp that stores a tile to shared memory and loads it back needs __syncwarp()
// between, as on a GPU.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp> and <mma.h>, not the simulator's headers"
#endif
#include <cstdint>
#include <type_traits>

#include "simt/sim/bf16.hpp"
#include "simt/sim/fp16.hpp"
#include "simt/sim/location.hpp"
#include "simt/sim/warp/intrinsics.hpp"

namespace nvcuda::wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

namespace detail {

using simt::sim::Loc;

template <class Use, int M, int N, int K>
struct tile_shape;
template <int M, int N, int K>
struct tile_shape<matrix_a, M, N, K> {
    static constexpr int rows = M, cols = K;
};
template <int M, int N, int K>
struct tile_shape<matrix_b, M, N, K> {
    static constexpr int rows = K, cols = N;
};
template <int M, int N, int K>
struct tile_shape<accumulator, M, N, K> {
    static constexpr int rows = M, cols = N;
};

/// The products and sums of mma_sync are made in this type.
template <class T>
using wide_t = std::conditional_t<std::is_same_v<T, double>, double,
                                  std::conditional_t<std::is_integral_v<T>, int, float>>;

template <class T>
constexpr bool shape_of_cuda(int m, int n, int k) {
    if constexpr (std::is_same_v<T, double>) return m == 8 && n == 8 && k == 4;
    else return (m == 16 && n == 16 && k == 16) || (m == 32 && n == 8 && k == 16) ||
                (m == 8 && n == 32 && k == 16);
}

inline unsigned lane() {
    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32;
}

/// Every wmma operation is a meeting of the warp's 32 lanes.
inline void meet(Loc loc, const char* what) {
    simt::sim::detail::warp_collective(0xffffffffu, nullptr, loc, what);
}

}  // namespace detail

/// One warp's share of a tile: A (M x K), B (K x N) or the accumulator (M x N). Its x[] is this
/// lane's part (see the file comment for which elements).
template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
    static_assert(detail::shape_of_cuda<T>(M, N, K),
                  "wmma::fragment: simt provides CUDA's shapes m16n16k16, m32n8k16 and m8n32k16 "
                  "(half, __nv_bfloat16, signed or unsigned char, with float, half or int "
                  "accumulators) and m8n8k4 (double)");
    static_assert(std::is_same_v<Use, accumulator> == std::is_void_v<Layout>,
                  "wmma::fragment: matrix_a and matrix_b take a layout (row_major or col_major); "
                  "the accumulator takes none (its load and store name one)");

public:
    using element_type = T;
    using storage_element_type = T;
    static constexpr int rows = detail::tile_shape<Use, M, N, K>::rows;
    static constexpr int cols = detail::tile_shape<Use, M, N, K>::cols;
    static constexpr int num_elements = rows * cols / 32;
    T x[num_elements];
};

/// Every element of the fragment set to `v`, in every lane.
template <class Use, int M, int N, int K, class T, class Layout>
void fill_fragment(fragment<Use, M, N, K, T, Layout>& f, const T& v,
                   simt::sim::Loc loc = simt::sim::Loc::current()) {
    detail::meet(loc, "wmma::fill_fragment()");
    for (auto& e : f.x) e = v;
}

namespace detail {

/// The address of element (r, c) of a tile at `p` with leading dimension `ldm`.
template <class P>
[[gnu::always_inline]] inline P* element(P* p, unsigned ldm, int r, int c, bool row_major) {
    return row_major ? p + std::size_t(r) * ldm + c : p + std::size_t(c) * ldm + r;
}

// Always inlined, as are the loads and stores below: each access's address then maps to the
// caller's line, which the reports name (report/symbolize.cpp skips simt's own frames).
template <class F, class P>
[[gnu::always_inline]] inline void load(F& f, P* p, unsigned ldm, bool row_major, Loc loc,
                                        const char* what) {
    meet(loc, what);
    for (int i = 0, e = int(lane()); i < F::num_elements; ++i, e += 32)
        f.x[i] = *element(p, ldm, e / F::cols, e % F::cols, row_major);
}

}  // namespace detail

/// The warp loads A or B from `p` (global or shared memory), rows (row_major) or columns
/// (col_major) `ldm` elements apart.
template <class Use, int M, int N, int K, class T, class Layout>
requires(!std::is_same_v<Use, accumulator>)
[[gnu::always_inline]] inline void load_matrix_sync(fragment<Use, M, N, K, T, Layout>& f, const T* p, unsigned ldm,
                      simt::sim::Loc loc = simt::sim::Loc::current()) {
    detail::load(f, p, ldm, std::is_same_v<Layout, row_major>, loc, "wmma::load_matrix_sync()");
}
/// The warp loads the accumulator from `p`, laid out as `layout` says.
template <int M, int N, int K, class T>
[[gnu::always_inline]] inline void load_matrix_sync(fragment<accumulator, M, N, K, T>& f, const T* p, unsigned ldm,
                      layout_t layout, simt::sim::Loc loc = simt::sim::Loc::current()) {
    detail::load(f, p, ldm, layout == mem_row_major, loc, "wmma::load_matrix_sync()");
}
/// The warp stores the accumulator to `p`, laid out as `layout` says.
template <int M, int N, int K, class T>
[[gnu::always_inline]] inline void store_matrix_sync(T* p, const fragment<accumulator, M, N, K, T>& f, unsigned ldm,
                       layout_t layout, simt::sim::Loc loc = simt::sim::Loc::current()) {
    using F = fragment<accumulator, M, N, K, T>;
    detail::meet(loc, "wmma::store_matrix_sync()");
    for (int i = 0, e = int(detail::lane()); i < F::num_elements; ++i, e += 32)
        *detail::element(p, ldm, e / F::cols, e % F::cols, layout == mem_row_major) = f.x[i];
}

namespace detail {

/// One lane's operands of mma_sync, for the lane that computes every lane's D.
template <class D, class A, class B, class C>
struct mma_part : simt::sim::detail::WarpCollective {
    D* d;
    const A* a;
    const B* b;
    const C* c;

    static void compute(simt::sim::detail::WarpCollective* const* lanes) {
        constexpr int N = D::cols, K = A::cols;
        using W = wide_t<typename A::element_type>;
        auto part = [&](int l) { return static_cast<const mma_part*>(lanes[l]); };
        // Element e of a tile is x[e / 32] of lane e % 32.
        auto a_at = [&](int e) { return static_cast<W>(part(e % 32)->a->x[e / 32]); };
        auto b_at = [&](int e) { return static_cast<W>(part(e % 32)->b->x[e / 32]); };
        // D is computed in full before any of it is written: d may be c.
        typename D::element_type out[32][D::num_elements];
        for (int l = 0; l < 32; ++l)
            for (int i = 0; i < D::num_elements; ++i) {
                const int e = i * 32 + l, r = e / N, col = e % N;
                W sum = static_cast<W>(part(l)->c->x[i]);
                for (int k = 0; k < K; ++k) sum += a_at(r * K + k) * b_at(k * N + col);
                out[l][i] = static_cast<typename D::element_type>(sum);
            }
        for (int l = 0; l < 32; ++l)
            for (int i = 0; i < D::num_elements; ++i) part(l)->d->x[i] = out[l][i];
    }
};

}  // namespace detail

/// D = A * B + C over the warp's tile; d may be c. Every lane gets its part of D.
template <int M, int N, int K, class TAB, class LA, class LB, class TC, class TD>
void mma_sync(fragment<accumulator, M, N, K, TD>& d, const fragment<matrix_a, M, N, K, TAB, LA>& a,
              const fragment<matrix_b, M, N, K, TAB, LB>& b,
              const fragment<accumulator, M, N, K, TC>& c, bool satf = false,
              simt::sim::Loc loc = simt::sim::Loc::current()) {
    (void)satf;
    using Part = detail::mma_part<fragment<accumulator, M, N, K, TD>,
                                  fragment<matrix_a, M, N, K, TAB, LA>,
                                  fragment<matrix_b, M, N, K, TAB, LB>,
                                  fragment<accumulator, M, N, K, TC>>;
    Part mine;
    mine.run = &Part::compute;
    mine.d = &d, mine.a = &a, mine.b = &b, mine.c = &c;
    simt::sim::detail::warp_collective(0xffffffffu, &mine, loc, "wmma::mma_sync()");
}

}  // namespace nvcuda::wmma
