// The playground page (docs/playground.md): the lesson list, a lesson's README and its files in
// an editor, and the run: buttons, streamed output, compile errors and findings marked at their
// lines, and the run's report page. Everything it shows comes from simt_serve's /api/.
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from '@codemirror/view';
import { defaultKeymap, history as editHistory, historyKeymap, indentWithTab } from '@codemirror/commands';
import { syntaxHighlighting, defaultHighlightStyle, indentOnInput, bracketMatching, indentUnit } from '@codemirror/language';
import { cpp } from '@codemirror/lang-cpp';
import { lintGutter, setDiagnostics, forEachDiagnostic } from '@codemirror/lint';
import { renderReadme } from './readme.js';

const POLL_MS = 250;
const SAVE_MS = 400;
const token = new URLSearchParams(location.search).get('token') || '';
const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  node.append(...children);  // strings go in as text, never as HTML
  return node;
}

// One /api/ call: JSON in and out, the token on every request. Throws with the server's words.
async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: { 'X-Simt-Token': token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : {}; } catch { data = null; }
  if (!response.ok) {
    const why = (data && (data.error || data.message)) || text.trim() || response.statusText;
    const error = new Error(response.status === 429 ? `two runs are already going: stop one first (${why})`
      : response.status === 403 ? `the server refused the request: open the address the server printed, with its token (${why})`
      : `${method} ${path.split('?')[0]}: ${response.status} ${why}`);
    error.status = response.status;
    throw error;
  }
  if (data === null) throw new Error(`${method} ${path.split('?')[0]}: the answer is not JSON`);
  return data;
}

function say(message) {
  $('message').textContent = message || '';
}

// --- The editor --------------------------------------------------------------------------------

// One EditorState per file of the open lesson, swapped into the one view when its tab is picked.
const extensions = [
  lineNumbers(), highlightActiveLineGutter(), editHistory(), drawSelection(), indentOnInput(),
  bracketMatching(), highlightActiveLine(), indentUnit.of('    '),
  syntaxHighlighting(defaultHighlightStyle, { fallback: true }), cpp(), lintGutter(),
  keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
  EditorView.updateListener.of((update) => {
    if (update.docChanged && current) fileChanged(current.lesson.id, current.file, update.state);
  }),
];
const view = new EditorView({ parent: $('editor'), state: EditorState.create({ doc: '', extensions }) });

let current = null;  // { lesson, file: name or null (the README), states: {name: EditorState}, edited: {name: bool} }
let generation = 0;  // a lesson picked later makes an earlier pick's answers stale

// Edits are saved after SAVE_MS without typing, and before every run.
const pendingSaves = new Map();  // "lesson\0file" -> { timer, lesson, file, state }
function fileChanged(lesson, file, state) {
  if (current && current.lesson.id === lesson) current.states[file] = state;
  const key = `${lesson}\0${file}`;
  const pending = pendingSaves.get(key);
  if (pending) clearTimeout(pending.timer);
  const entry = { lesson, file, state, timer: setTimeout(() => save(key), SAVE_MS) };
  pendingSaves.set(key, entry);
}
async function save(key) {
  const entry = pendingSaves.get(key);
  if (!entry) return;
  pendingSaves.delete(key);
  clearTimeout(entry.timer);
  try {
    await api('PUT', '/api/file', { lesson: entry.lesson, file: entry.file, text: entry.state.doc.toString() });
    if (current && current.lesson.id === entry.lesson) {
      current.edited[entry.file] = true;
      drawTabs();
    }
  } catch (error) {
    say(`Your edit of ${entry.file} was not saved: ${error.message}`);
  }
}
const saveAll = () => Promise.all([...pendingSaves.keys()].map(save));

function showTab(file) {
  if (!current) return;
  if (current.file && current.states[current.file]) current.states[current.file] = view.state;
  current.file = file;
  const onReadme = file === null;
  $('readme').hidden = !onReadme;
  $('editor').hidden = onReadme;
  if (!onReadme) {
    view.setState(current.states[file]);
    view.requestMeasure();
  }
  drawTabs();
}

function drawTabs() {
  const tabs = $('tabs');
  tabs.replaceChildren();
  if (!current) return;
  const tab = (label, file, extra = '') => el('button', {
    type: 'button', role: 'tab', class: `tab${current.file === file ? ' active' : ''}${extra}`,
    'aria-selected': String(current.file === file), dataset: { file: file ?? '' },
    onclick: () => showTab(file),
  }, label);
  tabs.append(tab('README', null, ' readme-tab'));
  for (const name of current.lesson.files) {
    const marks = current.diagnosticCounts?.[name];
    tabs.append(tab(`${name}${current.edited[name] ? ' (edited)' : ''}${marks ? ` ⚠ ${marks}` : ''}`, name));
  }
}

// --- Lessons -----------------------------------------------------------------------------------

let lessons = [];
let gpu = false;

