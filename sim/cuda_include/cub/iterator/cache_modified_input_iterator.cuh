// <cub/iterator/cache_modified_input_iterator.cuh> in a simulator build: a pointer read through
// ThreadLoad<MODIFIER> (a plain checked load here).
#pragma once
#include <cub/thread/thread_load.cuh>

#include <cstddef>
#include <iterator>

namespace cub {

template <CacheLoadModifier MODIFIER, typename ValueType, typename OffsetT = std::ptrdiff_t>
class CacheModifiedInputIterator {
public:
    using self_type = CacheModifiedInputIterator;
    using difference_type = OffsetT;
    using value_type = ValueType;
    using pointer = ValueType*;
    using reference = ValueType;
    using iterator_category = std::random_access_iterator_tag;

    ValueType* ptr;

    template <typename QualifiedValueType>
    __host__ __device__ CacheModifiedInputIterator(QualifiedValueType* p)
        : ptr(const_cast<std::remove_cv_t<QualifiedValueType>*>(p)) {}
    __host__ __device__ reference operator*() const { return ThreadLoad<MODIFIER>(ptr); }
    template <typename Distance>
    __host__ __device__ reference operator[](Distance n) const {
        return ThreadLoad<MODIFIER>(ptr + n);
    }
    template <typename Distance>
    __host__ __device__ self_type operator+(Distance n) const { return self_type(ptr + n); }
    __host__ __device__ self_type& operator++() { ++ptr; return *this; }
    __host__ __device__ difference_type operator-(self_type other) const {
        return ptr - other.ptr;
    }
    __host__ __device__ bool operator==(const self_type& o) const { return ptr == o.ptr; }
    __host__ __device__ bool operator!=(const self_type& o) const { return ptr != o.ptr; }
};

}  // namespace cub
