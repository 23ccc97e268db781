// <cub/iterator/arg_index_input_iterator.cuh> in a simulator build: each item paired with its
// offset, as KeyValuePair<OffsetT, value> (CUB 1 and 2's input to the ArgMin/ArgMax operators).
#pragma once
#include <cub/util_type.cuh>

#include <cstddef>
#include <iterator>

namespace cub {

template <typename InputIteratorT, typename OffsetT = std::ptrdiff_t,
          typename OutputValueT = typename std::iterator_traits<InputIteratorT>::value_type>
class ArgIndexInputIterator {
public:
    using self_type = ArgIndexInputIterator;
    using difference_type = OffsetT;
    using value_type = KeyValuePair<difference_type, OutputValueT>;
    using pointer = value_type*;
    using reference = value_type;
    using iterator_category = std::random_access_iterator_tag;

    __host__ __device__ ArgIndexInputIterator(InputIteratorT itr, difference_type offset = 0)
        : itr_(itr), offset_(offset) {}
    __host__ __device__ reference operator*() const { return value_type(offset_, itr_[offset_]); }
    template <typename Distance>
    __host__ __device__ reference operator[](Distance n) const {
        return value_type(offset_ + n, itr_[offset_ + n]);
    }
    template <typename Distance>
    __host__ __device__ self_type operator+(Distance n) const {
        return self_type(itr_, offset_ + n);
    }
    __host__ __device__ self_type& operator++() { ++offset_; return *this; }
    __host__ __device__ difference_type operator-(self_type other) const {
        return offset_ - other.offset_;
    }
    /// Makes this iterator's offsets count from `itr` (CUB's normalize).
    __host__ __device__ void normalize() {
        itr_ += offset_;
        offset_ = 0;
    }

private:
    InputIteratorT itr_;
    difference_type offset_;
};

}  // namespace cub
