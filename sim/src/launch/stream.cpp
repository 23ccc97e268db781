// Streams and events: each stream is an in-order queue served by its own OS thread.
#include "streams.hpp"
#include "gpu_clock.hpp"
#include "../report/page.hpp"
#include "grid.hpp"
#include "watchdog.hpp"
#include "../check/checker.hpp"

#include <condition_variable>
#include <mutex>
#include <set>

namespace simt::sim::detail {

/// Never destroyed: stream threads may still be parked when the process ends.
StreamRegistry& registry() {
    static StreamRegistry* r = new StreamRegistry;
    return *r;
}

void record_event(EventImpl& ev, std::shared_ptr<EventImpl> keep, StreamImpl& stream) {
    std::uint64_t record;
    {
        std::lock_guard lock(ev.m);
        record = ++ev.records;
        ev.clock = order_event_record(stream.id);
        ev.clock_op = clock_record(stream);
    }
    stream.enqueue([ev = std::move(keep), record] {
        {
            std::lock_guard lock(ev->m);
            if (record >= ev->reached) {
                ev->when = std::chrono::steady_clock::now();
                ev->reached = record;
            }
        }
        ev->cv.notify_all();
    }, true);
}

void wait_event(StreamImpl& stream, std::shared_ptr<EventImpl> ev) {
    std::uint64_t record;
    {
        std::lock_guard lock(ev->m);
        order_stream_waits(stream.id, ev->clock);
        record = ev->records;
        if (record) clock_stream_waits(stream, ev->clock_op);
    }
    // Waiting for a record made later would order this stream's work after work queued after
    // it, which a checked launch queued later waits for (wait_for_launches_before): a deadlock.
    if (record == 0) return;  // never recorded: CUDA waits for nothing
    stream.enqueue([ev, record] {
        std::unique_lock lock(ev->m);
        ev->cv.wait(lock, [&] { return ev->reached >= record; });
    }, true);
}

namespace {

/// `waiter` goes on only after what `other` has queued so far, as if an event recorded on
/// `other` were waited for.
void stream_waits_for(StreamImpl& waiter, StreamImpl& other) {
    auto ev = std::make_shared<EventImpl>();
    record_event(*ev, ev, other);
    wait_event(waiter, std::move(ev));
}

}  // namespace

/// CUDA's legacy default stream (stream 0): a launch on it waits for the work queued on every
/// blocking stream, and a launch on a blocking stream waits for the work queued on it, so that
/// `k1<<<g, b, 0, s>>>(); k2<<<g, b>>>();` runs k2 after k1, and the race checker orders them.
/// Each simulated device has a legacy stream of its own and synchronises only its own streams.
void order_with_legacy_default(StreamImpl& impl) {
    const bool is_legacy = impl.legacy || &impl == &Stream::default_stream().impl();
    if (!is_legacy && !impl.blocking) return;
    for (auto& s : registry().live()) {
        if (s.get() == &impl || s->device != impl.device) continue;
        const bool other_legacy = s->legacy || s == registry().default_stream;
        if (is_legacy ? s->blocking && !other_legacy : other_legacy) stream_waits_for(impl, *s);
    }
}

namespace {

/// The launches queued and not yet ended, by serial.
struct QueuedLaunches {
    std::mutex m;
    std::condition_variable ended;
    std::uint32_t next_serial = 1;
    std::set<std::uint32_t> waiting;
};
QueuedLaunches& queued_launches() {
    static QueuedLaunches* q = new QueuedLaunches;  // stream threads may outlive statics
    return *q;
}

/// A launch's number in the order the host queued launches (KernelLaunch::serial), held from
/// enqueue_launch until the launch has run or its stream has dropped it.
std::uint32_t queue_launch() {
    QueuedLaunches& q = queued_launches();
    std::lock_guard lock(q.m);
    q.waiting.insert(q.next_serial);
    return q.next_serial++;
}

void launch_ended(std::uint32_t serial) {
    QueuedLaunches& q = queued_launches();
    {
        std::lock_guard lock(q.m);
        q.waiting.erase(serial);
    }
    q.ended.notify_all();
}

/// Ends a launch's place in the queue when the stream's task that holds it is destroyed, run or
/// dropped (a stream drops the work after an error).
struct QueuedLaunch {
    std::uint32_t serial;
    ~QueuedLaunch() {
        clock_launch_ended(serial);
        launch_ended(serial);
    }
};

}  // namespace

void wait_for_launches_before(std::uint32_t serial) {
    QueuedLaunches& q = queued_launches();
    std::unique_lock lock(q.m);
    q.ended.wait(lock, [&] { return q.waiting.empty() || *q.waiting.begin() >= serial; });
}

void enqueue_launch(const Stream* s, KernelLaunch k) {
    if (captured_launch(s, k)) return;  // a stream under capture adds a graph node (graph.cpp)
    StreamImpl& impl = s ? s->impl() : Stream::default_stream().impl();
    // Serials in each stream's queue in order, when several host threads launch: a launch
    // behind a later serial in its own queue would wait for it for ever.
    static std::mutex queueing;
    std::lock_guard lock(queueing);
    order_with_legacy_default(impl);
    k.serial = queue_launch();
    clock_launch(impl, k.serial, k.site.file_name(), k.site.line(), k.graph_launch);
    auto place = std::make_shared<QueuedLaunch>(k.serial);
    k.stream = impl.id;
    k.device = impl.device;
    order_launch(k);
    auto shared = std::make_shared<KernelLaunch>(std::move(k));
    impl.enqueue([shared, place] {
        Watched watched(*shared);
        clock_launch_started(shared->serial);
        try {
            run_grid(*shared);
        } catch (const simt::KernelError& e) {
            if (watched.stopped()) watched.rethrow_stopped(e);
            page_launch_failed(e.what());
            throw;
        }
    });
}

bool drain_streams_at_exit() {
    // Work still queued at exit runs to completion, and an error no one collected is printed
    // rather than lost.
    bool uncollected = false;
    for (auto& s : registry().live()) {
        s->wait_idle();
        if (auto e = s->take_error()) {
            try {
                std::rethrow_exception(e);
            } catch (const std::exception& ex) {
                std::fprintf(stderr, "%s\nsimt: (this error was never collected: call "
                                     "simt::synchronize() after launching)\n", ex.what());
                uncollected = true;
            }
        }
    }
    return uncollected;
}

void wait_for_streams() {
    std::exception_ptr first;
    for (auto& s : registry().live()) {
        s->wait_idle();
        if (auto e = s->take_error(); e && !first) first = e;
    }
    order_host_waits_all();
    if (first) std::rethrow_exception(first);
}

void wait_all_quietly() {
    for (auto& s : registry().live()) s->wait_idle();
    order_host_waits_all();
}

}  // namespace simt::sim::detail

