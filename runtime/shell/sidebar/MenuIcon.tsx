import { createElement, useEffect, useState, type ComponentType } from 'react';

type IconModule = Record<string, unknown>;

let loading: Promise<IconModule> | null = null;
let loaded: IconModule | null = null;

/**
 * Icons are named in data (menus, schemas), so any of @ant-design/icons may be asked for.
 * The whole set is one lazily loaded chunk, fetched once after the first paint, instead of
 * being part of the console's main bundle.
 */
function loadIcons(): Promise<IconModule> {
  loading ??= import('@ant-design/icons').then((m) => (loaded = m as unknown as IconModule));
  return loading;
}

function lookup(icons: IconModule, name: string): ComponentType<{ 'aria-hidden'?: boolean }> | null {
  const candidate = icons[name];
  // Icon components are forwardRef objects; helpers such as createFromIconfontCN are functions.
  return candidate && typeof candidate === 'object' && /(Outlined|Filled|TwoTone)$/.test(name)
    ? (candidate as ComponentType<{ 'aria-hidden'?: boolean }>)
    : null;
}

/** An @ant-design/icons icon by name; nothing for an unknown name. Decorative (aria-hidden). */
export function MenuIcon({ name }: { name?: string | null }) {
  const [icons, setIcons] = useState<IconModule | null>(loaded);
  useEffect(() => {
    if (icons || !name) return;
    let alive = true;
    void loadIcons().then((m) => alive && setIcons(m));
    return () => {
      alive = false;
    };
  }, [icons, name]);
  if (!name) return null;
  const Icon = icons ? lookup(icons, name) : null;
  // The placeholder keeps the label from shifting when the icon arrives.
  if (!Icon) return <span className="anticon" aria-hidden style={{ width: '1em', height: '1em', display: 'inline-block' }} />;
  return createElement(Icon, { 'aria-hidden': true });
}
