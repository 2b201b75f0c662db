import type { ReactNode } from 'react';
import type { GatedRoute } from '../routing/route-table.ts';

/**
 * A screen the console can route to. The schema runtime supplies these from screen
 * documents; ConsoleApp routes the permitted ones and shows 401 for the others.
 */
export interface ScreenRoute extends GatedRoute {
  element: ReactNode;
}
