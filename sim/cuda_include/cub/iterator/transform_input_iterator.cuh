// <cub/iterator/transform_input_iterator.cuh> in a simulator build: conversion_op(*input) at
// each position, read when indexed (through the program's checked access to input).
#pragma once
#include <cub/util_type.cuh>

#include <cstddef>
#include <iterator>

namespace cub {

template <typename ValueType, typename ConversionOp, typename InputIteratorT,
          typename OffsetT = std::ptrdiff_t>
class TransformInputIterator {
public:
    using self_type = TransformInputIterator;
    using difference_type = OffsetT;
    using value_type = ValueType;
    using pointer = void;
    using reference = ValueType;
    using iterator_category = std::random_access_iterator_tag;

    __host__ __device__ TransformInputIterator(InputIteratorT input, ConversionOp op)
        : input_(input), op_(op) {}
    __host__ __device__ reference operator*() const { return op_(*input_); }
    template <typename Distance>
    __host__ __device__ reference operator[](Distance n) const { return op_(input_[n]); }
    template <typename Distance>
    __host__ __device__ self_type operator+(Distance n) const { return self_type(input_ + n, op_); }
    __host__ __device__ self_type& operator++() { ++input_; return *this; }
    __host__ __device__ difference_type operator-(self_type other) const {
        return input_ - other.input_;
    }

private:
    InputIteratorT input_;
    ConversionOp op_;
};

}  // namespace cub
