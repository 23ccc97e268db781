// CUDA graphs: nodes and edges, built explicitly or by capturing a stream, and run by
// cudaGraphLaunch on streams of their own so that only the edges order the nodes.
#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <simt/simt.hpp>
#include "../launch/streams.hpp"
#include "../report/text.hpp"

struct CUgraphNode_st {
    cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
    std::vector<CUgraphNode_st*> after;  ///< the nodes this one depends on
    /// A child graph's node stands for a copy of the child's nodes between two empty nodes:
    /// edges into it go to `entry`, edges out of it leave from the node itself.
    CUgraphNode_st* entry = nullptr;
    simt::sim::detail::KernelLaunch kernel;
    void* dst = nullptr;
    const void* src = nullptr;
    std::size_t bytes = 0;
    cudaMemcpyKind kind = cudaMemcpyDefault;
    int value = 0;
    std::size_t element = 1, pitch = 0, height = 1;  ///< a memset's elements and rows
    cudaHostNodeParams host{};
    std::source_location site;
};

struct CUgraph_st {
    std::vector<std::unique_ptr<CUgraphNode_st>> nodes;  ///< in the order they were added

    CUgraphNode_st* add(cudaGraphNodeType type, const cudaGraphNode_t* deps, std::size_t count) {
        auto n = std::make_unique<CUgraphNode_st>();
        n->type = type;
        for (std::size_t i = 0; i < count; ++i) n->after.push_back(deps[i]);
        nodes.push_back(std::move(n));
        return nodes.back().get();
    }
    bool owns(const CUgraphNode_st* n) const {
        return std::any_of(nodes.begin(), nodes.end(), [&](auto& m) { return m.get() == n; });
    }
};

/// An instantiated graph: its nodes in an order that respects the edges, each with the stream
/// of the graph's own that it runs on.
struct CUgraphExec_st {
    std::vector<CUgraphNode_st*> order;
    std::vector<std::size_t> lane;  ///< per node of `order`, its stream
    std::vector<cudaStream_t> streams;
    ~CUgraphExec_st() {
        for (cudaStream_t s : streams) cudaStreamDestroy(s);
    }
};

