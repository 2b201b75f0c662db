import { CloseCircleOutlined, CloseOutlined, ColumnWidthOutlined, EllipsisOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space, Tabs, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { Tab, TabAction } from './tab-list.ts';

export interface TabStripProps {
  tabs: readonly Tab[];
  activeKey: string;
  titleOf(key: string): string;
  dispatch(action: TabAction): void;
}

type ActionName = 'refresh' | 'close' | 'closeOthers' | 'closeAll';

/**
 * The visited tabs (spec 2.6): one per route, with Refresh, Close, Close Others and Close
 * All from the buttons at the end of the strip and from each tab's context menu.
 */
export function TabStrip({ tabs, activeKey, titleOf, dispatch }: TabStripProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();

  const actionMenu = (key: string): MenuProps => ({
    items: [
      { key: 'refresh', icon: <ReloadOutlined aria-hidden />, label: t('shell.tabs.refresh') },
      { key: 'close', icon: <CloseOutlined aria-hidden />, label: t('shell.tabs.close') },
      { key: 'closeOthers', icon: <ColumnWidthOutlined aria-hidden />, label: t('shell.tabs.closeOthers') },
      { key: 'closeAll', icon: <CloseCircleOutlined aria-hidden />, label: t('shell.tabs.closeAll') },
    ],
    onClick: ({ key: action, domEvent }) => {
      domEvent.stopPropagation();
      run(action as ActionName, key);
    },
  });

  const run = (action: ActionName, key: string) => {
    if (action === 'closeAll') dispatch({ type: 'closeAll' });
    else dispatch({ type: action, key });
  };

  const items = tabs.map((tab) => {
    const title = titleOf(tab.key);
    return {
      key: tab.key,
      closable: true,
      label: (
        // The context menu acts on the tab it was opened on; the buttons on the active tab.
        <Dropdown trigger={['contextMenu']} menu={actionMenu(tab.key)}>
          <span data-testid="tab-label" data-key={tab.key}>
            {title}
          </span>
        </Dropdown>
      ),
    };
  });

  return (
    <nav aria-label={t('shell.tabs.label')} style={{ background: '#fff', borderBottom: '1px solid #f0f0f0', padding: '6px 12px 0' }} data-testid="tab-strip">
      <Tabs
        type="editable-card"
        hideAdd
        size="small"
        activeKey={tabs.some((x) => x.key === activeKey) ? activeKey : undefined}
        items={items}
        onChange={(key) => void navigate(key)}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') dispatch({ type: 'close', key });
        }}
        removeIcon={<CloseOutlined aria-label={t('shell.tabs.close')} />}
        tabBarStyle={{ margin: 0 }}
        tabBarExtraContent={{
          right: (
            <Space size={2} style={{ paddingInlineStart: 8 }}>
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
          ),
        }}
      />
    </nav>
  );
}
