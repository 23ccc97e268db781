// The struct of policies a backend hands to the templates written once in common/.
#pragma once

namespace simt::detail {

/// A backend, as simt/view/ and simt/host/ see it (common/README.md lists what each policy
/// supplies): an accessor and a shared-array storage per element and array type, a memory
/// policy for DeviceArray, and a launch policy, whose dim3, enqueue and wait it inherits.
template <template <class> class Accessor, template <class> class SharedStorage, class Memory,
          class Launch>
struct Policies : Launch {
    template <class T>
    using accessor = Accessor<T>;
    template <class A>
    using shared_storage = SharedStorage<A>;
    using memory = Memory;
};

}  // namespace simt::detail
