/**
 * Icons by name, as schemas write them ("PlusOutlined"): any component of
 * @ant-design/icons. An unknown name renders nothing rather than failing the screen
 * (schemas:check is where names are judged).
 */
import * as AntIcons from '@ant-design/icons';
import type { ComponentType } from 'react';

const registry = AntIcons as unknown as Record<string, ComponentType | undefined>;

export function SchemaIcon({ name }: { name?: string }) {
  if (!name || !/^[A-Z][A-Za-z0-9]*(Outlined|Filled|TwoTone)$/.test(name)) return null;
  const Icon = registry[name];
  return Icon ? <Icon /> : null;
}
