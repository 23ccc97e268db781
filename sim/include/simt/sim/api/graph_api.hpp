// CUDA graphs in the simulator: stream capture and explicit nodes (kernel, memcpy, memset, host,
// child graph, empty), instantiated and launched on a stream (sim/src/api/graph.cpp).
//
// A graph's edges are its only ordering: cudaGraphLaunch runs the nodes on streams of the graph's
// own, joined by events where an edge crosses from one to another, so that two kernel nodes that
// no path of edges orders are as concurrent as kernels on two streams, and a race between them is
// reported. Memcpy, memset and host nodes run on the host once what they depend on has finished.
#pragma once
#ifndef SIMT_INSIDE_SIMT_HPP
#error "include <simt/simt.hpp>, not the simulator's headers"
#endif
#include <cstddef>
#include <optional>
#include <source_location>
#include <type_traits>

#include "simt/sim/api/launch_api.hpp"

struct CUgraph_st;
struct CUgraphNode_st;
struct CUgraphExec_st;
typedef CUgraph_st* cudaGraph_t;
typedef CUgraphNode_st* cudaGraphNode_t;
typedef CUgraphExec_st* cudaGraphExec_t;

enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2,
};
enum cudaStreamCaptureStatus {
    cudaStreamCaptureStatusNone = 0,
    cudaStreamCaptureStatusActive = 1,
    cudaStreamCaptureStatusInvalidated = 2,
};
enum cudaGraphNodeType {
    cudaGraphNodeTypeKernel = 0x00,
    cudaGraphNodeTypeMemcpy = 0x01,
    cudaGraphNodeTypeMemset = 0x02,
    cudaGraphNodeTypeHost = 0x03,
    cudaGraphNodeTypeGraph = 0x04,
    cudaGraphNodeTypeEmpty = 0x05,
};

typedef void (*cudaHostFn_t)(void* userData);

namespace simt::sim::detail {

/// Makes a kernel's closure from args[] (a pointer to each argument): what a kernel node needs
/// to launch a kernel it knows only by address.
using ClosureFromArgs = std::shared_ptr<const void> (*)(const void* kernel, void** args);
template <class... P>
std::shared_ptr<const void> erased_closure(const void* kernel, void** args) {
    auto k = reinterpret_cast<void (*)(P...)>(const_cast<void*>(kernel));
    return closure_from_args(k, args, std::index_sequence_for<P...>{});
}

struct KernelFunction;
/// Remembers how to launch the kernel at `f.address`, for a later use of that address as a
/// plain void* (graph.cpp).
void remember_kernel(const KernelFunction& f);
/// The kernel at `address`, when it was once named with its type.
std::optional<KernelFunction> remembered_kernel(const void* address);

/// A kernel as cudaKernelNodeParams::func holds it. CUDA's field is a `void*`; here it is a
/// pointer that also keeps, when it is given the kernel itself (`params.func = kernel` or the
/// `(void*)kernel` that the front end reads as the kernel), how to read the kernel's arguments.
struct KernelFunction {
    const void* address = nullptr;
    ClosureFromArgs closure = nullptr;
    RunThreads run = nullptr;
    std::size_t parameters = 0;

    KernelFunction() = default;
    KernelFunction(const void* p) : address(p) {}  // NOLINT: as CUDA's void* field converts
    template <class... P>
    KernelFunction(void (*k)(P...))  // NOLINT
        : address(reinterpret_cast<const void*>(k)), closure(&erased_closure<P...>),
          run(&BoundKernelClosure<P...>::run), parameters(sizeof...(P)) {
        remember_kernel(*this);
    }
    operator void*() const { return const_cast<void*>(address); }
};

/// What the front end makes of `(void*)name`: the kernel itself when `name` is a kernel, so that
/// a kernel node or cudaLaunchKernel can read its arguments, and the pointer cast as written
/// otherwise.
template <class... P>
KernelFunction kernel_or_pointer(void (*kernel)(P...)) {
    return KernelFunction(kernel);
}
template <class T>
void* kernel_or_pointer(T* p) {
    return (void*)p;  // NOLINT: the cast the program wrote
}
template <class T>
    requires std::is_integral_v<T>
void* kernel_or_pointer(T address) {
    return (void*)address;  // NOLINT: the cast the program wrote
}
template <class T>
requires(!std::is_pointer_v<std::remove_cvref_t<T>> &&
         !std::is_integral_v<std::remove_cvref_t<T>> &&
         !std::is_array_v<std::remove_reference_t<T>> &&
         !std::is_function_v<std::remove_reference_t<T>>) void* kernel_or_pointer(T&& x) {
    return (void*)x;  // NOLINT: the cast the program wrote (an object's own conversion, an enum)
}
inline void* kernel_or_pointer(std::nullptr_t) { return nullptr; }

}  // namespace simt::sim::detail

struct cudaKernelNodeParams {
    simt::sim::detail::KernelFunction func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void** kernelParams;
    void** extra;
};
struct cudaMemsetParams {
    void* dst;
    std::size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    std::size_t width;
    std::size_t height;
};
struct cudaHostNodeParams {
    cudaHostFn_t fn;
    void* userData;
};

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode,
                                   std::source_location site = std::source_location::current());
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph,
                                 std::source_location site = std::source_location::current());
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status);

cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* dependencies, std::size_t count,
                                   const cudaKernelNodeParams* params,
                                   std::source_location site = std::source_location::current());
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph,
                                     const cudaGraphNode_t* dependencies, std::size_t count,
                                     void* dst, const void* src, std::size_t bytes,
                                     cudaMemcpyKind kind,
                                     std::source_location site = std::source_location::current());
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* dependencies, std::size_t count,
                                   const cudaMemsetParams* params,
                                   std::source_location site = std::source_location::current());
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                 const cudaGraphNode_t* dependencies, std::size_t count,
                                 const cudaHostNodeParams* params);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                  const cudaGraphNode_t* dependencies, std::size_t count);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                       const cudaGraphNode_t* dependencies, std::size_t count,
                                       cudaGraph_t child);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                     const cudaGraphNode_t* to, std::size_t count);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                 unsigned long long flags = 0);
/// CUDA 11's form, which courses written for it still call.
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                 cudaGraphNode_t* error_node, char* log, std::size_t log_size);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph,
                                          unsigned long long flags = 0);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream,
                            std::source_location site = std::source_location::current());
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);

namespace simt::sim::detail {
/// For enqueue_launch (stream.cpp): a launch on a stream under capture becomes a node of the
/// graph being captured instead of running; true when it did.
bool captured_launch(const simt::Stream* stream, KernelLaunch& launch);
/// For the runtime's async copies and memsets: true when `stream` is capturing, the operation
/// having then become a node.
bool captured_memcpy(cudaStream_t stream, void* dst, const void* src, std::size_t bytes,
                     cudaMemcpyKind kind, std::source_location site);
bool captured_memset(cudaStream_t stream, void* dst, int value, std::size_t bytes,
                     std::source_location site);
}  // namespace simt::sim::detail
