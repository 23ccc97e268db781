// A lesson's README.md as HTML, from marked, with nothing of the README's own HTML let through:
// raw HTML is shown as text, and a link goes only to http(s) or to a place on the page.
import { Marked } from 'marked';

const escapeHtml = (text) => String(text).replace(/[&<>"']/g,
  (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

const marked = new Marked({
  gfm: true,
  renderer: {
    // Block and inline HTML alike: its text, escaped.
    html(token) {
      return escapeHtml(token.text);
    },
    link(token) {
      const text = this.parser.parseInline(token.tokens);
      const href = String(token.href || '');
      if (/^https?:\/\//i.test(href))
        return `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${text}</a>`;
      // A path in the repository (another lesson, a doc): its name, not a link the server lacks.
      return `<span class="repo-link" title="${escapeHtml(href)}">${text}</span>`;
    },
    image(token) {
      return `<span class="image-alt">[picture: ${escapeHtml(token.text || token.href || '')}]</span>`;
    },
  },
});

export function renderReadme(markdown) {
  return marked.parse(String(markdown), { async: false });
}
