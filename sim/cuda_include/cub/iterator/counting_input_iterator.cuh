// <cub/iterator/counting_input_iterator.cuh> in a simulator build: the values base, base + 1, ...
// (CUB 3 dropped it for thrust::counting_iterator; simt keeps it for CUB 1 and 2 code).
#pragma once
#include <cub/util_type.cuh>

#include <cstddef>
#include <iterator>

namespace cub {

template <typename ValueType, typename OffsetT = std::ptrdiff_t>
class CountingInputIterator {
public:
    using self_type = CountingInputIterator;
    using difference_type = OffsetT;
    using value_type = ValueType;
    using pointer = void;
    using reference = ValueType;
    using iterator_category = std::random_access_iterator_tag;

    __host__ __device__ CountingInputIterator(const ValueType& val) : val_(val) {}
    __host__ __device__ reference operator*() const { return val_; }
    template <typename Distance>
    __host__ __device__ reference operator[](Distance n) const { return val_ + ValueType(n); }
    template <typename Distance>
    __host__ __device__ self_type operator+(Distance n) const { return self_type(val_ + ValueType(n)); }
    __host__ __device__ self_type& operator++() { ++val_; return *this; }
    __host__ __device__ self_type operator++(int) { self_type r = *this; ++val_; return r; }
    __host__ __device__ difference_type operator-(self_type other) const {
        return static_cast<difference_type>(val_ - other.val_);
    }
    __host__ __device__ bool operator==(const self_type& rhs) const { return val_ == rhs.val_; }
    __host__ __device__ bool operator!=(const self_type& rhs) const { return val_ != rhs.val_; }

private:
    ValueType val_;
};

}  // namespace cub
