/**
 * The lint rules, in the order their problems are reported (per document, rule after
 * rule). A new check is one module added here; the registry, schemas:check, the server's
 * publish step and a studio's publish gate all run this list.
 */
import type { ResourceRule, ScreenRule } from '../context.ts';
import { authorityRule } from './authority.ts';
import { dashboardRule } from './dashboard.ts';
import { detailRule } from './detail.ts';
import { formRule } from './form.ts';
import { menuTitleRule } from './menu-title.ts';
import { pageRule } from './page.ts';
import { publicPathsRule } from './public-paths.ts';
import { recordTitleRule } from './record-title.ts';
import { resourceAuthoritiesRule } from './resource-authorities.ts';
import { resourceElementCodesRule } from './resource-element-codes.ts';
import { screenResourceRule } from './screen-resource.ts';
import { tableRule } from './table.ts';
import { untranslatedTextsRule } from './untranslated-texts.ts';
import { widgetRule } from './widget.ts';

export const SCREEN_RULES: readonly ScreenRule[] = [
  authorityRule,
  screenResourceRule,
  menuTitleRule,
  recordTitleRule,
  publicPathsRule,
  untranslatedTextsRule,
  // The parts of each kind of screen.
  tableRule,
  formRule,
  detailRule,
  pageRule,
  dashboardRule,
  widgetRule,
];

export const RESOURCE_RULES: readonly ResourceRule[] = [resourceAuthoritiesRule, resourceElementCodesRule];