async function loadLessons() {
  const data = await api('GET', '/api/lessons');
  lessons = data.lessons || [];
  gpu = !!data.gpu;
  $('run-gpu').hidden = !gpu;
  const list = $('lessons');
  list.replaceChildren(...lessons.map((lesson) => el('li', { dataset: { id: lesson.id }, tabindex: '0',
    onclick: () => pickLesson(lesson.id),
    onkeydown: (event) => { if (event.key === 'Enter') pickLesson(lesson.id); },
  }, el('span', { class: 'lesson-id' }, lesson.id === 'mine' ? 'your folder' : lesson.id),
     el('span', { class: 'lesson-title' }, lesson.title || ''))));
}

async function pickLesson(id) {
  const lesson = lessons.find((l) => l.id === id);
  if (!lesson) return say(`No lesson ${id}`);
  const mine = ++generation;
  await saveAll();
  const texts = await Promise.all(lesson.files.map((file) =>
    api('GET', `/api/file?lesson=${encodeURIComponent(id)}&file=${encodeURIComponent(file)}`)));
  if (mine !== generation) return;
  current = { lesson, file: null, states: {}, edited: {}, diagnosticCounts: {} };
  lesson.files.forEach((file, i) => {
    current.states[file] = EditorState.create({ doc: texts[i].text ?? '', extensions });
    current.edited[file] = !!texts[i].edited;
  });
  for (const li of $('lessons').children) li.classList.toggle('active', li.dataset.id === id);
  $('lesson-title').textContent = lesson.title ? `${lesson.id}: ${lesson.title}` : lesson.id;
  $('readme').replaceChildren();
  $('readme').innerHTML = lesson.readme ? renderReadme(lesson.readme)
    : '<p class="hint">This folder has no README.md: its files are in the tabs above.</p>';
  $('variants').replaceChildren(...(lesson.variants || []).map((variant) => {
    const args = (variant.args || []).join(' ');
    return el('button', { type: 'button', class: 'variant', dataset: { args },
      title: `Run with the arguments: ${args}`, onclick: () => startRun('checked', variant.args || []) },
      variant.label || args);
  }));
  if (lesson.variants?.length) $('variants').prepend(el('span', { class: 'variants-label' }, 'Run with:'));
  history.replaceState(null, '', `${location.pathname}${location.search}#${encodeURIComponent(id)}`);
  showTab(lesson.readme ? null : lesson.files[0] ?? null);
  if (run && run.lesson === id && run.marks) applyMarks(run.marks);
}

// --- Runs --------------------------------------------------------------------------------------

let run = null;  // { id, lesson, from, done, marks }

function setStatus(text, kind) {
  const status = $('status');
  status.textContent = text;
  status.className = kind || '';
}

function setRunning(going) {
  for (const id of ['run', 'run-unchecked', 'profile', 'run-gpu', 'reset']) $(id).disabled = going;
  for (const button of $('variants').querySelectorAll('button')) button.disabled = going;
  $('stop').disabled = !going;
}

async function startRun(mode, args = []) {
  if (!current) return say('Pick a lesson first.');
  say('');
  setRunning(true);
  try {
    await saveAll();
    const lesson = current.lesson.id;
    const { id } = await api('POST', '/api/run', { lesson, mode, args });
    run = { id, lesson, from: 0, done: false, marks: null };
    $('output').textContent = '';
    $('report-box').hidden = true;
    $('report-box').replaceChildren();
    applyMarks({ compile_errors: [], findings: [] });
    if (current.file === null && current.lesson.files.length) showTab(current.lesson.files[0]);
    setStatus(`building${args.length ? ` (${args.join(' ')})` : ''}`, 'going');
    poll(run);
  } catch (error) {
    setRunning(false);
    setStatus('not started', 'failed');
    say(error.message);
  }
}

async function poll(thisRun) {
  if (thisRun !== run) return;
  let data;
  try {
    data = await api('GET', `/api/run/${encodeURIComponent(thisRun.id)}?from=${thisRun.from}`);
  } catch (error) {
    say(`Lost the run: ${error.message}`);
    setStatus('lost', 'failed');
    setRunning(false);
    return;
  }
  if (thisRun !== run) return;
  if (data.output) {
    const output = $('output');
    const atBottom = output.scrollTop + output.clientHeight >= output.scrollHeight - 4;
    output.append(data.output);
    if (atBottom) output.scrollTop = output.scrollHeight;
  }
  if (typeof data.next === 'number') thisRun.from = data.next;
  if (data.state !== 'done') {
    setStatus(data.state || 'running', 'going');
    setTimeout(() => poll(thisRun), POLL_MS);
    return;
  }
  thisRun.done = true;
  setRunning(false);
  if (data.stopped) setStatus(`stopped${data.exit != null ? ` (exit ${data.exit})` : ''}`, 'failed');
  else setStatus(`done: exit ${data.exit}`, data.exit === 0 ? 'ok' : 'failed');
  thisRun.marks = { compile_errors: data.compile_errors || [], findings: data.findings || [] };
  if (current && current.lesson.id === thisRun.lesson) applyMarks(thisRun.marks);
  if (data.report) {
    const src = `/run/${encodeURIComponent(thisRun.id)}/report.html?token=${encodeURIComponent(token)}`;
    $('report-box').replaceChildren(
      el('h2', {}, 'The run\'s report page ', el('a', { href: src, target: '_blank', rel: 'noopener' }, 'open on its own')),
      el('iframe', { id: 'report', src, title: 'The run\'s report page' }));
    $('report-box').hidden = false;
  }
}

