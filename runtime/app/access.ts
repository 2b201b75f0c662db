import { can, type Grants } from '../access/can.ts';
import { elementCodesAtom, menuCodesAtom } from '../session/atoms.ts';
import type { AccessChecks, ConsoleServices } from '../services/contract.ts';

/** The contract's access checks: `can` over the session's menu and element codes, read when asked. */
export function createAccessChecks(store: ConsoleServices['store']): AccessChecks {
  const grants = (): Grants => ({ menus: store.get(menuCodesAtom), elements: store.get(elementCodesAtom) });
  return { can: ((target: never, action?: never) => can(grants(), target, action)) as AccessChecks['can'] };
}
