// The names of element types, for messages both backends print ("int", "float", ...).
#pragma once
#include <type_traits>

#include "simt/core/keywords.hpp"

namespace simt::detail {

/// The name of an element type for reports and errors ("int", "float", ...; a type with a
/// `simt_type_name` member names itself, as __half does; "struct" otherwise).
template <class T>
SIMT_DEVICE_FN constexpr const char* type_name() {
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, bool>) return "bool";
    else if constexpr (std::is_same_v<U, char>) return "char";
    else if constexpr (std::is_same_v<U, signed char>) return "signed char";
    else if constexpr (std::is_same_v<U, unsigned char>) return "unsigned char";
    else if constexpr (std::is_same_v<U, short>) return "short";
    else if constexpr (std::is_same_v<U, unsigned short>) return "unsigned short";
    else if constexpr (std::is_same_v<U, int>) return "int";
    else if constexpr (std::is_same_v<U, unsigned>) return "unsigned int";
    else if constexpr (std::is_same_v<U, long>) return "long";
    else if constexpr (std::is_same_v<U, unsigned long>) return "unsigned long";
    else if constexpr (std::is_same_v<U, long long>) return "long long";
    else if constexpr (std::is_same_v<U, unsigned long long>) return "unsigned long long";
    else if constexpr (std::is_same_v<U, float>) return "float";
    else if constexpr (std::is_same_v<U, double>) return "double";
    else if constexpr (requires { U::simt_type_name; }) return U::simt_type_name;  // __half, ...
    else return "struct";
}

/// Whether the checks see an array of T as elements of T (a scalar, or one of CUDA's value
/// types that name themselves, as __half does) or as bytes (any other struct, whose members two
/// threads may update apart: a CUB TempStorage, a particle's x and y). One rule for cudaMalloc,
/// __shared__ and __device__ arrays.
template <class T>
inline constexpr bool checked_as_element =
    std::is_scalar_v<std::remove_cv_t<T>> || requires { std::remove_cv_t<T>::simt_type_name; };

}  // namespace simt::detail
