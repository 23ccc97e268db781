// Small helpers every section shares: elements whose text is always set as text (never parsed
// as HTML, so nothing in a run's data can become markup), and the page's number formats.
import { format } from 'd3-format';

/// An element with attributes and children; strings become text nodes, null/false are skipped.
/// `class` and `data-*` go in as attributes, like every other key.
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'onclick') node.addEventListener('click', value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/// A section of the page: heading, then paragraphs that say what the picture shows.
export function section(id, title, ...intro) {
  return h('section', { id, class: 'panel' }, h('h2', {}, title),
    intro.map((p) => h('p', { class: 'intro' }, p)));
}

/// "modelled, not measured": said wherever a number is the simulator's model of a GPU counter.
export function modelled(text = 'modelled, not measured') {
  return h('span', { class: 'modelled', title: 'The simulator computes this from what each warp did, by the rules of its model of the GPU. No GPU ran the program.' }, text);
}

export const int = format(',');
export const fixed1 = format('.1f');
/// "1 element", "1,024 elements".
export const plural = (n, one, many = `${one}s`) => `${int(n)} ${n === 1 ? one : many}`;

/// A unit for a count: "sectors" for 2, "sector" for 1.
export const unitFor = (n, unit) => (n === 1 && unit.endsWith('s') ? unit.slice(0, -1) : unit);

/// A count kept short for a margin: 950, 32.8k, 1.05M.
export const count = (n) => (Math.abs(n) < 1000 ? String(n) : format('.3~s')(n));
const si3 = format('.3~s');

/// 9.75e12 with unit "ops/s" -> "9.75 T ops/s"; with "B/s" -> "1.84 TB/s".
export function si(value, unit) {
  const text = si3(value);
  const match = /^(-?[\d.]+)([a-zµ]*)$/i.exec(text);
  if (!match) return `${text} ${unit}`;
  const [, number, prefix] = match;
  const gap = unit.startsWith('B') ? '' : ' ';
  return prefix ? `${number} ${prefix}${gap}${unit}` : `${number} ${unit}`;
}

const sig3 = format('.3~r');
/// Microseconds as a person reads them: "3.48 µs", "61.2 ms", "1.2 s".
export function duration(us) {
  if (us === null || us === undefined || Number.isNaN(us)) return '?';
  if (Math.abs(us) < 1000) return `${sig3(us)} µs`;
  if (Math.abs(us) < 1e6) return `${sig3(us / 1000)} ms`;
  return `${sig3(us / 1e6)} s`;
}

/// (x,y,z) as CUDA's reports write a block or thread.
export const triple = (t) => (Array.isArray(t) ? `(${t.join(',')})` : String(t ?? '?'));

/// The part of a path after its last slash: reports name files by their base name.
export const baseName = (path) => String(path ?? '').split(/[\\/]/).pop();
export const sameFile = (a, b) => a === b || baseName(a) === baseName(b);

/// A unique id for SVG references (clip paths, markers) within this page.
let serial = 0;
export const uid = (stem) => `${stem}-${++serial}`;

/// A heading's anchor text for a file and line: "mix.cu:19".
export const place = (file, line) => `${baseName(file)}:${line}`;
