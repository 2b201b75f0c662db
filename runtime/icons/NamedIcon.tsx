import { createElement, useEffect, useState } from 'react';
import { loadedIcon, loadIcon, type IconComponent } from './by-name.ts';

/**
 * An icon by name (by-name.ts); `decorative` hides it from assistive technology (a menu's
 * icon beside its label), otherwise it keeps antd's own role="img" and label. While its file loads, an empty box of the
 * icon's size keeps the label beside it from shifting; an unknown name renders nothing
 * (schemas:check is where names are judged).
 */
export function NamedIcon({ name, decorative = false }: { name?: string | null; decorative?: boolean }) {
  const [icon, setIcon] = useState<{ name: string; component: IconComponent | null } | null>(null);
  const ready = name ? loadedIcon(name) : null;
  useEffect(() => {
    if (!name || ready !== undefined) return;
    let alive = true;
    void loadIcon(name).then((component) => alive && setIcon({ name, component }));
    return () => {
      alive = false;
    };
  }, [name, ready]);
  if (!name) return null;
  const component = ready !== undefined ? ready : icon?.name === name ? icon.component : undefined;
  if (component === null) return null;
  if (component === undefined) return <span className="anticon" aria-hidden style={{ width: '1em', height: '1em', display: 'inline-block' }} />;
  return createElement(component, decorative ? { 'aria-hidden': true } : {});
}
