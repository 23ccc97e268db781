// simt::guvectorize(signature, f): a function of whole rows (or matrices) applied to every row of
// an array on the device, like Numba's @guvectorize(target='cuda'). Uses only <simt/api.hpp>:
// the same code in both backends.
#pragma once
#include <cctype>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "simt/api.hpp"
#include "simt/library/grid.hpp"

namespace simt::detail {

/// A core argument's view type and rank: span<T> is 1-D, mdspan<T, N> is N-D.
template <class V>
struct core_view;
template <class T>
struct core_view<simt::span<T>> {
    static constexpr int rank = 1;
    using element = std::remove_const_t<T>;
};
template <class T, int N>
struct core_view<simt::mdspan<T, N>> {
    static constexpr int rank = N;
    using element = std::remove_const_t<T>;
};

/// The two parameter types of f(in_view, out_view).
template <class M>
struct gufunc_params;
template <class C, class In, class Out>
struct gufunc_params<void (C::*)(In, Out) const> {
    using in = std::remove_cvref_t<In>;
    using out = std::remove_cvref_t<Out>;
};

/// The view of core number `b` of an array whose cores have `ext` (rank R) and `size` elements.
template <class View, int R>
SIMT_DEVICE_FN View core_at(simt::ptr<typename View::element_type> base, std::size_t b,
                            const std::size_t (&ext)[3], std::size_t size) {
    auto first = base + static_cast<std::ptrdiff_t>(b * size);
    if constexpr (R == 1) {
        return View(first, ext[0]);
    } else {
        std::size_t e[R];
        for (int d = 0; d < R; ++d) e[d] = ext[d];
        return View(first, e);
    }
}

struct CoreShape {
    std::size_t ext[3] = {1, 1, 1};
    std::size_t size = 1;  ///< elements per core
};

template <class F, class InView, class OutView, int InR, int OutR>
__global__ void gufunc_kernel(F f, simt::ptr<typename InView::element_type> in,
                              simt::ptr<typename OutView::element_type> out, std::size_t cores,
                              CoreShape in_core, CoreShape out_core) {
    for (std::size_t b = simt::grid<1>(); b < cores; b += simt::gridsize<1>())
        f(core_at<InView, InR>(in, b, in_core.ext, in_core.size),
          core_at<OutView, OutR>(out, b, out_core.ext, out_core.size));
}

/// "(m,n)->(m,n)" as the dimension names of the input and of the output core.
struct Signature {
    std::vector<char> in, out;
};
Signature parse_signature(const std::string& sig);

}  // namespace simt::detail

namespace simt {

/// A generalized ufunc: f sees one core of the input (a row for "(n)->()", a matrix for
/// "(m,n)->(m,n)") and writes the matching core of the output; one device thread per core.
template <class F>
class Gufunc {
    using Params = detail::gufunc_params<decltype(&F::operator())>;
    using InView = typename Params::in;
    using OutView = typename Params::out;
    using T = typename detail::core_view<InView>::element;
    using R = typename detail::core_view<OutView>::element;
    static constexpr int in_rank = detail::core_view<InView>::rank;
    static constexpr int out_rank = detail::core_view<OutView>::rank;

public:
    Gufunc(std::string signature, F f)
        : sig_(detail::parse_signature(signature)), text_(signature), f_(f) {
        if (static_cast<int>(sig_.in.size()) != in_rank)
            fail("its input core has " + std::to_string(sig_.in.size()) +
                 " dimensions but f takes a " + std::to_string(in_rank) + "-D view");
        // A scalar output core, "()", is a 1-element span: f writes out[0], as in Numba.
        int out_core = sig_.out.empty() ? 1 : static_cast<int>(sig_.out.size());
        if (out_core != out_rank)
            fail("its output core has " + std::to_string(sig_.out.size()) +
                 " dimensions but f takes a " + std::to_string(out_rank) + "-D view");
    }

