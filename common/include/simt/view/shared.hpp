// simt::shared<T[N]...>: a block's shared array, written once over the backend's storage policy.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not simt's private headers"
#endif
#include <cstddef>
#include <source_location>
#include <type_traits>

#include "simt/core/keywords.hpp"
#include "simt/view/mdspan.hpp"
#include "simt/view/span.hpp"

namespace simt::detail {

/// The extents of an array type in a local array: int[4][8] gives {4, 8}. Computed in place,
/// not read from a static table, which device code could not reach.
template <class A>
struct shared_extents {
    std::size_t ext[std::rank_v<A>];
    SIMT_DEVICE_FN constexpr shared_extents() : ext{} {
        for (int d = 0; d < std::rank_v<A>; ++d)
            ext[d] = d == 0   ? std::extent_v<A, 0>
                     : d == 1 ? std::extent_v<A, 1>
                              : std::extent_v<A, 2>;
    }
};

/// `name[i][j]` of a shared array before its last index: remembers the indices so far.
template <class A, int K, class Acc>
struct shared_path {
    static constexpr int R = std::rank_v<A>;
    using index_type = typename Acc::index_type;

    typename Acc::data_handle_type base;
    index_type idx[K];

    SIMT_HOT SIMT_DEVICE_FN decltype(auto) operator[](index_type i) const {
        if constexpr (K + 1 < R) {
            return shared_path<A, K + 1, Acc>{base, {idx[0], i}};
        } else {
            const shared_extents<A> e;
            if constexpr (R == 2) {
                const index_type all[2] = {idx[0], i};
                return Acc::access(base, all, e.ext, "shared");
            } else {
                const index_type all[3] = {idx[0], idx[1], i};
                return Acc::access(base, all, e.ext, "shared");
            }
        }
    }
};

}  // namespace simt::detail

namespace simt {

/// A shared-memory array: `__shared__ simt::shared<float[32][33]> tile;` then `tile[i][j]`.
/// In the simulator: storage per block, poisoned when a block starts, every index checked;
/// `__shared__` makes it one object per OS thread, which is one block at a time.
///
/// `B::shared_storage<A>` holds the array: under nvcc only the array (no constructor, as CUDA
/// requires of __shared__ variables); in the simulator also its allocation record, told where
/// it was declared. `B::accessor<T>::raw_shared` indexes the C array itself (unchecked CUDA).
template <class A, class B>
class basic_shared {
    static_assert(std::is_array_v<A> && std::extent_v<A> > 0,
                  "write simt::shared<T[N]>, shared<T[N][M]> or shared<T[N][M][K]>");
    static_assert(std::rank_v<A> <= 3, "simt::shared has at most 3 dimensions");

public:
    using value_type = std::remove_all_extents_t<A>;
    static constexpr int rank = std::rank_v<A>;
    static_assert(std::is_trivially_copyable_v<value_type>,
                  "shared memory holds trivially copyable elements, as in CUDA");

private:
    using Acc = typename B::template accessor<value_type>;
    using Storage = typename B::template shared_storage<A>;

public:
    basic_shared() requires(!Storage::tracks_site) = default;
    explicit basic_shared(std::source_location site = std::source_location::current())
        requires(Storage::tracks_site)
        : s_(site) {}
    basic_shared(const basic_shared&) = delete;
    basic_shared& operator=(const basic_shared&) = delete;

    SIMT_HOT SIMT_DEVICE_FN decltype(auto) operator[](typename Acc::index_type i) {
        if constexpr (Acc::raw_shared) {
            return s_.array()[i];
        } else if constexpr (rank == 1) {
            const typename Acc::index_type idx[1] = {i};
            return Acc::access(s_.handle(), idx, detail::shared_extents<A>().ext, "shared");
        } else {
            return detail::shared_path<A, 1, Acc>{s_.handle(), {i}};
        }
    }
    /// A flat view of all the elements.
    SIMT_DEVICE_FN basic_span<value_type, B> as_span() {
        return {s_.handle(), sizeof(A) / sizeof(value_type)};
    }
    /// An N-D view with the array's own extents.
    SIMT_DEVICE_FN basic_mdspan<value_type, rank, B> as_mdspan() {
        return {s_.handle(), detail::shared_extents<A>().ext};
    }
    /// The address of element 0, for atomics: `atomicAdd(&bins[i], 1)` also works.
    SIMT_DEVICE_FN typename Acc::data_handle_type data() { return s_.handle(); }

private:
    Storage s_;
};

template <class A>
using shared = basic_shared<A, detail::backend>;

}  // namespace simt