// A path's last part: the server and the simulator name files by full path, the tabs by name.
const baseName = (path) => String(path || '').split(/[\\/]/).pop();

// Compile errors and findings as lint diagnostics: each at its line of the file of that name.
function applyMarks({ compile_errors: errors, findings }) {
  const byFile = {};
  const add = (file, line, column, severity, message, source) => {
    const name = baseName(file);
    if (!current || !current.states[name] || !(line >= 1)) return;
    (byFile[name] ||= []).push({ line, column, severity, message, source });
  };
  for (const e of errors) add(e.file, e.line, e.column, 'error', e.message, 'compiler');
  for (const f of findings) {
    const message = String(f.text || f.kind || 'finding').split('\n')[0].replace(/^simt: /, '');
    const sites = f.sites?.length ? f.sites : [{ file: f.file, line: f.line }];
    const seen = new Set();
    for (const site of sites) {
      const key = `${baseName(site.file)}:${site.line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      add(site.file, site.line, 0, 'error', message, f.kind || 'simt');
    }
  }
  if (!current) return;
  current.diagnosticCounts = {};
  for (const name of current.lesson.files) {
    const state = name === current.file ? view.state : current.states[name];
    const diagnostics = (byFile[name] || []).map((d) => {
      const line = state.doc.line(Math.min(d.line, state.doc.lines));
      const indent = line.text.length - line.text.trimStart().length;
      const from = d.column > 0 ? Math.min(line.from + d.column - 1, line.to) : line.from + indent;
      return { from, to: Math.max(from, line.to), severity: d.severity, message: d.message, source: d.source };
    });
    current.diagnosticCounts[name] = diagnostics.length;
    if (name === current.file) {
      view.dispatch(setDiagnostics(view.state, diagnostics));
      // The first mark in sight, unless the learner has already moved the cursor away from the top.
      if (diagnostics.length && view.state.selection.main.head === 0)
        view.dispatch({ effects: EditorView.scrollIntoView(diagnostics[0].from, { y: 'center' }) });
    }
    else current.states[name] = state.update(setDiagnostics(state, diagnostics)).state;
  }
  drawTabs();
}

$('run').addEventListener('click', () => startRun('checked'));
$('run-unchecked').addEventListener('click', () => startRun('unchecked'));
$('profile').addEventListener('click', () => startRun('profile'));
$('run-gpu').addEventListener('click', () => startRun('gpu'));
$('stop').addEventListener('click', async () => {
  if (!run || run.done) return;
  setStatus('stopping', 'going');
  try { await api('POST', `/api/run/${encodeURIComponent(run.id)}/stop`, {}); } catch (error) { say(error.message); }
});
$('reset').addEventListener('click', async () => {
  if (!current) return;
  const id = current.lesson.id;
  if (!confirm(`Drop your edits to ${id} and go back to the lesson's version?`)) return;
  for (const [key, entry] of pendingSaves) if (entry.lesson === id) { clearTimeout(entry.timer); pendingSaves.delete(key); }
  try {
    await api('POST', '/api/reset', { lesson: id });
    if (run && run.lesson === id) run.marks = null;  // they were of the text just dropped
    const file = current.file;
    await pickLesson(id);
    if (file !== null) showTab(file);
  } catch (error) { say(`Reset failed: ${error.message}`); }
});
addEventListener('beforeunload', () => { for (const key of pendingSaves.keys()) save(key); });

// For the browser test (tests/playground/check_playground.mjs) and the curious: the editor, and the
// marks it shows now, by line.
window.simtPlayground = {
  view,
  file: () => current?.file ?? null,
  diagnostics() {
    const marks = [];
    forEachDiagnostic(view.state, (d, from) => {
      const line = view.state.doc.lineAt(from);
      marks.push({ line: line.number, text: line.text, severity: d.severity, message: d.message });
    });
    return marks;
  },
};

setRunning(false);
$('stop').disabled = true;
loadLessons().then(() => {
  const wanted = decodeURIComponent(location.hash.slice(1));
  if (wanted && lessons.some((l) => l.id === wanted)) pickLesson(wanted);
}).catch((error) => say(`The lessons could not be loaded: ${error.message}`));
