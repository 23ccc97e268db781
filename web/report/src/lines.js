// The counted lines of every launch, and the choice among them: which line the access and
// divergence pictures show. Choosing reads the data's own actual and ideal; nothing is counted.
import { sameFile } from './dom.js';

/// Every launch's lines[] entries, each with where it came from: {li, ri, launch, rec}.
export function countedLines(data) {
  const all = [];
  (data.launches ?? []).forEach((launch, li) =>
    (launch.lines ?? []).forEach((rec, ri) => all.push({ li, ri, launch, rec })));
  return all;
}

/// The cost over the ideal (1: as good as the access can be), or null without an ideal.
export function costRatio(rec) {
  return rec.ideal > 0 ? rec.actual / rec.ideal : null;
}

/// The colour class of a cost: about ideal green, 2 to 4 times amber, more red.
export function costClass(rec) {
  const r = costRatio(rec);
  if (r === null) return 'cost-none';
  if (r < 2) return 'cost-ok';
  if (r <= 4) return 'cost-some';
  return 'cost-high';
}

/// The entries at one file:line, in launch order.
export function entriesAt(data, file, line) {
  return countedLines(data).filter((e) => e.rec.line === line && sameFile(e.rec.file, file));
}

/// The costliest of some entries (highest actual/ideal; the first on a tie), preferring
/// those with sampled requests, since those have a picture.
export function costliest(entries) {
  const pool = entries.some((e) => e.rec.samples?.length) ? entries.filter((e) => e.rec.samples?.length) : entries;
  let best = null;
  for (const e of pool)
    if (!best || (costRatio(e.rec) ?? 0) > (costRatio(best.rec) ?? 0)) best = e;
  return best;
}

/// What the page shows first: the costliest counted line of the first launch that has any.
export function defaultSelection(data) {
  const all = countedLines(data);
  return all.length ? costliest(all.filter((e) => e.li === all[0].li)) : null;
}

/// For a clicked source line: the first launch that counted it, its costliest entry there.
export function selectionAt(data, file, line) {
  const here = entriesAt(data, file, line);
  if (!here.length) return null;
  return costliest(here.filter((e) => e.li === here[0].li));
}

/// One request's average cost beside its ideal: "32.0 sectors/req (ideal 4.0)".
export function perRequest(rec) {
  if (!rec.requests || rec.unit === 'requests') return `${rec.requests} requests`;
  const one = (v) => (v / rec.requests).toFixed(1);
  return `${one(rec.actual)} ${rec.unit}/req (ideal ${one(rec.ideal)})`;
}

/// "global load", "shared store".
export const accessName = (rec) => `${rec.space} ${rec.op}`;
