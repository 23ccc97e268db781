// simt::shared<T[N]...>: a block's shared array, fresh and checked for every block.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "simt/sim/memory/mdspan.hpp"
#include "simt/sim/memory/span.hpp"

namespace simt::sim::detail {

/// Counts blocks started on this OS thread; a shared array whose epoch differs is stale.
inline thread_local std::uint64_t tls_block_epoch = 0;

/// Poisons a shared array for the block now running and accounts its bytes to the block.
void refresh_shared(Allocation& a, std::uint64_t& epoch);
/// Fills in a shared array's record when it is first constructed on an OS thread.
void init_shared(Allocation& a, std::byte* base, std::size_t bytes, std::size_t elem_size,
                 const char* elem_type, Loc site);
/// The block's dynamic shared memory (LaunchOptions::shared_bytes), fresh for every block.
Allocation* dynamic_shared_area();

/// The extents of an array type, as an array: int[4][8] gives {4, 8}.
template <class A, class D = std::make_index_sequence<std::rank_v<A>>>
struct array_extents;
template <class A, std::size_t... D>
struct array_extents<A, std::index_sequence<D...>> {
    static constexpr std::size_t value[sizeof...(D)] = {std::extent_v<A, D>...};
};

/// `name[i][j]` before its last index: remembers the indices so far.
template <class A, int K>
struct shared_path {
    using T = std::remove_all_extents_t<A>;
    static constexpr int R = std::rank_v<A>;

    T* base;
    const Allocation* a;
    std::ptrdiff_t idx[K];

    [[gnu::always_inline]] auto operator[](Index i) const {
        if constexpr (K + 1 == R) {
            std::ptrdiff_t all[R];
            for (int d = 0; d < K; ++d) all[d] = idx[d];
            all[K] = i.value;
            return element_at<T, R>(base, a, all, extents(), i.loc);
        } else {
            shared_path<A, K + 1> next{base, a, {}};
            for (int d = 0; d < K; ++d) next.idx[d] = idx[d];
            next.idx[K] = i.value;
            return next;
        }
    }

    static constexpr const std::size_t (&extents())[R] { return array_extents<A>::value; }
};

}  // namespace simt::sim::detail

namespace simt {

/// A shared-memory array: `__shared__ simt::shared<float[32][33]> tile;` then `tile[i][j]`.
/// In the simulator: storage per block, poisoned when a block starts, every index checked;
/// `__shared__` makes it one object per OS thread, which is one block at a time.
template <class A>
class shared {
    static_assert(std::is_array_v<A> && std::extent_v<A> > 0,
                  "write simt::shared<T[N]>, shared<T[N][M]> or shared<T[N][M][K]>");
    static_assert(std::rank_v<A> <= 3, "simt::shared has at most 3 dimensions");

public:
    using value_type = std::remove_all_extents_t<A>;
    static constexpr int rank = std::rank_v<A>;
    static_assert(std::is_trivially_copyable_v<value_type>,
                  "shared memory holds trivially copyable elements, as in CUDA");

    explicit shared(sim::Loc site = sim::Loc::current()) {
        sim::detail::init_shared(alloc_, reinterpret_cast<std::byte*>(&data_), sizeof(A),
                                 sizeof(value_type), simt::detail::type_name<value_type>(), site);
    }
    shared(const shared&) = delete;
    shared& operator=(const shared&) = delete;

    [[gnu::always_inline]] auto operator[](sim::Index i) {
        fresh();
        return sim::detail::shared_path<A, 0>{first(), &alloc_, {}}[i];
    }
    /// A flat view of all the elements.
    span<value_type> as_span() {
        fresh();
        return span<value_type>(ptr<value_type>(first(), &alloc_), sizeof(A) / sizeof(value_type));
    }
    /// An N-D view with the array's own extents.
    mdspan<value_type, rank> as_mdspan() {
        fresh();
        return mdspan<value_type, rank>(ptr<value_type>(first(), &alloc_),
                                        sim::detail::shared_path<A, 0>::extents());
    }
    /// The address of element 0, for atomics: `atomicAdd(&bins[i], 1)` also works.
    ptr<value_type> data() {
        fresh();
        return ptr<value_type>(first(), &alloc_);
    }

private:
    value_type* first() { return reinterpret_cast<value_type*>(&data_); }
    void fresh() {
        if (epoch_ != sim::detail::tls_block_epoch) [[unlikely]]
            sim::detail::refresh_shared(alloc_, epoch_);
    }

    alignas(16) A data_;
    sim::detail::Allocation alloc_;
    std::uint64_t epoch_ = 0;
};

/// The dynamic shared memory of the running block (LaunchOptions::shared_bytes), as T.
/// In the simulator: fresh (poisoned) per block and bounds-checked.
template <class T>
span<T> dynamic_shared() {
    auto* a = sim::detail::dynamic_shared_area();
    return span<T>(ptr<T>(reinterpret_cast<T*>(a->base), a), a->bytes / sizeof(T));
}

}  // namespace simt
