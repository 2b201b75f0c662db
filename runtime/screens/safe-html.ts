/**
 * Rich text as it may be shown: DOMPurify with HTML only, no styles, forms or buttons. Its
 * own module so that a table showing an html column does not load the rich-text editor.
 * The server sanitises again when it stores the text (server/admin/sanitize.ts): that is
 * the guarantee; this keeps what the browser renders safe whatever it was given.
 */
import DOMPurify from 'dompurify';

export function safeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input', 'button'], FORBID_ATTR: ['style'] });
}
