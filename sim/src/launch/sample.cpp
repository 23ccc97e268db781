// A long launch's blocks sampled in a forked copy of the process (sample.hpp says how and why).
#include "sample.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <type_traits>
#include <unistd.h>

#include "../check/checker.hpp"
#include "../state/schedule.hpp"
#include "../state/worker.hpp"

namespace simt::sim::detail {

namespace {

using Clock = BlockSample::Clock;
using std::chrono::milliseconds;

/// What the copy sends, one write each: the blocks timed so far, then the prediction.
struct Message {
    enum Kind : std::uint8_t { timed, counted } kind;
    unsigned blocks;  ///< timed: blocks timed so far; counted: blocks the prediction counted
    double seconds;   ///< timed: their CPU time together
    TimePrediction predicted;
};
static_assert(std::is_trivially_copyable_v<Message>);
static_assert(sizeof(Message) <= PIPE_BUF, "a pipe write this small arrives whole");

// The copy's budget: timing ends after 0.1 s of CPU (enough for a rate) or 0.6 s from the fork,
// counting after 0.1 s more or at 1.4 s, each after one block at least; the prediction then
// takes about 0.1 s more (symbolising the sites, reading their lines). On a machine that gives
// the copy a quarter of a core, the answer still comes within BlockSample::limit.
constexpr double enough_cpu = 0.1;
constexpr auto time_until = milliseconds(600), count_until = milliseconds(1400);
constexpr unsigned most_timed = 32, most_counted = 8;

double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

/// Blocks from `from` on, spread over the rest of the launch by the golden-ratio sequence, so
/// that any first few lie far apart (a launch's blocks often differ along it: edges, triangles).
class Spread {
public:
    Spread(std::uint64_t from, std::uint64_t n) : from_(from < n ? from : 0), count_(n - from_) {}
    std::uint64_t next() {
        x_ += 0.6180339887498949;
        x_ -= static_cast<double>(static_cast<int>(x_));
        return from_ + std::min(count_ - 1, static_cast<std::uint64_t>(x_ * double(count_)));
    }

private:
    std::uint64_t from_, count_;
    double x_ = 0;
};

/// The copy's whole life: its blocks, what it sends through `fd`, its end.
[[noreturn]] void sample_in_copy(const GridRun& launch, int fd, pid_t parent,
                                 Clock::time_point since) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(0);
    std::signal(SIGINT, SIG_DFL);  // a Ctrl-C at the terminal ends it with its parent
    std::signal(SIGALRM, SIG_DFL);
    // Its own end, should nobody kill it: a second after the parent has stopped waiting.
    const auto waited = std::chrono::ceil<std::chrono::seconds>(BlockSample::limit);
    alarm(static_cast<unsigned>(waited.count()) + 1);
    if (int null = open("/dev/null", O_RDWR); null >= 0) {
        dup2(null, 1);
        dup2(null, 2);
    }
    // Pages either process writes now are copied: should memory run out, the copy goes first.
    if (int oom = open("/proc/self/oom_score_adj", O_WRONLY); oom >= 0) {
        (void)!write(oom, "1000", 4);
        close(oom);
    }
    stop_requested.store(false);  // a probe of the parent's is no business of the copy's

    auto send = [fd](const Message& m) {
        if (write(fd, &m, sizeof m) != static_cast<ssize_t>(sizeof m)) _exit(1);
    };
    Config none = launch.cfg;  // as SIMT_CHECK=none has it
    none.check_race = none.check_init = none.check_sync = none.check_leak = false;
    none.profile_text = false;
    none.profile_json.clear();
    Spread blocks(launch.blocks_done.load(), launch.nblocks);
    Worker& w = worker();
    // Never destroyed: a launch's end would report, and the copy ends with _exit anyway.
    auto* timed = new GridRun(launch.k, none);
    new LaunchChecks(*timed);
    // The first block also makes the worker's fibers: it is left out once a second is timed.
    double first = 0, rest = 0;
    for (unsigned ran = 1; ran <= most_timed + 1; ++ran) {
        const double start = cpu_seconds();
        w.run_block(*timed, blocks.next());
        (ran == 1 ? first : rest) += cpu_seconds() - start;
        send({Message::timed, ran == 1 ? 1 : ran - 1, ran == 1 ? first : rest, {}});
        if (rest >= enough_cpu || Clock::now() - since >= time_until) break;
    }

    Config counting = none;
    counting.profile_text = true;  // the profiler's counters, as SIMT_PROFILE has them
    auto* counted = new GridRun(launch.k, counting);
    new LaunchChecks(*counted);
    double spent = 0;
    unsigned n = 0;
    while (n < most_counted) {
        const double start = cpu_seconds();
        w.run_block(*counted, blocks.next());
        ++n;
        spent += cpu_seconds() - start;
        if (spent >= enough_cpu || Clock::now() - since >= count_until) break;
    }
    if (TimePrediction p; predict_running && predict_running(*counted, p))
        send({Message::counted, n, 0, p});
    _exit(0);
}

}  // namespace

BlockSample::BlockSample(const GridRun& g) : g_(g), since_(Clock::now()) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return;
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        sample_in_copy(g, fds[1], parent, since_);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return;
    }
    pid_ = pid;
    fd_ = fds[0];
    fcntl(fd_, F_SETFL, O_NONBLOCK);
}

BlockSample::~BlockSample() {
    if (pid_ > 0) {
        kill(pid_, SIGKILL);  // at once: what it was doing is of no use any more
        while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {}
    }
    if (fd_ >= 0) close(fd_);
}

double BlockSample::waited() const {
    return std::chrono::duration<double>(Clock::now() - since_).count();
}

void BlockSample::read_messages() {
    char bytes[4096];
    for (;;) {
        const ssize_t got = read(fd_, bytes, sizeof bytes);
        if (got == 0) {
            done_ = true;  // the copy has ended
            break;
        }
        if (got < 0) {
            if (errno == EINTR) continue;
            if (errno != EAGAIN) done_ = true;
            break;
        }
        buffer_.append(bytes, static_cast<std::size_t>(got));
    }
    while (buffer_.size() >= sizeof(Message)) {
        Message m;
        std::memcpy(&m, buffer_.data(), sizeof m);
        buffer_.erase(0, sizeof m);
        if (m.kind == Message::timed) {
            timed_ = m.blocks;
            seconds_ = m.seconds;
        } else {
            predicted_ = m.predicted;
            counted_ = m.blocks;
        }
    }
}

bool BlockSample::poll() {
    if (done_) return true;
    if (fd_ < 0) return done_ = true;
    read_messages();
    if (Clock::now() - since_ >= limit) done_ = true;
    return done_;
}

unsigned unchecked_workers(const GridRun& g) {
    const int asked = ThreadSchedule::workers(g.cfg);
    const unsigned n = asked > 0 ? static_cast<unsigned>(asked)
                                 : std::max(1u, std::thread::hardware_concurrency());
    return static_cast<unsigned>(std::min<std::uint64_t>(n, g.nblocks));
}

}  // namespace simt::sim::detail
