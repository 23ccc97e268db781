// <cub/util_type.cuh> in a simulator build: the value types CUB's interfaces use.
#pragma once
#include <cub/detail/simt_collective.cuh>

#include <cfloat>
#include <climits>
#include <limits>

namespace cub {

/// "No type": the value type of a keys-only sort.
struct NullType {};

/// A key and a value, as ArgMin and ArgMax return (key: the index, value: the item).
template <typename K, typename V>
struct KeyValuePair {
    typedef K Key;
    typedef V Value;
    K key;
    V value;
    __host__ __device__ KeyValuePair() : key(), value() {}
    __host__ __device__ KeyValuePair(const K& k, const V& v) : key(k), value(v) {}
    __host__ __device__ bool operator!=(const KeyValuePair& b) const {
        return value != b.value || key != b.key;
    }
};

/// Two buffers of one kind and which of them holds the data: the radix sorts' ping-pong form,
/// which may leave the result in either (read it from Current()).
template <typename T>
struct DoubleBuffer {
    T* d_buffers[2];
    int selector;
    __host__ __device__ DoubleBuffer() : d_buffers{nullptr, nullptr}, selector(0) {}
    __host__ __device__ DoubleBuffer(T* current, T* alternate)
        : d_buffers{current, alternate}, selector(0) {}
    __host__ __device__ T* Current() { return d_buffers[selector]; }
    __host__ __device__ T* Alternate() { return d_buffers[selector ^ 1]; }
};

/// A T without its constructor run (TempStorage members of types that have one).
template <typename T>
struct Uninitialized {
    detail::Raw<T> storage;
    __host__ __device__ T& Alias() { return storage.get(); }
};

/// The greatest and the lowest value of T (what Min and Max reductions start from).
template <typename T>
struct Traits {
    static constexpr bool PRIMITIVE = std::is_arithmetic_v<T>;
    static __host__ __device__ T Max() { return std::numeric_limits<T>::max(); }
    static __host__ __device__ T Lowest() { return std::numeric_limits<T>::lowest(); }
};

/// Whether T is one of the types CUB's radix sort orders by its bits.
template <typename T>
inline constexpr bool radix_sortable = std::is_integral_v<T> || std::is_floating_point_v<T>;

namespace detail {

/// T's bits as an unsigned integer whose order is T's order (CUB's TwiddleIn): integers with the
/// sign bit flipped, floats with every bit flipped when negative (so -0.0 sorts before +0.0).
template <typename T>
__forceinline__ auto radix_bits(T key) {
    static_assert(radix_sortable<T>, "cub radix sorts order integer and floating-point keys");
    using U = std::conditional_t<sizeof(T) == 1, std::uint8_t,
              std::conditional_t<sizeof(T) == 2, std::uint16_t,
              std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
    U bits;
    __builtin_memcpy(&bits, &key, sizeof(T));
    constexpr U high = U(U(1) << (sizeof(T) * 8 - 1));
    if constexpr (std::is_floating_point_v<T>)
        bits = (bits & high) ? U(~bits) : U(bits ^ high);
    else if constexpr (std::is_signed_v<T>)
        bits = U(bits ^ high);
    return bits;
}

/// The digit of `key` at bits [bit, bit + count) of its ordered bits, inverted for a descending
/// sort.
template <typename T>
__forceinline__ unsigned radix_digit(T key, int bit, int count, bool descending) {
    auto bits = radix_bits(key);
    if (descending) bits = decltype(bits)(~bits);
    return static_cast<unsigned>((static_cast<std::uint64_t>(bits) >> bit) &
                                 ((std::uint64_t(1) << count) - 1));
}

/// Whether a orders before b by bits [begin_bit, end_bit) (stable sorts keep equal keys' order).
template <typename T>
__forceinline__ bool radix_less(T a, T b, int begin_bit, int end_bit, bool descending) {
    int count = end_bit - begin_bit;
    if (count <= 0) return false;
    std::uint64_t mask = count >= 64 ? ~std::uint64_t(0) : ((std::uint64_t(1) << count) - 1);
    std::uint64_t x = (static_cast<std::uint64_t>(radix_bits(a)) >> begin_bit) & mask;
    std::uint64_t y = (static_cast<std::uint64_t>(radix_bits(b)) >> begin_bit) & mask;
    return descending ? y < x : x < y;
}

}  // namespace detail
}  // namespace cub
