/**
 * What the overlay host (ScreenView.tsx) shares with the action runner and the form:
 * kept apart from actions.tsx and FormView.tsx so the host's code does not pull the
 * form's bundle (rjsf, ajv) or the icon set in before a form is actually opened.
 */
import { createContext } from 'react';
import type { FormMode, FormScreen } from '../schema/screen.ts';
import { isI18nText, textOf, type I18nText, type Lang } from '../schema/texts.ts';
import { composeTitle, type Translate } from './screen-title.ts';

/** A form opened by an action, in a drawer or a modal over the screen that opened it. */
export interface FormRequest {
  screen: string;
  mode: FormMode;
  container: 'drawer' | 'modal';
  width?: number;
  /** Route parameters of the form: its id parameter, resolved. */
  params: Record<string, string | undefined>;
  initial: Record<string, unknown>;
  /** The record's name for the title (the action's `subject`): a string or a text in three languages. */
  subject?: string | I18nText;
  /** Run after a successful submit. */
  onSaved?: () => void;
}

export const FormOverlayContext = createContext<((req: FormRequest) => void) | null>(null);

/**
 * A form's title in its mode, naming the record: by the name it reported once loaded
 * (screen-title.ts), else by the subject the opening action gave.
 */
export function formTitle(screen: FormScreen, mode: FormMode, lang: Lang, t: Translate, name?: string | I18nText | null): string {
  const text = name == null ? null : isI18nText(name) ? textOf(name, lang) : name;
  return composeTitle(textOf(screen.title, lang), mode, text, t);
}
