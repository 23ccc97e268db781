// <cub/thread/thread_load.cuh> and thread_store.cuh in a simulator build: CUB's cache-qualified
// loads and stores. The qualifiers choose caches a CPU does not have, so each is the plain load
// or store, checked as one (CUB's are inline PTX: ld.global.cg and the like).
#pragma once
#include <cub/util_type.cuh>

#include <iterator>

namespace cub {

enum CacheLoadModifier {
    LOAD_DEFAULT,
    LOAD_CA,
    LOAD_CG,
    LOAD_CS,
    LOAD_CV,
    LOAD_LDG,
    LOAD_VOLATILE,
};

enum CacheStoreModifier {
    STORE_DEFAULT,
    STORE_WB,
    STORE_CG,
    STORE_CS,
    STORE_WT,
    STORE_VOLATILE,
};

/// *it, whatever the modifier (a volatile load for LOAD_VOLATILE and LOAD_CV, which must read
/// memory every time).
template <CacheLoadModifier MODIFIER = LOAD_DEFAULT, typename InputIteratorT>
__forceinline__ typename std::iterator_traits<InputIteratorT>::value_type ThreadLoad(
    InputIteratorT it) {
    if constexpr (std::is_pointer_v<InputIteratorT> &&
                  (MODIFIER == LOAD_VOLATILE || MODIFIER == LOAD_CV))
        return *const_cast<const volatile std::remove_pointer_t<InputIteratorT>*>(it);
    else
        return *it;
}

/// *it = value, whatever the modifier (a volatile store for STORE_VOLATILE and STORE_WT).
template <CacheStoreModifier MODIFIER = STORE_DEFAULT, typename OutputIteratorT, typename T>
__forceinline__ void ThreadStore(OutputIteratorT it, T value) {
    if constexpr (std::is_pointer_v<OutputIteratorT> &&
                  (MODIFIER == STORE_VOLATILE || MODIFIER == STORE_WT))
        *const_cast<volatile std::remove_pointer_t<OutputIteratorT>*>(it) = value;
    else
        *it = value;
}

}  // namespace cub
