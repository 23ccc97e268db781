// simt's report page: reads the run's data from #simt-data (report.schema.json's shape, written
// by the simulator) and draws each section that has something to show. The data flows one way,
// data -> picture; the only state is which counted line is selected for #access and #divergence.
import { h } from './dom.js';
import { renderSummary } from './summary.js';
import { renderFindings } from './findings.js';
import { renderSource } from './source.js';
import { renderAccess, hasAccessData } from './access.js';
import { renderDivergence, hasDivergenceData } from './divergence.js';
import { renderTimeline, hasTimelineData } from './timeline.js';
import { renderRoofline, hasRooflineData } from './roofline.js';
import { renderOccupancy, hasOccupancyData } from './occupancy.js';
import { defaultSelection } from './lines.js';

function readData() {
  const slot = document.getElementById('simt-data');
  try {
    return JSON.parse(slot?.textContent ?? '');
  } catch {
    return null;  // the template itself, never filled: said on the page, not an error
  }
}

/// The selection every picture of a line listens to.
function makeContext() {
  const listeners = [];
  const ctx = {
    selection: null,
    select(sel) {
      if (!sel) return;
      ctx.selection = sel;
      for (const f of listeners) f(sel);
    },
    onSelect(f) {
      listeners.push(f);
    },
    showLine: () => false,  // set by the source view
  };
  return ctx;
}

function main() {
  const page = document.getElementById('page');
  const data = readData();
  if (!data || typeof data !== 'object') {
    page.append(h('section', { id: 'summary', class: 'panel' }, h('h1', {}, 'simt report'),
      h('p', {}, 'This page holds no run: it is the template simt fills in when a program runs with SIMT_REPORT=html:PATH.')));
    return;
  }
  document.title = `simt report: ${data.program || 'program'}`;
  const ctx = makeContext();

  // Each section, in order, only where the data has something for it.
  const sections = [
    ['findings', 'Findings', () => (data.findings ?? []).length > 0, () => renderFindings(data, ctx)],
    ['source', 'Source', () => (data.sources ?? []).length > 0, () => renderSource(data, ctx)],
    ['access', 'Access', () => hasAccessData(data), () => renderAccess(data, ctx)],
    ['divergence', 'Divergence', () => hasDivergenceData(data), () => renderDivergence(data, ctx)],
    ['timeline', 'Timeline', () => hasTimelineData(data), () => renderTimeline(data)],
    ['roofline', 'Roofline', () => hasRooflineData(data), () => renderRoofline(data)],
    ['occupancy', 'Occupancy', () => hasOccupancyData(data), () => renderOccupancy(data)],
  ].filter(([, , has]) => has());

  const built = [];
  for (const [id, title, , render] of sections) {
    try {
      built.push([id, title, render()]);
    } catch (err) {
      // One section that cannot be drawn leaves the others standing, and says so where it is.
      console.error(`simt report: the ${id} section could not be drawn:`, err);
      built.push([id, title, h('section', { id, class: 'panel broken' }, h('h2', {}, title),
        h('p', { class: 'note' }, `This section could not be drawn (${err?.message ?? err}). The data is in this file, as JSON, in #simt-data.`))]);
    }
  }
  const summary = renderSummary(data, built.map(([id, title]) => [id, title]));
  if (data.simt_report !== 1)
    summary.append(h('p', { class: 'note version' }, `This data says it is version ${data.simt_report} of the report; this page draws version 1, and may miss some of it.`));
  page.append(summary);
  for (const [, , node] of built) page.append(node);

  // Only now, with every listener in place, the first line is chosen.
  ctx.select(defaultSelection(data));
}

main();