namespace simt::sim::detail {

namespace {

std::string at(const std::source_location& site) { return " at " + where(site); }

/// The graph each capturing stream adds its work to, and the node that work comes after.
struct Capture {
    cudaGraph_t graph;
    CUgraphNode_st* last = nullptr;
    /// What made the capture invalid (a synchronize of the capturing stream): its graph is lost,
    /// and cudaStreamEndCapture says so.
    std::string invalidated;
};
std::mutex capture_m;
std::map<const simt::Stream*, Capture> captures;
/// captures.size(), read without the lock by every launch: no capture, no lock.
std::atomic<std::size_t> capturing{0};

/// Every kernel that was once named with its type (KernelFunction), by address.
std::mutex kernels_m;
std::map<const void*, KernelFunction> kernels;

/// Adds a node for work queued on a capturing stream, after what was captured before it.
CUgraphNode_st* capture_node(const simt::Stream* stream, cudaGraphNodeType type) {
    if (capturing.load(std::memory_order_relaxed) == 0) return nullptr;
    std::lock_guard lock(capture_m);
    auto it = captures.find(stream);
    if (it == captures.end()) return nullptr;
    Capture& c = it->second;
    CUgraphNode_st* node = c.graph->add(type, c.last ? &c.last : nullptr, c.last ? 1 : 0);
    c.last = node;
    return node;
}

bool valid_dependencies(cudaGraph_t graph, const cudaGraphNode_t* deps, std::size_t count) {
    if (count > 0 && !deps) return false;
    for (std::size_t i = 0; i < count; ++i)
        if (!deps[i] || !graph->owns(deps[i])) return false;
    return true;
}

cudaError_t invalid(const std::string& call, const std::string& why) {
    return cuda_fail(cudaErrorInvalidValue, call + ": " + why);
}

/// Copies `child`'s nodes into `graph`, between `entry` and `exit`, keeping their edges.
void copy_into(cudaGraph_t graph, const CUgraph_st& child, CUgraphNode_st* entry,
               CUgraphNode_st* exit) {
    std::map<const CUgraphNode_st*, CUgraphNode_st*> copy_of;
    for (auto& n : child.nodes) {
        auto c = std::make_unique<CUgraphNode_st>(*n);
        c->after.clear();
        copy_of[n.get()] = c.get();
        graph->nodes.push_back(std::move(c));
    }
    std::vector<bool> has_successor(child.nodes.size());
    for (std::size_t i = 0; i < child.nodes.size(); ++i) {
        const auto& n = child.nodes[i];
        CUgraphNode_st* c = copy_of[n.get()];
        if (n->after.empty()) c->after.push_back(entry);
        for (CUgraphNode_st* d : n->after) c->after.push_back(copy_of[d]);
        for (std::size_t j = 0; j < child.nodes.size(); ++j)
            if (std::find(child.nodes[j]->after.begin(), child.nodes[j]->after.end(), n.get()) !=
                child.nodes[j]->after.end())
                has_successor[i] = true;
    }
    for (std::size_t i = 0; i < child.nodes.size(); ++i)
        if (!has_successor[i]) exit->after.push_back(copy_of[child.nodes[i].get()]);
    if (child.nodes.empty()) exit->after.push_back(entry);
}

/// Waits for the events of the node's dependencies that ran on other streams.
void wait_for(const CUgraphExec_st& exec, std::size_t i, const std::vector<cudaEvent_t>& done,
              const std::map<const CUgraphNode_st*, std::size_t>& index) {
    for (CUgraphNode_st* d : exec.order[i]->after) {
        std::size_t j = index.at(d);
        if (exec.lane[j] != exec.lane[i]) cudaStreamWaitEvent(exec.streams[exec.lane[i]], done[j]);
    }
}

}  // namespace

void remember_kernel(const KernelFunction& f) {
    std::lock_guard lock(kernels_m);
    kernels.try_emplace(f.address, f);
}

std::optional<KernelFunction> remembered_kernel(const void* address) {
    std::lock_guard lock(kernels_m);
    if (auto it = kernels.find(address); it != kernels.end()) return it->second;
    return std::nullopt;
}

bool captured_launch(const simt::Stream* stream, KernelLaunch& launch) {
    if (!stream) return false;
    CUgraphNode_st* node = capture_node(stream, cudaGraphNodeTypeKernel);
    if (!node) return false;
    node->kernel = std::move(launch);
    return true;
}

bool captured_memcpy(cudaStream_t stream, void* dst, const void* src, std::size_t bytes,
                     cudaMemcpyKind kind, std::source_location site) {
    if (!stream) return false;
    CUgraphNode_st* node = capture_node(cuda_stream(stream), cudaGraphNodeTypeMemcpy);
    if (!node) return false;
    node->dst = dst;
    node->src = src;
    node->bytes = bytes;
    node->kind = kind;
    node->site = site;
    return true;
}

bool captured_memset(cudaStream_t stream, void* dst, int value, std::size_t bytes,
                     std::source_location site) {
    if (!stream) return false;
    CUgraphNode_st* node = capture_node(cuda_stream(stream), cudaGraphNodeTypeMemset);
    if (!node) return false;
    node->dst = dst;
    node->value = value;
    node->bytes = bytes;
    node->site = site;
    return true;
}

bool invalidate_capture(const simt::Stream* stream, const std::string& why) {
    if (capturing.load(std::memory_order_relaxed) == 0) return false;
    std::lock_guard lock(capture_m);
    auto it = captures.find(stream);
    if (it == captures.end()) return false;
    if (it->second.invalidated.empty()) it->second.invalidated = why;
    return true;
}

}  // namespace simt::sim::detail

