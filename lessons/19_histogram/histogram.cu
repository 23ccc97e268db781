// Lesson 19: the histogram, three ways. Every thread of a grid-stride loop adds one to the bin of
// each byte it reads: first with an atomicAdd on global memory, where every thread of the grid
// meets every other on the busy bins; then into a copy of the histogram in each block's shared
// memory, merged into the global one with one atomicAdd per bin per block (privatisation); then
// into a copy per warp, each thread reading four bytes at a time. With the argument `race`, the
// per-block kernel counts with a plain `s_bins[v]++` instead of its atomicAdd: for the checker.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                 \
                         cudaGetErrorString(err_), cudaGetErrorName(err_));              \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

constexpr int BINS = 256;  // one per byte value
constexpr int THREADS = 256;
constexpr int WARPS = THREADS / 32;
constexpr int BLOCKS = 64;

// --- 1: global atomics -------------------------------------------------------------------------

// Every byte is one atomicAdd on global memory: as many atomics on the bin of ' ' as there are
// spaces in the text, from every block of the grid.
__global__ void histogram_global(const unsigned char* data, int n, unsigned int* bins) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[data[i]], 1u);
}

// --- 2: a private histogram per block, in shared memory -----------------------------------------

// The block counts its part of the input into its own 256 bins in shared memory, then adds each
// bin that is not zero to the global histogram: per bin, one global atomic per block.
__global__ void histogram_shared(const unsigned char* data, int n, unsigned int* bins) {
    __shared__ unsigned int s_bins[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) s_bins[b] = 0;
    __syncthreads();  // every bin is zero before any thread counts into it
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&s_bins[data[i]], 1u);
    __syncthreads();  // every count of the block is in before the bins are read
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned int count = s_bins[b];
        if (count > 0) atomicAdd(&bins[b], count);
    }
}

// The same with the learner's classic bug: `++` on shared memory is a read, an add and a write,
// and two threads of the block with the same byte lose one count. (Run with the argument `race`.)
__global__ void histogram_shared_racy(const unsigned char* data, int n, unsigned int* bins) {
    __shared__ unsigned int s_bins[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) s_bins[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        s_bins[data[i]]++;  // the race is here
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned int count = s_bins[b];
        if (count > 0) atomicAdd(&bins[b], count);
    }
}

// --- 3: a private histogram per warp, four bytes per load ----------------------------------------

