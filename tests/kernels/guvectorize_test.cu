// simt::guvectorize: row-wise and matrix-wise generalized ufuncs, one thread per core.
#include <simt/simt.hpp>

#include <catch2/catch.hpp>

#include "../support/findings.hpp"

using Catch::Matchers::Contains;

TEST_CASE("A (n)->() gufunc reduces every row of a matrix to one value", "[guvectorize]") {
    auto row_sum = simt::guvectorize("(n)->()", [] __host__ __device__ (simt::span<const int> row, simt::span<int> out) {
        int s = 0;
        for (std::size_t j = 0; j < row.size(); ++j) s += row[j];
        out[0] = s;
    });
    std::vector<int> m(300 * 7);
    for (int i = 0; i < 300 * 7; ++i) m[i] = i;
    auto fs = test::findings_of([&] {
        simt::DeviceArray<int> sums = row_sum(simt::to_device(m, {300, 7}));
        REQUIRE(sums.size() == 300);
        auto s = sums.copy_to_host();
        CHECK(s[0] == 21);
        CHECK(s[299] == 7 * 299 * 7 + 21);
    });
    INFO(test::all_text(fs));
    CHECK(fs.empty());
}

TEST_CASE("A (m,n)->(m,n) gufunc maps each matrix of a batch to a matrix of the same shape", "[guvectorize]") {
    auto doubled = simt::guvectorize("(m,n)->(m,n)", [] __host__ __device__ (simt::mdspan<const float, 2> a, simt::mdspan<float, 2> out) {
        for (std::size_t i = 0; i < a.extent(0); ++i)
            for (std::size_t j = 0; j < a.extent(1); ++j) out(i, j) = 2 * a(i, j);
    });
    std::vector<float> batch(4 * 3 * 3);
    for (std::size_t i = 0; i < batch.size(); ++i) batch[i] = static_cast<float>(i);
    auto in = simt::to_device(batch, {4, 3, 3});
    auto out = simt::device_array_like(in);
    doubled(in, out);
    auto r = out.copy_to_host();
    CHECK(r[0] == 0.0f);
    CHECK(r[35] == 70.0f);
    std::vector<float> single = doubled(std::vector<float>{1, 2, 3, 4}, {2, 2});
    CHECK(single == std::vector<float>{2, 4, 6, 8});
}

TEST_CASE("A gufunc signature that does not match f's views is refused with both", "[guvectorize]") {
    auto f = [] __host__ __device__ (simt::span<const int> row, simt::span<int> out) { out[0] = row[0]; };
    CHECK_THROWS_WITH(simt::guvectorize("(m,n)->()", f), Contains("input core has 2 dimensions but f takes a 1-D view"));
    CHECK_THROWS_WITH(simt::guvectorize("(n)=>()", f), Contains("cannot read the signature"));
    auto g = simt::guvectorize("(n)->(p)", f);
    CHECK_THROWS_WITH(g(simt::to_device(std::vector<int>{1, 2})), Contains("'p' is not an input dimension"));
}
