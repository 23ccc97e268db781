// #findings: one entry per finding, its picture, and the report text the program printed.
// Clicking one brings its line into view in the source.
import { h, place } from './dom.js';
import { drawPicture } from './finding-pictures.js';

/// "tile[32]", or "tile[(1, 0)]" where the simulator wrote the index as text.
function element(f) {
  if (!f.array) return '';
  const index = f.index === undefined || f.index === null || f.index === '' ? '' : `[${f.index}]`;
  return `${f.array}${index}`;
}

export function renderFindings(data, ctx) {
  const findings = data.findings ?? [];
  const root = h('section', { id: 'findings', class: 'panel' },
    h('h2', {}, `Findings (${findings.length})`),
    h('p', { class: 'intro' }, 'What the checks caught, in the order they were reported. Each picture is drawn from what the simulator kept of the moment; the text under it is the report the program printed. Click one to see its line in the source.'));
  if (data.bounds?.findings_dropped)
    root.append(h('p', { class: 'note' }, `${data.bounds.findings_dropped} later findings were counted but not kept for this page.`));

  findings.forEach((f, i) => {
    const heading = h('h3', {},
      h('span', { class: `kind kind-${f.kind}` }, f.kind),
      f.hazard ? h('span', { class: 'hazard', title: 'RAW: read after write, WAR: write after read, WAW: write after write' }, f.hazard) : null,
      element(f) ? h('code', { class: 'element' }, element(f)) : null,
      f.space ? h('span', { class: 'space' }, `${f.space} memory`) : null,
      h('span', { class: 'where' }, place(f.file, f.line)));
    let picture = null;
    try {
      picture = drawPicture(f);
    } catch (err) {
      // One picture that cannot be drawn must not take the page with it; the text still says it all.
      console.error(`simt report: the picture of finding ${i + 1} (${f.kind}) could not be drawn:`, err);
    }
    const item = h('article', {
      class: 'finding', 'data-kind': f.kind, 'data-line': f.line, 'data-file': f.file,
      tabindex: 0, title: `Show ${place(f.file, f.line)} in the source`,
    }, heading, picture, h('pre', { class: 'finding-text' }, f.text));
    const show = (event) => {
      // Selecting text in the report must not jump the page.
      if (window.getSelection()?.toString()) return;
      event.preventDefault();
      ctx.showLine(f.file, f.line);
    };
    item.addEventListener('click', show);
    item.addEventListener('keydown', (e) => { if (e.key === 'Enter') show(e); });
    root.append(item);
  });
  return root;
}