// Each warp counts into its own 256 bins, so only the 32 lanes of one warp ever meet at a shared
// address; each thread loads four bytes as one 4-byte word and counts them one after another.
// At the end each thread adds up one bin over the block's warps and makes the global atomic.
__global__ void histogram_warps(const unsigned char* data, int n, unsigned int* bins) {
    __shared__ unsigned int s_bins[WARPS][BINS];  // 8 KiB
    const int warp = threadIdx.x / 32;
    for (int b = threadIdx.x; b < WARPS * BINS; b += blockDim.x) s_bins[b / BINS][b % BINS] = 0;
    __syncthreads();
    const int stride = blockDim.x * gridDim.x;
    const int first = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int* words = reinterpret_cast<const unsigned int*>(data);  // cudaMalloc aligns
    for (int w = first; w < n / 4; w += stride) {
        unsigned int four = words[w];
        for (int k = 0; k < 4; ++k) atomicAdd(&s_bins[warp][(four >> (8 * k)) & 0xffu], 1u);
    }
    for (int i = n / 4 * 4 + first; i < n; i += stride)  // the last n % 4 bytes, if any
        atomicAdd(&s_bins[warp][data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned int count = 0;
        for (int v = 0; v < WARPS; ++v) count += s_bins[v][b];
        if (count > 0) atomicAdd(&bins[b], count);
    }
}

// --- The host ----------------------------------------------------------------------------------

// Text-like input: words of a small English vocabulary, a space after each, a full stop and a
// newline now and then. Its bytes are skewed as text is: ' ' and 'e' are common, most of the 256
// byte values never occur.
std::vector<unsigned char> make_text(int n) {
    static const char* const words[] = {
        "the",   "of",     "and",    "a",     "to",     "in",     "is",     "you",    "that",
        "it",    "he",     "was",    "for",   "on",     "are",    "as",     "with",   "his",
        "they",  "at",     "be",     "this",  "have",   "from",   "or",     "one",    "had",
        "by",    "word",   "but",    "not",   "what",   "all",    "were",   "when",   "we",
        "there", "can",    "an",     "your",  "which",  "their",  "said",   "if",     "do",
        "will",  "each",   "about",  "how",   "up",     "out",    "them",   "then",   "she",
        "many",  "some",   "so",     "these", "would",  "other",  "into",   "has",    "more",
        "her",   "two",    "like",   "him",   "see",    "time",   "could",  "no",     "make",
        "than",  "first",  "been",   "its",   "who",    "now",    "people", "my",     "made",
        "over",  "did",    "down",   "only",  "way",    "find",   "use",    "may",    "water",
        "long",  "little", "very",   "after", "words",  "called", "just",   "where",  "most",
        "know",  "warp",   "thread", "block", "kernel", "memory", "atomic", "shared", "GPU"};
    constexpr unsigned count = sizeof(words) / sizeof(words[0]);
    std::vector<unsigned char> text;
    text.reserve(n + 16);
    unsigned int state = 12345;
    auto next = [&] { return state = state * 1664525u + 1013904223u; };
    while (static_cast<int>(text.size()) < n) {
        for (const char* c = words[(next() >> 8) % count]; *c; ++c) text.push_back(*c);
        unsigned r = (next() >> 8) % 16;
        if (r == 0) text.push_back('.');
        text.push_back(r == 1 ? '\n' : ' ');
    }
    text.resize(n);
    return text;
}

// The most atomics any one address receives, and how many lanes of a warp's atomic instruction
// share an address on average: the contention each kernel's atomics meet, counted from the input
// and the way each kernel splits it.
struct Contention {
    unsigned int busiest = 0;      // atomics on the busiest address
    double lanes_per_address = 0;  // active lanes / distinct addresses, per warp-level atomic
};

// `owner(i)`: which copy of the histogram byte i is counted in; `request(i)`: which warp-level
// atomic instruction counts it. Bytes are visited in order, and one request's bytes are adjacent
// in that order.
template <class Owner, class Request>
Contention contention(const std::vector<unsigned char>& text, int copies, Owner owner,
                      Request request) {
    std::vector<unsigned int> counts(static_cast<size_t>(copies) * BINS, 0);
    Contention c;
    long long requests = 0, lanes = 0, addresses = 0;
    std::vector<long long> order;  // byte indices sorted by request
    order.resize(text.size());
    for (size_t i = 0; i < text.size(); ++i) order[i] = static_cast<long long>(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](long long a, long long b) { return request(a) < request(b); });
    for (size_t k = 0; k < order.size();) {
        const long long r = request(order[k]);
        bool seen[BINS] = {};
        for (; k < order.size() && request(order[k]) == r; ++k) {
            const unsigned char v = text[order[k]];
            ++lanes;
            if (!seen[v]) ++addresses;
            seen[v] = true;
            unsigned int& slot = counts[static_cast<size_t>(owner(order[k])) * BINS + v];
            c.busiest = std::max(c.busiest, ++slot);
        }
        ++requests;
    }
    c.lanes_per_address = addresses ? static_cast<double>(lanes) / addresses : 0;
    return c;
}

