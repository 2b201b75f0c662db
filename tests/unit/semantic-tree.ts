/**
 * A screen as QA reads it: an outline of roles, accessible names, texts and states, with no
 * markup, class names or styles. Schema snapshots compare this outline, so that a snapshot
 * changes when what a person sees or can do changes, not when antd renames a class.
 */

const IMPLICIT_ROLES: Record<string, string> = {
  BUTTON: 'button',
  NAV: 'navigation',
  MAIN: 'main',
  FORM: 'form',
  TABLE: 'table',
  THEAD: 'rowgroup',
  TBODY: 'rowgroup',
  TR: 'row',
  TH: 'columnheader',
  TD: 'cell',
  UL: 'list',
  OL: 'list',
  LI: 'listitem',
  SELECT: 'combobox',
  TEXTAREA: 'textbox',
  IMG: 'img',
  DIALOG: 'dialog',
  LABEL: 'label',
  DL: 'list',
  DT: 'term',
  DD: 'definition',
};

const INPUT_ROLES: Record<string, string> = {
  checkbox: 'checkbox',
  radio: 'radio',
  button: 'button',
  submit: 'button',
  reset: 'button',
  number: 'spinbutton',
  range: 'slider',
  search: 'searchbox',
};

/** Roles that only group others: shown when they carry a name, otherwise their children stand in. */
const QUIET_ROLES = new Set(['presentation', 'none', 'generic', 'rowgroup', 'label', 'group']);

function roleOf(el: Element): string | null {
  const explicit = el.getAttribute('role');
  if (explicit) return explicit.split(/\s+/)[0]!;
  const tag = el.tagName;
  if (/^H[1-6]$/.test(tag)) return `heading${tag[1]}`;
  if (tag === 'A') return el.hasAttribute('href') ? 'link' : null;
  if (tag === 'INPUT') {
    const type = (el.getAttribute('type') ?? 'text').toLowerCase();
    if (type === 'hidden') return null;
    return INPUT_ROLES[type] ?? 'textbox';
  }
  return IMPLICIT_ROLES[tag] ?? null;
}

const HIDDEN_TAGS = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'svg', 'SVG']);

function hidden(el: Element): boolean {
  if (HIDDEN_TAGS.has(el.tagName)) return true;
  if (el.getAttribute('aria-hidden') === 'true') return true;
  if (el.hasAttribute('hidden')) return true;
  const style = el.getAttribute('style') ?? '';
  return /display:\s*none|visibility:\s*hidden/.test(style);
}

function squeeze(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function quote(text: string): string {
  return JSON.stringify(text);
}

/** The name a screen reader would announce, from the attributes that set it explicitly. */
function explicitName(el: Element): string {
  const label = el.getAttribute('aria-label');
  if (label) return squeeze(label);
  const by = el.getAttribute('aria-labelledby');
  if (by) {
    const doc = el.ownerDocument;
    const text = by
      .split(/\s+/)
      .map((id) => doc.getElementById(id)?.textContent ?? '')
      .join(' ');
    if (squeeze(text)) return squeeze(text);
  }
  const id = el.getAttribute('id');
  if (id && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT')) {
    const label = Array.from(el.ownerDocument.getElementsByTagName('label')).find((l) => l.getAttribute('for') === id);
    if (label?.textContent && squeeze(label.textContent)) return squeeze(label.textContent);
  }
  const alt = el.getAttribute('alt');
  if (alt) return squeeze(alt);
  return '';
}

function states(el: Element): string[] {
  const out: string[] = [];
  const flag = (attr: string, name = attr.replace(/^aria-/, '')) => {
    const v = el.getAttribute(attr);
    if (v === 'true' || (v !== null && v !== 'false' && !attr.startsWith('aria-'))) out.push(name);
  };
  flag('disabled');
  flag('aria-disabled', 'disabled');
  flag('required');
  flag('aria-required', 'required');
  flag('readonly');
  flag('aria-selected', 'selected');
  flag('aria-expanded', 'expanded');
  flag('aria-invalid', 'invalid');
  if (el.tagName === 'INPUT') {
    const input = el as HTMLInputElement;
    if ((input.type === 'checkbox' || input.type === 'radio') && input.checked) out.push('checked');
  }
  const checked = el.getAttribute('aria-checked');
  if (checked === 'true' || checked === 'mixed') out.push(checked === 'true' ? 'checked' : 'mixed');
  return [...new Set(out)];
}

function properties(el: Element): string[] {
  const out: string[] = [];
  if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') {
    const input = el as HTMLInputElement;
    if (input.type !== 'checkbox' && input.type !== 'radio' && input.value) out.push(`value=${quote(input.value)}`);
    const placeholder = el.getAttribute('placeholder');
    if (placeholder) out.push(`placeholder=${quote(placeholder)}`);
  }
  if (el.tagName === 'A') {
    const href = el.getAttribute('href');
    if (href) out.push(`href=${quote(href)}`);
  }
  const data = el.getAttribute('data-screen');
  if (data) out.push(`screen=${quote(data)}`);
  return out;
}

/**
 * Lines of the outline, two spaces per level. Text nodes appear as quoted lines; an element
 * with a role appears as `role "name" [states] props`; elements without semantics add no level.
 */
export function semanticTree(root: Element): string {
  const lines: string[] = [];
  const walk = (node: Node, depth: number): void => {
    if (node.nodeType === 3) {
      const text = squeeze(node.textContent ?? '');
      if (text) lines.push(`${'  '.repeat(depth)}${quote(text)}`);
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    if (hidden(el)) return;
    const role = roleOf(el);
    const name = explicitName(el);
    const marks = [...states(el).map((s) => `[${s}]`), ...properties(el)];
    const shown = role !== null && (!QUIET_ROLES.has(role) || name !== '' || marks.length > 0);
    let inner = depth;
    if (shown || marks.some((m) => m.startsWith('screen='))) {
      lines.push(`${'  '.repeat(depth)}${[role ?? 'region', name ? quote(name) : '', ...marks].filter(Boolean).join(' ')}`);
      inner = depth + 1;
    }
    for (const child of Array.from(el.childNodes)) walk(child, inner);
  };
  walk(root, 0);
  return mergeTextRuns(lines).join('\n') + '\n';
}

/** Adjacent text lines at one depth read as one phrase ("共", "3", "条" → "共 3 条"). */
function mergeTextRuns(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const prev = out[out.length - 1];
    const m = /^(\s*)"(.*)"$/.exec(line);
    const p = prev ? /^(\s*)"(.*)"$/.exec(prev) : null;
    if (m && p && m[1] === p[1]) {
      out[out.length - 1] = `${m[1]}${quote(`${JSON.parse(`"${p[2]}"`)} ${JSON.parse(`"${m[2]}"`)}`)}`;
    } else out.push(line);
  }
  return out;
}

/** Rendered markup without the version-hashed and per-run class names antd adds. */
export function markupWithoutHashes(html: string): string {
  return html
    .replace(/\s*css-dev-only-do-not-override-[a-z0-9]+/g, '')
    .replace(/\s*css-var-[^\s"]+/g, '')
    .replace(/\s*:where\(\.css[^)]*\)/g, '')
    .replace(/class=" +/g, 'class="')
    .replace(/class=""/g, '');
}
