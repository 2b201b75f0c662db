import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { loadResourceDocuments, type ResourceDocument } from '../../runtime/schema/resource.ts';

export const RESOURCES_DIR = fileURLToPath(new URL('../../schemas/resources/', import.meta.url));

/**
 * Reads every `*.json` of `dir` and checks them as a set. An invalid document throws a
 * ResourceDocumentError naming the file, the JSON pointer and the reason, which stops
 * the server at start instead of serving a half-understood resource.
 */
export async function readResourceDocuments(dir = RESOURCES_DIR): Promise<ResourceDocument[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const sources = await Promise.all(
    files.map(async (f) => ({ file: relative(process.cwd(), `${dir.replace(/\/$/, '')}/${f}`) || f, text: await readFile(`${dir.replace(/\/$/, '')}/${f}`, 'utf8') })),
  );
  return loadResourceDocuments(sources);
}
