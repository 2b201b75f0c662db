import { NamedIcon } from '../../icons/NamedIcon.tsx';

/**
 * A menu's icon, named in the menu tree: each icon is a file loaded the first time a menu
 * names it (runtime/icons/by-name.ts), not the whole set. Decorative (aria-hidden); an
 * unknown name renders nothing.
 */
export function MenuIcon({ name }: { name?: string | null }) {
  return <NamedIcon name={name} decorative />;
}
