// simt::Shape: the extents of a device array, shared by both backends.
#pragma once
#include <cstddef>
#include <initializer_list>
#include <string>

#include "simt/core/errors.hpp"

namespace simt {

/// The extents of a DeviceArray: `n`, `{rows, cols}` or `{d0, d1, d2}`.
struct Shape {
    std::size_t ext[3] = {0, 1, 1};
    int rank = 1;

    Shape(std::size_t n) : ext{n, 1, 1}, rank(1) {}
    Shape(std::initializer_list<std::size_t> e) : rank(static_cast<int>(e.size())) {
        if (e.size() < 1 || e.size() > 3)
            throw Error("simt::Shape: a device array has 1, 2 or 3 dimensions, not " +
                        std::to_string(e.size()));
        int d = 0;
        for (std::size_t v : e) ext[d++] = v;
    }
    std::size_t size() const { return ext[0] * ext[1] * ext[2]; }
    std::string str() const {
        std::string s = "(";
        for (int d = 0; d < rank; ++d) s += (d ? ", " : "") + std::to_string(ext[d]);
        return s + ")";
    }
};

namespace detail {

/// The error both backends give when host data and a device array differ in size.
[[noreturn]] inline void shape_mismatch(const char* what, std::size_t want, std::size_t have) {
    throw Error(std::string("simt: ") + what + ": the device array has " + std::to_string(want) +
                " elements but the host data has " + std::to_string(have));
}

/// The error both backends give when a kernel parameter mdspan<T, N> meets an array of another
/// rank.
[[noreturn]] inline void rank_mismatch(const char* type, int n, const Shape& s) {
    throw Error("simt: a kernel parameter mdspan<" + std::string(type) + ", " + std::to_string(n) +
                "> cannot view a device array of shape " + s.str() + " (" +
                std::to_string(s.rank) + " dimension" + (s.rank > 1 ? "s" : "") + ")");
}

}  // namespace detail
}  // namespace simt