using namespace simt::sim::detail;

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode,
                                   std::source_location site) {
    if (cudaError_t e = cuda_sticky_error()) return e;
    if (!stream)
        return cuda_fail(cudaErrorStreamCaptureUnsupported,
                         "cudaStreamBeginCapture" + at(site) +
                             ": the legacy default stream (0) cannot be captured; create a stream "
                             "with cudaStreamCreate and capture that");
    std::lock_guard lock(capture_m);
    if (captures.count(cuda_stream(stream)))
        return cuda_fail(cudaErrorIllegalState,
                         "cudaStreamBeginCapture" + at(site) + ": the stream is already capturing");
    captures.emplace(cuda_stream(stream), Capture{new CUgraph_st, nullptr, {}});
    capturing = captures.size();
    return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph,
                                 std::source_location site) {
    if (!graph) return invalid("cudaStreamEndCapture" + at(site), "the graph pointer is null");
    std::lock_guard lock(capture_m);
    auto it = stream ? captures.find(cuda_stream(stream)) : captures.end();
    if (it == captures.end())
        return cuda_fail(cudaErrorIllegalState, "cudaStreamEndCapture" + at(site) +
                                                    ": the stream is not capturing; call "
                                                    "cudaStreamBeginCapture first");
    const std::string why = it->second.invalidated;
    *graph = why.empty() ? it->second.graph : nullptr;
    if (!why.empty()) delete it->second.graph;
    captures.erase(it);
    capturing = captures.size();
    if (!why.empty())
        return cuda_fail(cudaErrorStreamCaptureInvalidated,
                         "cudaStreamEndCapture" + at(site) + ": the capture was invalidated by " +
                             why + "; no graph was made");
    return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
    if (!status) return cudaErrorInvalidValue;
    std::lock_guard lock(capture_m);
    auto it = stream ? captures.find(cuda_stream(stream)) : captures.end();
    *status = it == captures.end()             ? cudaStreamCaptureStatusNone
              : it->second.invalidated.empty() ? cudaStreamCaptureStatusActive
                                               : cudaStreamCaptureStatusInvalidated;
    return cudaSuccess;
}

cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int flags) {
    if (!graph || flags != 0) return cudaErrorInvalidValue;
    *graph = new CUgraph_st;
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
    if (!graph) return cudaErrorInvalidValue;
    delete graph;
    return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* deps, std::size_t count,
                                   const cudaKernelNodeParams* p, std::source_location site) {
    const std::string call = "cudaGraphAddKernelNode" + at(site);
    if (!node || !graph || !p) return invalid(call, "a pointer argument is null");
    if (!valid_dependencies(graph, deps, count))
        return invalid(call, "a dependency is not a node of this graph");
    KernelFunction f = p->func;
    if (!f.address) return invalid(call, "params.func is null");
    if (!f.closure)
        if (std::optional<KernelFunction> known = remembered_kernel(f.address)) f = *known;
    if (!f.closure)
        return cuda_fail(cudaErrorInvalidDeviceFunction,
                         call + ": params.func is a void* that was never made from the kernel in "
                                "a .cu file, so the simulator cannot read the kernel's parameter "
                                "types; write params.func = (void*)kernel in the .cu file that "
                                "defines the kernel");
    if (f.parameters > 0 && !p->kernelParams)
        return invalid(call, "params.kernelParams is null, but the kernel takes parameters");
    bool optin = false;
    if (!cuda_launch_allowed(p->gridDim, p->blockDim, p->sharedMemBytes, site, optin))
        return cudaErrorInvalidValue;
    CUgraphNode_st* n = graph->add(cudaGraphNodeTypeKernel, deps, count);
    // The parameters are read now, as CUDA copies them.
    n->kernel = make_launch(p->gridDim, p->blockDim, p->sharedMemBytes, optin, f.run,
                            f.closure(f.address, p->kernelParams), site);
    n->site = site;
    *node = n;
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph,
                                     const cudaGraphNode_t* deps, std::size_t count, void* dst,
                                     const void* src, std::size_t bytes, cudaMemcpyKind kind,
                                     std::source_location site) {
    const std::string call = "cudaGraphAddMemcpyNode1D" + at(site);
    if (!node || !graph) return invalid(call, "a pointer argument is null");
    if (!valid_dependencies(graph, deps, count))
        return invalid(call, "a dependency is not a node of this graph");
    CUgraphNode_st* n = graph->add(cudaGraphNodeTypeMemcpy, deps, count);
    n->dst = dst;
    n->src = src;
    n->bytes = bytes;
    n->kind = kind;
    n->site = site;
    *node = n;
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* deps, std::size_t count,
                                   const cudaMemsetParams* p, std::source_location site) {
    const std::string call = "cudaGraphAddMemsetNode" + at(site);
    if (!node || !graph || !p) return invalid(call, "a pointer argument is null");
    if (!valid_dependencies(graph, deps, count))
        return invalid(call, "a dependency is not a node of this graph");
    if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
        return invalid(call, "elementSize must be 1, 2 or 4");
    if (p->height > 1 && p->pitch < p->width * p->elementSize)
        return invalid(call, "the pitch is smaller than a row");
    CUgraphNode_st* n = graph->add(cudaGraphNodeTypeMemset, deps, count);
    n->dst = p->dst;
    n->value = static_cast<int>(p->value);
    n->bytes = p->width * p->elementSize;
    n->element = p->elementSize;
    n->pitch = p->pitch;
    n->height = p->height == 0 ? 1 : p->height;
    n->site = site;
    *node = n;
    return cudaSuccess;
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                 const cudaGraphNode_t* deps, std::size_t count,
                                 const cudaHostNodeParams* p) {
    if (!node || !graph || !p || !p->fn) return cudaErrorInvalidValue;
    if (!valid_dependencies(graph, deps, count)) return cudaErrorInvalidValue;
    CUgraphNode_st* n = graph->add(cudaGraphNodeTypeHost, deps, count);
    n->host = *p;
    *node = n;
    return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                  const cudaGraphNode_t* deps, std::size_t count) {
    if (!node || !graph) return cudaErrorInvalidValue;
    if (!valid_dependencies(graph, deps, count)) return cudaErrorInvalidValue;
    *node = graph->add(cudaGraphNodeTypeEmpty, deps, count);
    return cudaSuccess;
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                       const cudaGraphNode_t* deps, std::size_t count,
                                       cudaGraph_t child) {
    if (!node || !graph || !child || child == graph) return cudaErrorInvalidValue;
    if (!valid_dependencies(graph, deps, count)) return cudaErrorInvalidValue;
    // The child is copied now, as CUDA clones it: later changes to it do not reach this graph.
    CUgraphNode_st* entry = graph->add(cudaGraphNodeTypeEmpty, deps, count);
    auto exit_node = std::make_unique<CUgraphNode_st>();
    exit_node->type = cudaGraphNodeTypeGraph;
    exit_node->entry = entry;
    CUgraphNode_st* exit = exit_node.get();
    copy_into(graph, *child, entry, exit);
    graph->nodes.push_back(std::move(exit_node));
    *node = exit;
    return cudaSuccess;
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                     const cudaGraphNode_t* to, std::size_t count) {
    if (!graph || (count > 0 && (!from || !to))) return cudaErrorInvalidValue;
    for (std::size_t i = 0; i < count; ++i)
        if (!graph->owns(from[i]) || !graph->owns(to[i]) || from[i] == to[i])
            return cudaErrorInvalidValue;
    for (std::size_t i = 0; i < count; ++i) {
        CUgraphNode_st* target = to[i]->entry ? to[i]->entry : to[i];
        target->after.push_back(from[i]);
    }
    return cudaSuccess;
}

