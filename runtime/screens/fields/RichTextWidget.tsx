/**
 * The `richText` form widget: a contenteditable area with a small toolbar (heading, bold,
 * italic, lists, link, clear formatting) writing HTML into the field. The browser's
 * editing commands do the work, so no editor library is needed; the value is sanitised
 * here when shown (DOMPurify) and again by the server when saved, which is the guarantee.
 * Read-only modes show the sanitised HTML.
 */
import { BoldOutlined, ClearOutlined, ItalicOutlined, LinkOutlined, OrderedListOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { Button, Input, Popover, Space, Tooltip, theme } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import { safeHtml } from '../safe-html.ts';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** HTML safe to put into the page: no scripts, event attributes or javascript: links. */
export { safeHtml } from '../safe-html.ts';

/** An empty editor leaves `<br>` or empty paragraphs behind: those count as no value. */
export function editorValue(html: string): string | undefined {
  const text = html.replace(/<br\s*\/?>/gi, '').replace(/<(p|div|h[1-6])>\s*<\/\1>/gi, '').trim();
  return text === '' ? undefined : html;
}

export function RichTextWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const area = useRef<HTMLDivElement>(null);
  const [linkOpen, setLinkOpen] = useState(false);
  const [link, setLink] = useState('https://');
  const saved = useRef<Range | null>(null);
  const value = typeof props.value === 'string' ? props.value : '';
  const editable = !(props.disabled || props.readonly);

  // Only outside changes (loading a record) are written into the area, never its own
  // input echoed back, so the caret stays where the user types.
  useEffect(() => {
    const el = area.current;
    if (el && el.innerHTML !== value) el.innerHTML = safeHtml(value);
  }, [value]);

  const emit = () => props.onChange(editorValue(area.current?.innerHTML ?? ''));
  const exec = (command: string, arg?: string) => {
    area.current?.focus();
    if (saved.current) {
      const sel = window.getSelection();
      sel?.removeAllRanges();
      sel?.addRange(saved.current);
      saved.current = null;
    }
    document.execCommand(command, false, arg);
    emit();
  };
  const remember = () => {
    const sel = window.getSelection();
    if (sel && sel.rangeCount && area.current?.contains(sel.anchorNode)) saved.current = sel.getRangeAt(0).cloneRange();
  };

  const tool = (key: string, icon: ReactNode, run: () => void, text?: string) => (
    <Tooltip key={key} title={t(`screens.richText.${key}`)}>
      <Button size="small" type="text" icon={icon} aria-label={t(`screens.richText.${key}`)} onMouseDown={(e) => e.preventDefault()} onClick={run} disabled={!editable}>
        {text}
      </Button>
    </Tooltip>
  );

  return (
    <div style={{ border: `1px solid ${token.colorBorder}`, borderRadius: token.borderRadius, background: editable ? token.colorBgContainer : token.colorBgContainerDisabled }}>
      {editable ? (
        <Space size={2} wrap role="toolbar" aria-label={t('screens.richText.toolbar')} style={{ padding: 4, borderBottom: `1px solid ${token.colorBorderSecondary}`, width: '100%' }}>
          {tool('heading', null, () => exec('formatBlock', 'h3'), 'H')}
          {tool('paragraph', null, () => exec('formatBlock', 'p'), '¶')}
          {tool('bold', <BoldOutlined />, () => exec('bold'))}
          {tool('italic', <ItalicOutlined />, () => exec('italic'))}
          {tool('bulleted', <UnorderedListOutlined />, () => exec('insertUnorderedList'))}
          {tool('numbered', <OrderedListOutlined />, () => exec('insertOrderedList'))}
          <Popover
            open={linkOpen}
            onOpenChange={(o) => {
              if (o) remember();
              setLinkOpen(o);
            }}
            trigger="click"
            content={
              <Space.Compact>
                <Input aria-label={t('screens.richText.linkUrl')} value={link} onChange={(e) => setLink(e.target.value)} style={{ width: 260 }} />
                <Button
                  type="primary"
                  onClick={() => {
                    setLinkOpen(false);
                    if (/^(https?:\/\/|\/|mailto:)/i.test(link.trim())) exec('createLink', link.trim());
                  }}
                >
                  {t('screens.confirm')}
                </Button>
              </Space.Compact>
            }
          >
            <span>{tool('link', <LinkOutlined />, () => undefined)}</span>
          </Popover>
          {tool('clear', <ClearOutlined />, () => exec('removeFormat'))}
        </Space>
      ) : null}
      {/* biome-ignore lint/a11y/useSemanticElements lint/a11y/useFocusableInteractive: a contentEditable rich-text area is a textbox no input element can be; it takes focus when editable */}
      <div
        id={props.id}
        ref={area}
        role="textbox"
        aria-multiline
        aria-label={props.label}
        aria-readonly={!editable || undefined}
        contentEditable={editable}
        suppressContentEditableWarning
        onInput={emit}
        onBlur={() => props.onBlur(props.id, props.value)}
        onFocus={() => props.onFocus(props.id, props.value)}
        data-rich-text
        style={{ minHeight: 200, maxHeight: 560, overflow: 'auto', padding: '8px 12px', outline: 'none' }}
      />
    </div>
  );
}