namespace simt {

using sim::detail::registry;

Stream::Stream() : impl_(std::make_shared<sim::detail::StreamImpl>()) {
    auto& r = registry();
    std::lock_guard lock(r.m);
    r.streams.push_back(impl_);
}

Stream Stream::default_stream() { return Stream(registry().default_stream); }

void Stream::synchronize() const { impl_->synchronize(); }

void Stream::wait(const Event& e) const { sim::detail::wait_event(*impl_, e.impl_shared()); }

Event::Event() : impl_(std::make_shared<sim::detail::EventImpl>()) {}

void Event::record(const Stream* s) {
    sim::detail::StreamImpl& stream = s ? s->impl() : Stream::default_stream().impl();
    // A record is an operation of its stream like a launch: on the legacy default stream it
    // comes after the blocking streams' queued work.
    sim::detail::order_with_legacy_default(stream);
    sim::detail::record_event(*impl_, impl_, stream);
}

void Event::synchronize() const {
    sim::detail::ClockOp op;
    {
        std::unique_lock lock(impl_->m);
        impl_->cv.wait(lock, [&] { return impl_->done(); });
        sim::detail::order_host_waits_event(impl_->clock);
        op = impl_->clock_op;
    }
    sim::detail::clock_host_waits(op);
}

bool Event::query() const {
    sim::detail::ClockOp op = 0;
    {
        std::lock_guard lock(impl_->m);
        if (!impl_->done()) return false;
        sim::detail::order_host_waits_event(impl_->clock);  // like cudaEventQuery
        op = impl_->clock_op;
    }
    sim::detail::clock_host_waits(op);  // a host that saw it reached is past it
    return true;
}

float Event::elapsed_ms(const Event& end) const {
    synchronize();
    end.synchronize();
    if (!impl_->recorded() || !end.impl_->recorded())
        throw Error("simt::Event::elapsed_ms: both events must have been recorded");
    return std::chrono::duration<float, std::milli>(end.impl_->when - impl_->when).count();
}

void synchronize() {
    sim::detail::wait_for_streams();
    sim::detail::clock_host_waits_all();
}

}  // namespace simt
