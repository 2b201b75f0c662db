import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Queryable } from '../db/database.ts';
import { entryPath, loadMenus, type MenuChild, type MenuDocument } from '../../runtime/schema/menus.ts';

export const MENUS_FILE = fileURLToPath(new URL('../../schemas/menus.json', import.meta.url));

/** schemas/menus.json, validated; a broken file stops the seed with file, pointer and reason. */
export async function readMenusFile(file = MENUS_FILE): Promise<MenuDocument> {
  const text = await readFile(file, 'utf8');
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${(err as Error).message})`);
  }
  return loadMenus(doc, file);
}

/**
 * Writes the tree into the menus table, matching rows by code: new entries are added,
 * existing ones take the file's values. Entries only in the table (added from the
 * console) are left alone.
 */
export async function syncMenus(db: Queryable, doc: MenuDocument): Promise<number> {
  let count = 0;
  const upsert = async (entry: MenuChild & { defaultChild?: string }, parentId: number | null): Promise<number> => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO menus(parent_id, code, path, title, icon, sort, hidden, default_child, elements)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (code) DO UPDATE SET parent_id = EXCLUDED.parent_id, path = EXCLUDED.path, title = EXCLUDED.title,
         icon = EXCLUDED.icon, sort = EXCLUDED.sort, hidden = EXCLUDED.hidden, default_child = EXCLUDED.default_child,
         elements = EXCLUDED.elements,
         version = menus.version + CASE WHEN (menus.parent_id, menus.path, menus.title, menus.icon, menus.sort, menus.hidden,
             menus.default_child, menus.elements) IS NOT DISTINCT FROM (EXCLUDED.parent_id, EXCLUDED.path, EXCLUDED.title,
             EXCLUDED.icon, EXCLUDED.sort, EXCLUDED.hidden, EXCLUDED.default_child, EXCLUDED.elements) THEN 0 ELSE 1 END
       RETURNING id`,
      [
        parentId,
        entry.code,
        entryPath(entry),
        JSON.stringify(entry.title),
        entry.icon ?? null,
        entry.sort ?? 0,
        entry.hidden === true,
        entry.defaultChild ?? null,
        JSON.stringify(entry.elements ?? []),
      ],
    );
    count++;
    return rows[0].id;
  };
  for (const section of doc.menus) {
    const id = await upsert(section, null);
    for (const child of section.children) await upsert(child, id);
  }
  return count;
}
