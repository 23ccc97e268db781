// <cub/iterator/constant_input_iterator.cuh> in a simulator build: one value at every position.
#pragma once
#include <cub/util_type.cuh>

#include <cstddef>
#include <iterator>

namespace cub {

template <typename ValueType, typename OffsetT = std::ptrdiff_t>
class ConstantInputIterator {
public:
    using self_type = ConstantInputIterator;
    using difference_type = OffsetT;
    using value_type = ValueType;
    using pointer = void;
    using reference = ValueType;
    using iterator_category = std::random_access_iterator_tag;

    __host__ __device__ ConstantInputIterator(ValueType val, OffsetT offset = 0)
        : val_(val), offset_(offset) {}
    __host__ __device__ reference operator*() const { return val_; }
    template <typename Distance>
    __host__ __device__ reference operator[](Distance) const { return val_; }
    template <typename Distance>
    __host__ __device__ self_type operator+(Distance n) const {
        return self_type(val_, offset_ + static_cast<OffsetT>(n));
    }
    __host__ __device__ self_type& operator++() { ++offset_; return *this; }
    __host__ __device__ difference_type operator-(self_type other) const {
        return offset_ - other.offset_;
    }

private:
    ValueType val_;
    OffsetT offset_;
};

}  // namespace cub