namespace {

/// The nodes a program sees: a child graph is one node, its copied insides are not listed.
std::vector<CUgraphNode_st*> visible_nodes(cudaGraph_t graph) {
    std::vector<CUgraphNode_st*> hidden;
    for (auto& n : graph->nodes)
        if (n->entry) {
            // Everything between the entry and the child's node itself is the child's.
            std::vector<CUgraphNode_st*> stack(n->after.begin(), n->after.end());
            hidden.push_back(n->entry);
            while (!stack.empty()) {
                CUgraphNode_st* m = stack.back();
                stack.pop_back();
                if (m == n->entry || std::find(hidden.begin(), hidden.end(), m) != hidden.end())
                    continue;
                hidden.push_back(m);
                stack.insert(stack.end(), m->after.begin(), m->after.end());
            }
        }
    std::vector<CUgraphNode_st*> out;
    for (auto& n : graph->nodes)
        if (std::find(hidden.begin(), hidden.end(), n.get()) == hidden.end())
            out.push_back(n.get());
    return out;
}

cudaError_t list(const std::vector<CUgraphNode_st*>& nodes, cudaGraphNode_t* out,
                 std::size_t* count) {
    if (!count) return cudaErrorInvalidValue;
    if (!out) {
        *count = nodes.size();
        return cudaSuccess;
    }
    std::size_t n = std::min(*count, nodes.size());
    std::copy_n(nodes.begin(), n, out);
    for (std::size_t i = n; i < *count; ++i) out[i] = nullptr;
    *count = n;
    return cudaSuccess;
}

}  // namespace

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count) {
    if (!graph) return cudaErrorInvalidValue;
    return list(visible_nodes(graph), nodes, count);
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count) {
    if (!graph) return cudaErrorInvalidValue;
    std::vector<CUgraphNode_st*> roots;
    for (CUgraphNode_st* n : visible_nodes(graph))
        if ((n->entry ? n->entry : n)->after.empty()) roots.push_back(n);
    return list(roots, nodes, count);
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
    if (!node || !type) return cudaErrorInvalidValue;
    *type = node->type;
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long) {
    if (!exec || !graph) return cudaErrorInvalidValue;
    // Kahn's order, the earliest added first among the ready ones, so runs are deterministic.
    const auto& nodes = graph->nodes;
    std::map<const CUgraphNode_st*, std::size_t> index;
    for (std::size_t i = 0; i < nodes.size(); ++i) index[nodes[i].get()] = i;
    std::vector<std::size_t> waiting(nodes.size());
    std::vector<std::vector<std::size_t>> successors(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i)
        for (CUgraphNode_st* d : nodes[i]->after) {
            ++waiting[i];
            successors[index.at(d)].push_back(i);
        }
    auto e = std::make_unique<CUgraphExec_st>();
    std::vector<bool> lane_taken;  // whether a lane's last node already passed it on
    std::vector<std::size_t> lane_of(nodes.size());
    std::vector<bool> done(nodes.size());
    for (std::size_t placed = 0; placed < nodes.size(); ++placed) {
        std::size_t next = nodes.size();
        for (std::size_t i = 0; i < nodes.size(); ++i)
            if (!done[i] && waiting[i] == 0) {
                next = i;
                break;
            }
        if (next == nodes.size())
            return cuda_fail(cudaErrorInvalidValue,
                             "cudaGraphInstantiate: the graph's edges make a cycle");
        done[next] = true;
        for (std::size_t s : successors[next]) --waiting[s];
        // A node continues the stream of its first dependency whose stream nothing else
        // continued yet; otherwise it starts a stream of its own.
        std::size_t lane = lane_taken.size();
        for (CUgraphNode_st* d : nodes[next]->after) {
            std::size_t l = lane_of[index.at(d)];
            if (!lane_taken[l]) {
                lane = l;
                break;
            }
        }
        if (lane == lane_taken.size()) lane_taken.push_back(false);
        for (CUgraphNode_st* d : nodes[next]->after) lane_taken[lane_of[index.at(d)]] = true;
        lane_taken[lane] = false;
        lane_of[next] = lane;
        e->order.push_back(nodes[next].get());
        e->lane.push_back(lane);
    }
    for (std::size_t l = 0; l < lane_taken.size(); ++l) {
        cudaStream_t s;
        if (cudaError_t err = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) return err;
        e->streams.push_back(s);
    }
    *exec = e.release();
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                 cudaGraphNode_t* error_node, char* log, std::size_t log_size) {
    if (error_node) *error_node = nullptr;
    if (log && log_size > 0) log[0] = '\0';
    return cudaGraphInstantiate(exec, graph, 0ull);
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph,
                                          unsigned long long flags) {
    return cudaGraphInstantiate(exec, graph, flags);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream, std::source_location site) {
    if (cudaError_t e = cuda_sticky_error()) return e;
    if (!exec) return invalid("cudaGraphLaunch" + at(site), "the executable graph is null");
    // The graph starts after what was queued on `stream` and `stream` goes on after all of it.
    cudaEvent_t start;
    cudaEventCreate(&start);
    cudaEventRecord(start, stream);
    for (cudaStream_t s : exec->streams) cudaStreamWaitEvent(s, start);
    std::map<const CUgraphNode_st*, std::size_t> index;
    for (std::size_t i = 0; i < exec->order.size(); ++i) index[exec->order[i]] = i;
    std::vector<cudaEvent_t> done(exec->order.size());
    // Its kernels know each other as nodes of one graph launch: a race between two of them wants
    // an edge, not an event (check/race.cpp's hint).
    static std::atomic<std::uint32_t> graph_launches{0};
    const std::uint32_t this_launch = ++graph_launches;
    cudaError_t result = cudaSuccess;
    for (std::size_t i = 0; i < exec->order.size() && result == cudaSuccess; ++i) {
        CUgraphNode_st& n = *exec->order[i];
        cudaStream_t s = exec->streams[exec->lane[i]];
        wait_for(*exec, i, done, index);
        switch (n.type) {
            case cudaGraphNodeTypeKernel: {
                KernelLaunch k = n.kernel;  // its order (serial, stream) is set when queued
                k.graph_launch = this_launch;
                enqueue_launch(cuda_stream(s), std::move(k));
                break;
            }
            case cudaGraphNodeTypeMemcpy:
                result = cudaMemcpy(n.dst, n.src, n.bytes, n.kind, n.site);
                break;
            case cudaGraphNodeTypeMemset: {
                // 2- and 4-byte elements whose value is 0 are bytes like any other; otherwise
                // the row is made on the host and copied.
                for (std::size_t row = 0; row < n.height && result == cudaSuccess; ++row) {
                    auto* dst = static_cast<unsigned char*>(n.dst) + row * n.pitch;
                    if (n.element == 1 || n.value == 0) {
                        result = cudaMemset(dst, n.value, n.bytes, n.site);
                    } else {
                        // Each element's bytes, little-endian as the GPU stores them.
                        std::vector<unsigned char> row_bytes(n.bytes);
                        for (std::size_t b = 0; b < n.bytes; ++b)
                            row_bytes[b] = static_cast<unsigned char>(
                                unsigned(n.value) >> (8 * (b % n.element)));
                        result = cudaMemcpy(dst, row_bytes.data(), n.bytes,
                                            cudaMemcpyHostToDevice, n.site);
                    }
                }
                break;
            }
            case cudaGraphNodeTypeHost:
                if ((result = cudaStreamSynchronize(s)) == cudaSuccess) n.host.fn(n.host.userData);
                break;
            default:
                break;
        }
        cudaEventCreate(&done[i]);
        cudaEventRecord(done[i], s);
    }
    for (cudaStream_t s : exec->streams) {
        cudaEvent_t end;
        cudaEventCreate(&end);
        cudaEventRecord(end, s);
        cudaStreamWaitEvent(stream, end);
        cudaEventDestroy(end);
    }
    for (cudaEvent_t e : done)
        if (e) cudaEventDestroy(e);
    cudaEventDestroy(start);
    return result;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
    if (!exec) return cudaErrorInvalidValue;
    delete exec;
    return cudaSuccess;
}
