import { FontSizeOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ComponentSize } from '../../session/persistence.ts';
import { useSaveSize, useSize } from '../state/preferences.ts';

const SIZES: readonly ComponentSize[] = ['large', 'middle', 'small'];

/** The global size (spec 2.6): large, medium (default) or small, for every antd component; kept in the `size` cookie. */
export function SizeSwitch() {
  const { t } = useTranslation();
  const size = useSize();
  const setSize = useSaveSize();
  const label = t('shell.size.label');
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: SIZES.map((s) => ({ key: s, label: t(`shell.size.${s}`) })),
        onClick: ({ key }) => setSize(key as ComponentSize),
      }}
    >
      <Button type="text" icon={<FontSizeOutlined aria-hidden />} aria-label={`${label}: ${t(`shell.size.${size}`)}`} title={label} data-testid="size-switch" />
    </Dropdown>
  );
}