int main(int argc, char** argv) {
    const bool race = argc > 1 && std::strcmp(argv[1], "race") == 0;
    if (argc > 1 && !race) {
        std::printf("give no argument or `race`\n");
        return 2;
    }
    const int n = 1 << 20;
    const std::vector<unsigned char> text = make_text(n);
    std::vector<unsigned int> expected(BINS, 0), result(BINS);
    for (unsigned char v : text) ++expected[v];

    unsigned char* d_text;
    unsigned int* d_bins;
    CHECK(cudaMalloc(&d_text, n));
    CHECK(cudaMalloc(&d_bins, BINS * sizeof(unsigned int)));
    CHECK(cudaMemcpy(d_text, text.data(), n, cudaMemcpyHostToDevice));

    // How each kernel splits the input (THREADS * BLOCKS threads, grid-stride): byte i is read by
    // thread i % stride, in iteration i / stride; in part 3, word i / 4 by thread (i / 4) % stride.
    const long long stride = static_cast<long long>(THREADS) * BLOCKS;
    const Contention in_global = contention(
        text, 1, [](long long) { return 0; }, [](long long i) { return i / 32; });
    const Contention in_block = contention(
        text, BLOCKS, [&](long long i) { return (i % stride) / THREADS; },
        [](long long i) { return i / 32; });
    const Contention in_warp = contention(
        text, BLOCKS * WARPS, [&](long long i) { return (i / 4 % stride) / 32; },
        [](long long i) { return (i / 128) * 4 + i % 4; });

    int failures = 0;
    // Copies the histogram back and compares it with the CPU's. (Each kernel is launched on a line
    // of its own, so that the profile has a table for each.)
    auto report = [&](const char* name, const Contention& c, bool may_fail) {
        CHECK(cudaGetLastError());
        CHECK(
            cudaMemcpy(result.data(), d_bins, BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (int b = 0; b < BINS; ++b) wrong += result[b] != expected[b];
        std::printf("%-28s %s  %7u on the busiest address, %4.2f lanes per address\n", name,
                    wrong ? "WRONG" : "right", c.busiest, c.lanes_per_address);
        if (!may_fail) failures += wrong != 0;
    };
    const size_t bytes = BINS * sizeof(unsigned int);

    std::printf("-- a histogram of %d bytes of text, %d bins, %d blocks of %d threads\n", n, BINS,
                BLOCKS, THREADS);
    std::printf("%-28s bins   atomics (contention per address)\n", "");
    if (race) {
        // Its counts may come out right or wrong: the race is the point, not the values.
        CHECK(cudaMemset(d_bins, 0, bytes));
        histogram_shared_racy<<<BLOCKS, THREADS>>>(d_text, n, d_bins);
        report("shared, plain ++ (racy)", in_block, true);
    } else {
        CHECK(cudaMemset(d_bins, 0, bytes));
        histogram_global<<<BLOCKS, THREADS>>>(d_text, n, d_bins);
        report("global atomics", in_global, false);
        CHECK(cudaMemset(d_bins, 0, bytes));
        histogram_shared<<<BLOCKS, THREADS>>>(d_text, n, d_bins);
        report("shared, one copy per block", in_block, false);
        CHECK(cudaMemset(d_bins, 0, bytes));
        histogram_warps<<<BLOCKS, THREADS>>>(d_text, n, d_bins);
        report("shared, one copy per warp", in_warp, false);
    }

    int used = 0, top = 0;
    for (int b = 0; b < BINS; ++b) {
        used += expected[b] > 0;
        if (expected[b] > expected[top]) top = b;
    }
    std::printf("%d of %d bins used; the largest, byte %d ('%c'), holds %u\n", used, BINS, top,
                top >= 32 && top < 127 ? top : '?', expected[top]);
    long long checksum = 0;
    for (int b = 0; b < BINS; ++b) checksum += static_cast<long long>(b) * result[b];
    std::printf("checksum %lld\n", checksum);

    CHECK(cudaFree(d_text));
    CHECK(cudaFree(d_bins));
    if (failures) {
        std::printf("FAILED: %d histograms differ from the CPU's\n", failures);
        return 1;
    }
    std::printf("OK\n");
    return 0;
}
