import { CloseCircleOutlined, CloseOutlined, ColumnWidthOutlined, EllipsisOutlined, HomeOutlined, ReloadOutlined, VerticalLeftOutlined, VerticalRightOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space, theme, type MenuProps } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { HOME_TAB, tabHref, type Tab, type TabAction } from './tab-list.ts';

export interface TabStripProps {
  tabs: readonly Tab[];
  activeKey: string;
  titleOf(key: string): string;
  dispatch(action: TabAction): void;
}

type ActionName = 'refresh' | 'close' | 'closeOthers' | 'closeLeft' | 'closeRight' | 'closeAll';

/**
 * The visited tabs (spec 2.6): one per route, with Refresh, Close, Close Others, Close
 * Left, Close Right and Close All from the buttons at the end of the strip and from each
 * tab's context menu. The home tab is pinned: first, without a close button, and kept by
 * every close action (tab-list.ts).
 *
 * The tabs switch pages, so they are links in a navigation list (the current one marked
 * aria-current), not an ARIA tablist: a tablist may hold nothing but tabs, and each of
 * these has its own close button.
 */
export function TabStrip({ tabs, activeKey, titleOf, dispatch }: TabStripProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const activeRef = useRef<HTMLLIElement>(null);

  useEffect(() => {
    activeRef.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [activeKey, tabs.length]);

  const run = (action: ActionName, key: string) => {
    if (action === 'closeAll') dispatch({ type: 'closeAll' });
    else dispatch({ type: action, key });
  };

  const actionMenu = (key: string): MenuProps => {
    const at = tabs.findIndex((x) => x.key === key);
    // Nothing but the pinned home tab on that side: nothing to close.
    const noLeft = at <= 1;
    const noRight = at < 0 || at === tabs.length - 1;
    return {
      items: [
        { key: 'refresh', icon: <ReloadOutlined aria-hidden />, label: t('shell.tabs.refresh') },
        { key: 'close', icon: <CloseOutlined aria-hidden />, label: t('shell.tabs.close'), disabled: key === HOME_TAB },
        { key: 'closeOthers', icon: <ColumnWidthOutlined aria-hidden />, label: t('shell.tabs.closeOthers') },
        { key: 'closeLeft', icon: <VerticalRightOutlined aria-hidden />, label: t('shell.tabs.closeLeft'), disabled: noLeft },
        { key: 'closeRight', icon: <VerticalLeftOutlined aria-hidden />, label: t('shell.tabs.closeRight'), disabled: noRight },
        { key: 'closeAll', icon: <CloseCircleOutlined aria-hidden />, label: t('shell.tabs.closeAll') },
      ],
      onClick: ({ key: action, domEvent }) => {
        domEvent.stopPropagation();
        run(action as ActionName, key);
      },
    };
  };

  return (
    <nav
      aria-label={t('shell.tabs.label')}
      style={{ background: '#fff', borderBottom: '1px solid #f0f0f0', padding: '0 12px', display: 'flex', alignItems: 'center', gap: 8, minHeight: 40 }}
      data-testid="tab-strip"
    >
      <ul style={{ display: 'flex', gap: 6, overflowX: 'auto', listStyle: 'none', margin: 0, padding: '6px 0', flex: 1, minWidth: 0, scrollbarWidth: 'thin' }}>
        {tabs.map((tab) => {
          const active = tab.key === activeKey;
          const pinned = tab.key === HOME_TAB;
          const title = titleOf(tab.key);
          return (
            <li key={tab.key} ref={active ? activeRef : undefined} style={{ flex: 'none' }} data-testid="tab" data-key={tab.key} data-active={active} data-pinned={pinned || undefined}>
              {/* The context menu acts on the tab it was opened on; the buttons after the strip on the active tab. */}
              <Dropdown trigger={['contextMenu']} menu={actionMenu(tab.key)}>
                <span
                  style={{
                    display: 'inline-flex',
                    alignItems: 'center',
                    gap: 4,
                    height: 26,
                    padding: pinned ? '0 10px' : '0 6px 0 10px',
                    borderRadius: token.borderRadiusSM,
                    border: `1px solid ${active ? token.colorPrimary : token.colorBorder}`,
                    background: active ? token.colorPrimary : '#fff',
                    color: active ? '#fff' : token.colorText,
                    fontSize: 13,
                    whiteSpace: 'nowrap',
                  }}
                >
                  {pinned ? <HomeOutlined aria-hidden /> : null}
                  <Link to={tabHref(tab)} aria-current={active ? 'page' : undefined} style={{ color: 'inherit' }} data-testid="tab-label">
                    {title}
                  </Link>
                  {pinned ? null : (
                    <button
                      type="button"
                      aria-label={`${t('shell.tabs.close')}: ${title}`}
                      title={t('shell.tabs.close')}
                      onClick={() => dispatch({ type: 'close', key: tab.key })}
                      style={{ border: 0, background: 'transparent', color: 'inherit', cursor: 'pointer', padding: 2, lineHeight: 1, fontSize: 10, borderRadius: '50%' }}
                      data-testid="tab-close"
                    >
                      <CloseOutlined aria-hidden />
                    </button>
                  )}
                </span>
              </Dropdown>
            </li>
          );
        })}
      </ul>
      <Space size={2} style={{ flex: 'none' }}>
        <Button
          type="text"
          size="small"
          icon={<ReloadOutlined aria-hidden />}
          aria-label={t('shell.tabs.refresh')}
          title={t('shell.tabs.refresh')}
          onClick={() => run('refresh', activeKey)}
          data-testid="tab-refresh"
        />
        <Dropdown trigger={['click']} menu={actionMenu(activeKey)}>
          <Button type="text" size="small" icon={<EllipsisOutlined aria-hidden />} aria-label={t('shell.tabs.actions')} title={t('shell.tabs.actions')} data-testid="tab-actions" />
        </Dropdown>
      </Space>
    </nav>
  );
}
