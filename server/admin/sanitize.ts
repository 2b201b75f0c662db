import createDOMPurify, { type WindowLike } from 'dompurify';
import { JSDOM } from 'jsdom';

/**
 * Rich text (article bodies) cleaned on the server before it is stored, so that no
 * script survives whichever client wrote it. One jsdom window serves every call:
 * creating a window costs milliseconds and memory, sanitising in it is cheap.
 *
 * Kept: the HTML profile (no SVG or MathML, whose event attributes and foreign content
 * are the usual escape routes), links and images whose URL is http(s), mailto, tel or
 * site-relative, and a short list of harmless inline style properties.
 * Removed: scripts, event attributes, frames, objects, forms, `style` elements,
 * `javascript:`/`vbscript:`/`data:` URLs (data: images too, which DOMPurify keeps by
 * default), and style values that could load or compute anything (`url(`, `expression(`).
 */
const window = new JSDOM('').window;
const purify = createDOMPurify(window as unknown as WindowLike);

const SAFE_URL = /^(?:https?:\/\/|mailto:|tel:|\/(?!\/)|#)/i;
const URL_ATTRS = ['href', 'src', 'xlink:href', 'action', 'formaction', 'poster', 'background', 'cite', 'srcset'];
const STYLE_PROPS = new Set([
  'color', 'background-color', 'text-align', 'font-size', 'font-weight', 'font-style', 'text-decoration',
  'line-height', 'margin-left', 'padding-left', 'text-indent', 'width', 'height', 'max-width', 'vertical-align',
]);
const STYLE_VALUE = /^[#\w\s.,%-]+$|^rgba?\([\d\s.,%]+\)$/;

purify.addHook('afterSanitizeAttributes', (node) => {
  const el = node as Element;
  if (!el.getAttribute) return;
  for (const attr of URL_ATTRS) {
    const value = el.getAttribute(attr);
    if (value === null) continue;
    // Browsers ignore whitespace and control characters inside a scheme ("java\tscript:").
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this strips
    const compact = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
    if (attr === 'srcset' || !SAFE_URL.test(compact)) el.removeAttribute(attr);
  }
  const style = el.getAttribute('style');
  if (style !== null) {
    const kept = style
      .split(';')
      .map((decl) => decl.trim())
      .filter((decl) => {
        const i = decl.indexOf(':');
        if (i < 0) return false;
        const prop = decl.slice(0, i).trim().toLowerCase();
        const value = decl.slice(i + 1).trim();
        return STYLE_PROPS.has(prop) && STYLE_VALUE.test(value) && !/expression|url|javascript|\\/i.test(value);
      });
    if (kept.length) el.setAttribute('style', kept.join('; '));
    else el.removeAttribute('style');
  }
  if (el.tagName === 'A' && el.getAttribute('target')) {
    el.setAttribute('target', '_blank');
    el.setAttribute('rel', 'noopener noreferrer');
  }
});

const CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'frame', 'frameset', 'object', 'embed', 'base', 'link', 'meta'],
  FORBID_ATTR: ['srcdoc', 'formaction'],
  ADD_ATTR: ['target'],
  ALLOW_DATA_ATTR: false,
};

/** The HTML with everything that could run, load or frame anything removed. */
export function sanitizeHtml(html: string): string {
  return purify.sanitize(html, CONFIG) as string;
}
