// The report pipeline, as TSan's ReportDesc -> PrintReport and KCSAN's skip -> print:
//
//   checker fills a Draft (draft.hpp)          data: kind, sites, threads, blocks, allocation
//   add_finding                                 skip a key this block or an earlier launch has
//   publish: filter                             drop blocks after the launch's failed one
//            de-duplicate                       one FindingKey (key_of), the same as add_finding's
//            symbolise                          the allocation's name, read from its source line
//            format                             text ({fmt}) and JSON (nlohmann::json)
//            emit                               stderr, the JSON Lines file, findings()
//
// No checker writes a word of a report, and no text is made for a finding that is not printed.
#pragma once
#include "text.hpp"
#include "draft.hpp"

namespace simt::sim::detail {

/// The key that reports a finding once (draft.hpp's FindingKey).
FindingKey key_of(const Draft& d);
/// Whether a finding with `key` was printed already (check/finding.cpp skips it).
bool was_published(const FindingKey& key);
/// The report a learner reads.
std::string format_text(const Draft& d);
/// One JSON object on one line (JSON Lines).
std::string format_json(const Finding& f);
/// The public finding a draft stands for, its text included.
Finding to_finding(const Draft& d);
/// Memory whose element type is not known: dynamic shared memory, cudaMalloc through a void*, a
/// struct's bytes. Reports count it in bytes, and index it in the access's size.
bool untyped(const Allocation* a);

}  // namespace simt::sim::detail