    /// Applies f to every core of `in` and returns the outputs, shaped loop dims + output core.
    DeviceArray<R> operator()(const DeviceArray<T>& in) const {
        Plan p = plan(in);
        std::size_t dims[3];
        int rank = 0;
        for (int d = 0; d < in.rank() - in_rank; ++d) dims[rank++] = in.extent(d);
        for (char name : sig_.out) dims[rank++] = p.in_core.ext[index_of(name)];
        if (rank == 0) dims[rank++] = 1;
        if (rank > 3) fail("the result would have more than 3 dimensions");
        Shape s = rank == 1   ? Shape(dims[0])
                  : rank == 2 ? Shape{dims[0], dims[1]}
                              : Shape{dims[0], dims[1], dims[2]};
        DeviceArray<R> out(s);
        run(in, out, p);
        return out;
    }
    /// The same for a host vector (one core, or rows of a 2-D core as given by `shape`).
    std::vector<R> operator()(const std::vector<T>& host, Shape shape) const {
        return (*this)(to_device(host, shape)).copy_to_host();
    }
    /// Writes into `out`, whose shape must be the loop dimensions followed by the output core.
    void operator()(const DeviceArray<T>& in, DeviceArray<R>& out) const {
        Plan p = plan(in);
        if (out.size() != p.cores * p.out_core.size)
            fail("the output array has " + std::to_string(out.size()) + " elements, expected " +
                 std::to_string(p.cores * p.out_core.size));
        run(in, out, p);
    }

private:
    struct Plan {
        std::size_t cores = 1;
        detail::CoreShape in_core, out_core;
    };

    [[noreturn]] void fail(const std::string& why) const {
        throw Error("simt::guvectorize(\"" + text_ + "\"): " + why);
    }
    int index_of(char name) const {
        for (std::size_t d = 0; d < sig_.in.size(); ++d)
            if (sig_.in[d] == name) return static_cast<int>(d);
        fail(std::string("output dimension '") + name +
             "' is not an input dimension: pass an output array");
    }

    Plan plan(const DeviceArray<T>& in) const {
        if (in.rank() < in_rank)
            fail("the input has " + std::to_string(in.rank()) +
                 " dimensions, fewer than its core's " + std::to_string(in_rank));
        Plan p;
        int loop = in.rank() - in_rank;
        for (int d = 0; d < loop; ++d) p.cores *= in.extent(d);
        for (int d = 0; d < in_rank; ++d) {
            p.in_core.ext[d] = in.extent(loop + d);
            p.in_core.size *= in.extent(loop + d);
        }
        for (std::size_t d = 0; d < sig_.out.size(); ++d) {
            p.out_core.ext[d] = p.in_core.ext[index_of(sig_.out[d])];
            p.out_core.size *= p.out_core.ext[d];
        }
        return p;
    }

    void run(const DeviceArray<T>& in, DeviceArray<R>& out, const Plan& p) const {
        const unsigned threads = 128;
        std::size_t blocks = (p.cores + threads - 1) / threads;
        launch(detail::gufunc_kernel<F, InView, OutView, in_rank, out_rank>,
               static_cast<unsigned>(blocks < 1024 ? blocks : 1024), threads)(
            f_, ptr<const T>(in), ptr<R>(out), p.cores, p.in_core, p.out_core);
    }

    detail::Signature sig_;
    std::string text_;
    F f_;
};

/// Makes a gufunc from a layout signature and `[] __host__ __device__ (in_view, out_view)`:
///   auto row_sums = simt::guvectorize("(n)->()", [] __host__ __device__ (simt::span<const float>
///   row, simt::span<float> out) {
///       float s = 0; for (std::size_t j = 0; j < row.size(); ++j) s += row[j]; out[0] = s; });
template <class F>
Gufunc<F> guvectorize(const std::string& signature, F f) {
    return Gufunc<F>(signature, f);
}

}  // namespace simt

namespace simt::detail {

inline Signature parse_signature(const std::string& sig) {
    Signature s;
    std::vector<char>* side = &s.in;
    int parens = 0;
    bool arrow = false;
    for (std::size_t i = 0; i < sig.size(); ++i) {
        char c = sig[i];
        if (c == ' ' || c == ',') continue;
        if (c == '(') ++parens;
        else if (c == ')') --parens;
        else if (c == '-' && i + 1 < sig.size() && sig[i + 1] == '>' && parens == 0 && !arrow) {
            side = &s.out;
            arrow = true;
            ++i;
        } else if (std::isalpha(static_cast<unsigned char>(c)) && parens == 1) side->push_back(c);
        else
            throw Error(
                "simt::guvectorize: cannot read the signature \"" + sig +
                "\"; write one input and one output, such as \"(n)->()\" or \"(m,n)->(m,n)\"");
    }
    if (!arrow || parens != 0)
        throw Error("simt::guvectorize: cannot read the signature \"" + sig +
                    "\"; write one input and one output, such as \"(n)->()\" or \"(m,n)->(m,n)\"");
    return s;
}

}  // namespace simt::detail
